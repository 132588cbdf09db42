package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Simulated nodes and their kubelets on a real API server. Registers Node objects and acts as the
 * kubelet of each: one pod informer for all nodes (pods with a {@code spec.nodeName}) hands pods to
 * a bounded worker pool, so a thousand nodes cost no thread each. See {@link SimulatedKubelet} for
 * what happens to a pod, and {@link NodeFault} for what can go wrong on demand.
 *
 * <p>A NotReady node's kubelet is down: its pods are left as they are until it is Ready again.
 * Pods being deleted are confirmed (deleted with grace period 0) as a kubelet does, unless their
 * node is NotReady or gone, where they stay Terminating as in a real cluster.
 */
public final class SimulatedCluster implements AutoCloseable {

    /** Label on every Node this cluster registers, valued with the cluster's id. */
    public static final String CLUSTER_LABEL = "simulated.rdmastorage.io/cluster";

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedCluster.class);

    private final KubernetesClient client;
    private final SimulatedKubelet kubelet;
    private final ExecutorService workers;
    private final Path scratchRoot;
    private final String id = UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, SimulatedNode> nodes = new ConcurrentHashMap<>();
    private final Map<String, String> hostIps = new ConcurrentHashMap<>();
    private final Map<String, PodRun> runs = new ConcurrentHashMap<>();
    private final AtomicInteger nextIp = new AtomicInteger();
    private final SharedIndexInformer<Pod> pods;
    private final String kubeletVersion;
    private final boolean realisticNodes;

    /** One pod's handling: its worker task, and whether it has stopped on purpose. */
    private static final class PodRun {
        volatile Future<?> task;
        volatile boolean cancelled;
        volatile boolean finished;
        /** A resync came while the run was still on its way out (guarded by the run): drive the pod again after it. */
        boolean resyncRequested;
    }

    private SimulatedCluster(Builder builder) {
        this.client = builder.client;
        this.kubelet = new SimulatedKubelet(client, builder.launcher,
                builder.resolver != null ? builder.resolver : new VolumeFileResolver(client), builder.isProbe,
                builder.recordedProbes, builder.finalStatusOnly);
        this.workers = new ThreadPoolExecutor(builder.workers, builder.workers, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "simulated-kubelet-" + id);
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            this.scratchRoot = Files.createTempDirectory("rso-simulated-kubelet-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = client.getKubernetesVersion().getGitVersion();
        this.kubeletVersion = version != null ? version : "v0.0.0";
        this.realisticNodes = builder.realisticNodes;
        // One watch for every simulated node: pods that are bound to some node.
        this.pods = client.pods().inAnyNamespace().withoutField("spec.nodeName", "").inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                onPod(pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod pod) {
                onPod(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                PodRun run = runs.remove(pod.getMetadata().getUid());
                if (run != null) {
                    cancel(run);
                }
            }
        }, 0);
    }

    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** This cluster's value of {@link #CLUSTER_LABEL} on every node it registers: selects exactly its nodes. */
    public String id() {
        return id;
    }

    /** Registers a node (one API call: the Node object with its status) and starts acting as its kubelet. */
    public void addNode(SimulatedNode node) {
        addNodes(List.of(node));
    }

    /** Registers many nodes, several requests at a time. */
    public void addNodes(Collection<SimulatedNode> newNodes) {
        List<Future<?>> created = new ArrayList<>();
        for (SimulatedNode node : newNodes) {
            int n = nextIp.getAndIncrement();
            // loopback addresses: anything that connects to a simulated node stays on this machine
            hostIps.put(node.name(), "127.1." + (n / 250) + "." + (1 + n % 250));
            nodes.put(node.name(), node);
            Node object = realisticNodes ? RealisticNodes.dress(nodeObject(node), n) : nodeObject(node);
            created.add(workers.submit(() -> client.nodes().resource(object).create()));
        }
        await(created);
    }

    /** Changes a node's fault; pods it had parked (Pending, hanging) are picked up again. */
    public void setFault(String nodeName, NodeFault fault) {
        SimulatedNode node = update(nodeName, n -> n.withFault(fault));
        resync(node.name());
    }

    /** Lifts every node's fault, so that what is left of a test (a cleanup pod, say) can run to its end. */
    public void clearFaults() {
        nodes.values().stream().filter(n -> n.fault() != NodeFault.NONE).map(SimulatedNode::name).toList()
                .forEach(name -> setFault(name, NodeFault.NONE));
    }

    /** Marks a node Ready or NotReady (condition and taint), as its kubelet and node controller would. */
    public void setReady(String nodeName, boolean ready) {
        SimulatedNode node = update(nodeName, n -> n.withReady(ready));
        Node desired = nodeObject(node);
        // the operator marks the same Node: each write read afresh and made again on a conflict
        ContendedEdits.editNode(client, nodeName,
                existing -> existing.getSpec().setTaints(desired.getSpec().getTaints()));
        ContendedEdits.editNodeStatus(client, nodeName,
                existing -> existing.getStatus().setConditions(desired.getStatus().getConditions()));
        if (ready) {
            resync(nodeName);
        }
    }

    /** Deletes the Node object; its pods are left as they are (no kubelet confirms anything any more). */
    public void removeNode(String nodeName) {
        if (nodes.remove(nodeName) != null) {
            client.nodes().withName(nodeName).delete();
        }
    }

    public Optional<SimulatedNode> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    /** The address the node reports as InternalIP (and host IP of its pods). */
    public String hostIp(String nodeName) {
        return hostIps.get(nodeName);
    }

    private SimulatedNode update(String nodeName, java.util.function.UnaryOperator<SimulatedNode> change) {
        SimulatedNode changed = nodes.computeIfPresent(nodeName, (name, node) -> change.apply(node));
        if (changed == null) {
            throw new IllegalArgumentException("no simulated node " + nodeName);
        }
        return changed;
    }

    private void onPod(Pod pod) {
        String nodeName = pod.getSpec().getNodeName();
        SimulatedNode node = nodes.get(nodeName);
        if (node == null || !node.ready()) {
            return; // not ours, gone, or its kubelet is down
        }
        String uid = pod.getMetadata().getUid();
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            PodRun run = runs.computeIfAbsent(uid, u -> new PodRun());
            if (!run.cancelled) {
                cancel(run);
                workers.submit(() -> confirmDeletion(pod));
            }
            return;
        }
        String phase = pod.getStatus() != null ? pod.getStatus().getPhase() : null;
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return;
        }
        PodRun run = new PodRun();
        if (runs.putIfAbsent(uid, run) != null) {
            return; // already handled; this event is most likely our own status write
        }
        run.task = workers.submit(() -> drive(pod, run));
    }

    private void drive(Pod pod, PodRun run) {
        String nodeName = pod.getSpec().getNodeName();
        Path scratch = scratchRoot.resolve(pod.getMetadata().getUid());
        SimulatedKubelet.NodeAccess access = new SimulatedKubelet.NodeAccess() {
            @Override
            public SimulatedNode node() {
                SimulatedNode node = nodes.get(nodeName);
                return node != null ? node : SimulatedNode.named(nodeName);
            }

            @Override
            public String hostIp() {
                return hostIps.getOrDefault(nodeName, "127.0.0.1");
            }

            @Override
            public boolean stillRunning() {
                SimulatedNode node = nodes.get(nodeName);
                return !run.cancelled && node != null && node.ready() && !Thread.currentThread().isInterrupted();
            }

            @Override
            public void disappear() {
                removeNode(nodeName);
            }
        };
        boolean terminal = false;
        try {
            terminal = kubelet.run(pod, access, scratch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!run.cancelled) {
                LOG.warn("simulated kubelet failed on pod {}/{}: {}", pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), e.toString());
            }
        } finally {
            TempDirs.delete(scratch);
        }
        boolean again;
        synchronized (run) {
            run.finished = true;
            again = run.resyncRequested && !terminal && !run.cancelled;
        }
        if (again) {
            // the node's fault changed after this run read it (a test lifting it as soon as it saw the
            // pod Pending): the pod is driven again as the resync meant it to be
            runs.remove(pod.getMetadata().getUid(), run);
            Pod latest = pods.getStore().getByKey(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
            if (latest != null) {
                onPod(latest);
            }
        }
    }

    /** Re-reads the node's bound pods from the informer cache and handles those not being handled. */
    private void resync(String nodeName) {
        for (Pod pod : pods.getStore().list()) {
            if (nodeName.equals(pod.getSpec().getNodeName())) {
                PodRun run = runs.get(pod.getMetadata().getUid());
                if (run != null) {
                    synchronized (run) {
                        if (!run.finished) {
                            run.resyncRequested = true;   // still on its way out: it drives the pod again when done
                            continue;
                        }
                    }
                    if (!run.cancelled) {
                        runs.remove(pod.getMetadata().getUid(), run);
                    }
                }
                onPod(pod);
            }
        }
    }

    private void confirmDeletion(Pod pod) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .withGracePeriod(0).delete();
        } catch (KubernetesClientException e) {
            LOG.debug("confirming deletion of {}: {}", pod.getMetadata().getName(), e.getMessage());
        }
    }

    private Node nodeObject(SimulatedNode node) {
        return SimulatedNodeObject.of(node, id, hostIps.get(node.name()), kubeletVersion);
    }

    private static void cancel(PodRun run) {
        run.cancelled = true;
        Future<?> task = run.task;
        if (task != null) {
            task.cancel(true);
        }
    }

    private static void await(List<Future<?>> futures) {
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /** Stops the kubelets and deletes the Node objects this cluster registered. */
    @Override
    public void close() {
        pods.close();
        workers.shutdownNow();
        runs.values().forEach(SimulatedCluster::cancel);
        try {
            client.nodes().withLabel(CLUSTER_LABEL, id).delete();
        } catch (KubernetesClientException e) {
            LOG.debug("could not delete simulated nodes: {}", e.getMessage());
        }
        nodes.clear();
        TempDirs.delete(scratchRoot);
    }

    /** Options of a {@link SimulatedCluster}; every one has a default. */
    public static final class Builder {
        private final KubernetesClient client;
        private ProbeLauncher launcher = new InProcessProbeLauncher();
        private PodFileResolver resolver;
        private Predicate<Container> isProbe = c -> c.getImage() != null && c.getImage().contains("node-probe");
        private int workers = 16;
        private boolean recordedProbes;
        private boolean finalStatusOnly;
        private boolean realisticNodes;

        private Builder(KubernetesClient client) {
            this.client = client;
        }

        /** How probe containers run; default in-process ({@link InProcessProbeLauncher}). */
        public Builder probeLauncher(ProbeLauncher value) {
            this.launcher = value;
            return this;
        }

        /** How container paths (e.g. {@code --spec FILE}) become local files; default {@link VolumeFileResolver}. */
        public Builder fileResolver(PodFileResolver value) {
            this.resolver = value;
            return this;
        }

        /** Which containers are node-probe; default: the image name contains "node-probe". */
        public Builder probeContainer(Predicate<Container> value) {
            this.isProbe = value;
            return this;
        }

        /** Worker threads shared by all kubelets (status writes and in-process probes); default 16. */
        public Builder workers(int value) {
            this.workers = value;
            return this;
        }

        /**
         * For benchmarks, off by default: node-probe runs once per host root and spec, and every
         * later probe container with the same host root, spec and arguments gets that run's report
         * with its own node name and start time ({@link RecordedProbes}). The kubelets then cost
         * little besides their API requests, so a benchmark measures the operator, not the probes.
         */
        public Builder recordedProbes(boolean value) {
            this.recordedProbes = value;
            return this;
        }

        /**
         * For benchmarks, off by default: a probe pod on a healthy node gets one status write, its
         * terminal one, instead of Pending (ContainerCreating), Running and terminated — as a real
         * kubelet may report a container that ends before its status is first synced. Off, a pod
         * is Running while its probe runs, which tests of in-flight probes rely on.
         */
        public Builder finalStatusOnly(boolean value) {
            this.finalStatusOnly = value;
            return this;
        }

        /**
         * For benchmarks, off by default: each Node also carries what a real GPU node's kubelet,
         * cloud and add-ons report ({@link RealisticNodes}: pressure conditions, 25 images, GPU and
         * RDMA capacity, labels and annotations), so that what a cache of Nodes costs is measured
         * on Nodes of a real size. Off, a Node has what the simulation needs and no more.
         */
        public Builder realisticNodes(boolean value) {
            this.realisticNodes = value;
            return this;
        }

        public SimulatedCluster start() {
            return new SimulatedCluster(this);
        }
    }
}
