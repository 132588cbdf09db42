package io.rdmastorage.benchmark;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.OperatorRbac;
import io.rdmastorage.testing.PodCgroup;
import io.rdmastorage.testing.ProjectImages;
import io.rdmastorage.testing.RealNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * What one probe round costs a real cluster, measured where every actor is real: a kubelet with
 * containerd and runc ({@link RealNode}), kube-scheduler and kube-controller-manager, etcd and
 * kube-apiserver with an audit log of everyone's requests, and the operator jar as its service
 * account with leader election on, as the chart runs it. One node, a profile of the DESIGN
 * example's checks at the shortest interval (1m), so that a few routine rounds fit in minutes.
 *
 * <p>Per round it reports the writes by actor (Events apart), the bytes etcd appended to its
 * write-ahead log, the time from the probe pod's creation to the verdict, and the probe pod's CPU
 * time and memory high-water mark from its cgroup; {@link RoundCosts} turns them into the table.
 * A quiet minute before the profile exists gives the standing costs (leases, heartbeats) that a
 * cluster pays whether or not it is probed.
 */
public final class RoundCostBenchmark {

    static final String NAMESPACE = ScaleBenchmark.NAMESPACE;
    static final String SERVICE_ACCOUNT = ScaleBenchmark.SERVICE_ACCOUNT;
    static final String OPERATOR_USER = "system:serviceaccount:" + NAMESPACE + ":" + SERVICE_ACCOUNT;
    static final String NODE = "rso-cost-0";
    static final String PROFILE = "cost";
    static final String NODE_LABEL = "rdmastorage.io/benchmark";
    static final String PROBE_IMAGE_TAG = "benchmark";
    static final String PROBE_IMAGE = "ghcr.io/rdma-storage-operator/node-probe:" + PROBE_IMAGE_TAG;
    /** etcd's count of bytes appended to its write-ahead log: what a write costs the disk. */
    static final String WAL_BYTES = "etcd_disk_wal_write_bytes_total";
    private static final Duration QUIET = Duration.ofSeconds(60);
    private static final Duration SAMPLE = Duration.ofMillis(50);
    private static final Duration SETTLE = Duration.ofSeconds(5);

    private final Path root;
    private final int routineRounds;
    private final Path out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** uid → the probe pod's lifecycle and its cgroup's figures, filled by the watch and the sampler. */
    private final Map<String, RoundCosts.ProbePod> pods = new ConcurrentHashMap<>();
    /** When → bytes etcd has appended to its write-ahead log since it started. */
    private final NavigableMap<Instant, Double> wal = new ConcurrentSkipListMap<>();

    private RoundCostBenchmark(Path root, int routineRounds, Path out) {
        this.root = root;
        this.routineRounds = routineRounds;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("usage: [--rounds N (routine rounds after the first, 3)] [--out FILE.md]");
            }
        }
        int status = 0;
        try {
            new RoundCostBenchmark(ScaleBenchmark.repositoryRoot(), rounds, out).run();
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);   // informer threads would keep the JVM alive
    }

    private void run() throws Exception {
        Path jar = root.resolve("operator/target/operator.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no operator jar at " + jar + " (mvn -pl operator package)");
        }
        Path work = Files.createTempDirectory("rso-round-cost-");
        Path policy = Files.writeString(work.resolve("audit-policy.yaml"), AuditLog.POLICY_FOR_EVERYONE);
        Path auditFile = work.resolve("audit.log");
        step("building the probe image");
        Path probeImage = ProjectImages.build("node-probe", PROBE_IMAGE_TAG);
        step("a control plane with the scheduler and controller-manager, everyone's requests audited, and a real node");
        try (LocalControlPlane plane = LocalControlPlane.startWithControllers(List.of(NODE), "--audit-policy-file=" + policy,
                "--audit-log-path=" + auditFile, "--audit-log-maxsize=0");
             RealNode node = RealNode.start(plane, NODE)) {
            node.importImage(probeImage, "ghcr.io/rdma-storage-operator/node-probe");
            KubernetesClient admin = plane.adminClient();
            plane.kubectl().apply(root.resolve("crds")).orThrow("kubectl apply -f crds");
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                    .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
            Path kubeconfig = plane.kubeconfigFor(NAMESPACE, SERVICE_ACCOUNT);
            OperatorRbac.shipped(root).grant(admin, NAMESPACE, SERVICE_ACCOUNT, SERVICE_ACCOUNT);
            List<String> jvmOptions = OperatorImage.jvmOptions(root, root.resolve("operator/Dockerfile"), "256m");
            step("the operator as its service account, leader election on (as the chart runs it)");
            try (OperatorProcess operator = OperatorProcess.start(jar, jvmOptions, kubeconfig, NAMESPACE, PROBE_IMAGE,
                    work.resolve("operator.log"), null, Map.of("RSO_LEADER_ELECTION", "true"));
                 Watch ignored = admin.pods().inNamespace(NAMESPACE).watch(new PodRecorder())) {
                operator.awaitReady(Duration.ofMinutes(3));
                Thread sampler = new Thread(() -> sample(node, plane), "cgroup-sampler");
                sampler.setDaemon(true);
                sampler.start();

                step("a quiet minute: no profile, what the cluster writes anyway");
                Thread.sleep(SETTLE.toMillis());
                Instant quietFrom = Instant.now();
                Thread.sleep(QUIET.toMillis());
                Instant quietTo = Instant.now();

                step("profile " + PROFILE + " (interval 1m), then " + routineRounds + " routine rounds");
                ContendedEdits.label(admin, NODE, NODE_LABEL, "true");
                plane.kubectl().applyYaml(profileYaml()).orThrow("apply profile");
                Instant roundsFrom = Instant.now();
                int want = routineRounds + 1;
                long deadline = System.nanoTime() + Duration.ofMinutes(want + 4L).toNanos();
                while (pods.values().stream().filter(p -> p.deleted() != null).count() < want) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("only " + pods.size() + " probe pods in " + (want + 4) + " minutes: "
                                + operator.logTail());
                    }
                    Thread.sleep(500);
                }
                Thread.sleep(SETTLE.toMillis());
                Instant roundsTo = Instant.now();
                sampler.interrupt();
                sampler.join();

                RoundCosts costs = new RoundCosts(OPERATOR_USER, AuditLog.everyone(auditFile).requests(quietFrom, roundsTo),
                        quietFrom, quietTo, roundsFrom, roundsTo, wal,
                        pods.values().stream().sorted(Comparator.comparing(RoundCosts.ProbePod::created)).toList());
                String report = costs.report(want) + eventReasons(admin);
                System.out.println();
                System.out.println(report);
                if (out != null) {
                    Files.writeString(out, report);
                    System.out.println("written to " + out);
                }
            }
        }
    }

    /** Every Event of the run by its object's kind and reason, with how often it happened (its count). */
    private static String eventReasons(KubernetesClient admin) {
        Map<String, Integer> reasons = new java.util.TreeMap<>();
        admin.v1().events().inAnyNamespace().list().getItems().forEach(e -> reasons.merge(e.getInvolvedObject().getKind()
                + " " + e.getReason() + " (" + e.getSource().getComponent() + ")", e.getCount() == null ? 1 : e.getCount(), Integer::sum));
        StringBuilder out = new StringBuilder("\nEvents of the whole run (quiet minute and all rounds), by object and reason:\n\n");
        reasons.forEach((k, v) -> out.append("- ").append(k).append(": ").append(v).append('\n'));
        return out.toString();
    }

    /** The DESIGN example's checks at the shortest interval, so that a few routine rounds fit in minutes. */
    private static String profileYaml() {
        return BenchmarkProfile.yaml(PROFILE, NODE_LABEL, """
                  interval: 1m
                  probeTimeout: 50s
                """);
    }

    /**
     * Reads every probe pod's cgroup every 50 ms until it is gone, keeping the highest CPU time and
     * peak seen, and etcd's write-ahead log size every second.
     */
    private void sample(RealNode node, LocalControlPlane plane) {
        for (long i = 0; !Thread.currentThread().isInterrupted(); i++) {
            pods.replaceAll((uid, pod) -> pod.cgroupGone() ? pod
                    : PodCgroup.read(node, uid).map(pod::sampled).orElseGet(pod::cgroupAbsent));
            try {
                if (i % (1000 / SAMPLE.toMillis()) == 0) {
                    wal.put(Instant.now(), walBytes(plane));
                }
                Thread.sleep(SAMPLE.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // a scrape that failed: the next second's counts
            }
        }
    }

    private double walBytes(LocalControlPlane plane) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(plane.etcdUrl() + "/metrics"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        return Prometheus.sum(response.body(), WAL_BYTES, "");
    }

    /** Notes each probe pod's creation and deletion as the API server reports them. */
    private final class PodRecorder implements Watcher<Pod> {
        @Override
        public void eventReceived(Action action, Pod pod) {
            Instant now = Instant.now();
            pods.compute(pod.getMetadata().getUid(), (uid, known) -> {
                RoundCosts.ProbePod p = known != null ? known
                        : RoundCosts.ProbePod.created(pod.getMetadata().getName(), Instant.parse(pod.getMetadata().getCreationTimestamp()));
                return action == Action.DELETED ? p.deletedAt(now) : p;
            });
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }

    private static void step(String what) {
        System.out.println();
        System.out.println("==> " + what);
    }
}
