package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.probe.ProbeSpecConfigMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an acceptance run creates in the operator's namespace, all owned by the run: its pod
 * (node-probe {@code acceptance}, the probe pods' shape from {@link ProbePodFactory}: privileged,
 * no API token, host root read-only), the ConfigMap with its spec, and the ConfigMap with its
 * Markdown record.
 *
 * <p>Where it differs from a profile's probe, and why: it may take minutes, not seconds, so its
 * deadline is the run's; fio at depth needs CPU, so the limit is one core per fio job of the IOPS
 * workload (at least two; a throttled fio would measure the limit, not the transport); the probe
 * disconnects what it connected on SIGTERM, so it gets 30 s of grace; and it uses the host's
 * network only with {@code connect: true}, because nvme-tcp opens its sockets in the network
 * namespace of the process that connects, and the pod's own would vanish with the pod. A
 * {@code path} run also gets its directory read-write: it writes its one file there. A run that
 * changes the node ({@code connect: true}, or a path run) also gets the journal directory
 * {@value CleanupSchema#JOURNAL_DIRECTORY} read-write and {@code --run-uid}: node-probe records there
 * what it is about to change before changing it, and the run's cleanup pod ({@link #cleanupPod},
 * node-probe {@code acceptance-cleanup}) undoes from there what a killed run left behind.
 */
public final class AcceptancePods {

    public static final String COMPONENT = "acceptance";
    static final long TERMINATION_GRACE_SECONDS = 30;
    static final Quantity CPU_REQUEST = new Quantity("1");
    static final int MIN_CPU_LIMIT = 2;
    static final Quantity MEMORY_REQUEST = new Quantity("256Mi");
    static final Quantity MEMORY_LIMIT = new Quantity("1Gi");
    /** node-probe's timeout for each host tool it runs (nvme connect, nvme disconnect). */
    static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    /** A path run's directory, read-write. */
    static final String PATH_VOLUME = "acceptance-directory";
    /** The runs' journal directory on the node, read-write. */
    static final String JOURNAL_VOLUME = "acceptance-journal";
    /** The cleanup pod's component suffix. */
    static final String CLEANUP = "acceptance-cleanup";
    /** The cleanup pod's deadline: a few disconnects and one unlink, each tool with its own timeout. */
    static final Duration CLEANUP_DEADLINE = Duration.ofMinutes(3);
    static final Quantity CLEANUP_CPU_REQUEST = new Quantity("100m");
    static final Quantity CLEANUP_CPU_LIMIT = new Quantity("1");
    static final Quantity CLEANUP_MEMORY_REQUEST = new Quantity("64Mi");
    static final Quantity CLEANUP_MEMORY_LIMIT = new Quantity("256Mi");

    private AcceptancePods() {
    }

    /** {@code <run>-<node>-<hash>-acceptance}, cut to a DNS label. */
    public static String podName(RdmaStorageAcceptance run) {
        return ProbePodFactory.podName(run.getMetadata().getName(), run.getSpec().getNodeName(), COMPONENT);
    }

    /** {@code rsa-<run>-spec}. */
    public static String specName(String run) {
        return "rsa-" + run + "-spec";
    }

    /** {@code rsa-<run>-report}: the Markdown record. */
    public static String reportName(String run) {
        return "rsa-" + run + "-report";
    }

    /** managed-by, component, run, the run's UID and node. */
    public static Map<String, String> labels(RdmaStorageAcceptance run) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
        labels.put(Labels.COMPONENT, COMPONENT);
        labels.put(RdmaStorageAcceptance.RUN_LABEL, run.getMetadata().getName());
        labels.put(RdmaStorageAcceptance.RUN_UID_LABEL, run.getMetadata().getUid());
        labels.put(Labels.NODE, Labels.nodeValue(run.getSpec().getNodeName()));
        return labels;
    }

    /**
     * node-probe's {@code acceptance} command on the run's node, reading the run's spec document.
     *
     * @param hostNetwork whether it connects NVMe-oF controllers: nvme-tcp opens its sockets in the
     *                    network namespace of the process that connects
     */
    public static Pod pod(RdmaStorageAcceptance run, AcceptanceSpecDocument document, boolean hostNetwork,
                          OperatorConfig config) {
        String name = run.getMetadata().getName();
        int cpus = Math.max(MIN_CPU_LIMIT, document.spec().run(Workload.IOPS).jobs());
        ProbePodFactory.Owner owner = new ProbePodFactory.Owner(ownerReference(run), COMPONENT, Map.of(),
                ProbePodFactory.tolerations(run.getSpec().getTolerations()), specName(name));
        ProbePodFactory.Budget budget = new ProbePodFactory.Budget(document.deadline(), TERMINATION_GRACE_SECONDS,
                CPU_REQUEST, new Quantity(Integer.toString(cpus)), MEMORY_REQUEST, MEMORY_LIMIT);
        Map<String, String> labels = labels(run);
        labels.remove(Labels.COMPONENT);   // the pod shape sets it from the owner
        Pod pod = ProbePodFactory.pod(owner, run.getSpec().getNodeName(), podName(run), labels,
                ProbePodFactory.arguments(List.of("acceptance"), TOOL_TIMEOUT), hostNetwork, budget, config);
        return withWrites(changesNode(document) ? journaled(pod, run) : pod, document);
    }

    /** Whether the run changes its node, as its target says (it connects NVMe-oF controllers, or creates a path run's file). */
    static boolean changesNode(AcceptanceSpecDocument document) {
        return document.target().changes(document).isPresent();
    }

    /** {@code pod} with the one host directory its target may write ({@link AcceptanceTarget#writableDirectory}), if any. */
    private static Pod withWrites(Pod pod, AcceptanceSpecDocument document) {
        return document.target().writableDirectory(document).map(directory -> writableDirectory(pod, directory)).orElse(pod);
    }

    /** {@code <run>-<node>-<hash>-acceptance-cleanup}, cut to a DNS label. */
    public static String cleanupPodName(RdmaStorageAcceptance run) {
        return ProbePodFactory.podName(run.getMetadata().getName(), run.getSpec().getNodeName(), CLEANUP);
    }

    /**
     * node-probe's {@code acceptance-cleanup --run-uid UID} on the run's node: the run's pod's shape
     * (same image, privileged, host root read-only) with the journal directory and, for a path run,
     * its directory read-write; no host network (a disconnect needs none); small.
     */
    static Pod cleanupPod(RdmaStorageAcceptance run, AcceptanceSpecDocument document, OperatorConfig config) {
        ProbePodFactory.Owner owner = new ProbePodFactory.Owner(ownerReference(run), COMPONENT, Map.of(),
                ProbePodFactory.tolerations(run.getSpec().getTolerations()), specName(run.getMetadata().getName()));
        ProbePodFactory.Budget budget = new ProbePodFactory.Budget(CLEANUP_DEADLINE, TERMINATION_GRACE_SECONDS,
                CLEANUP_CPU_REQUEST, CLEANUP_CPU_LIMIT, CLEANUP_MEMORY_REQUEST, CLEANUP_MEMORY_LIMIT);
        Map<String, String> labels = labels(run);
        labels.remove(Labels.COMPONENT);
        Pod pod = journaled(ProbePodFactory.pod(owner, run.getSpec().getNodeName(), cleanupPodName(run), labels,
                ProbePodFactory.arguments(List.of(CLEANUP), TOOL_TIMEOUT), false, budget, config), run);
        return withWrites(pod, document);
    }

    /** {@code pod} with {@code --run-uid} and the journal directory read-write (created on the node if missing). */
    static Pod journaled(Pod pod, RdmaStorageAcceptance run) {
        Container container = pod.getSpec().getContainers().get(0);
        List<String> args = new ArrayList<>(container.getArgs());
        args.addAll(List.of("--run-uid", run.getMetadata().getUid()));
        container.setArgs(args);
        return writableHostPath(pod, JOURNAL_VOLUME, CleanupSchema.JOURNAL_DIRECTORY, "DirectoryOrCreate");
    }

    /**
     * {@code pod} with a path run's one write: its directory, and nothing else of the host, mounted
     * read-write at its place under the read-only host root (the runtime mounts the deeper path
     * after /host). Type {@code Directory}: a directory that does not exist keeps the pod from
     * starting, rather than being created on the node.
     */
    static Pod writableDirectory(Pod pod, String directory) {
        String hostPath = directory.length() > 1 && directory.endsWith("/") ? directory.substring(0, directory.length() - 1) : directory;
        return writableHostPath(pod, PATH_VOLUME, hostPath, "Directory");
    }

    /** {@code pod} with the host directory {@code hostPath} mounted read-write at its place under the host root. */
    private static Pod writableHostPath(Pod pod, String volume, String hostPath, String type) {
        List<Volume> volumes = new ArrayList<>(pod.getSpec().getVolumes());
        volumes.add(new VolumeBuilder().withName(volume)
                .withNewHostPath().withPath(hostPath).withType(type).endHostPath().build());
        pod.getSpec().setVolumes(volumes);
        Container container = pod.getSpec().getContainers().get(0);
        List<VolumeMount> mounts = new ArrayList<>(container.getVolumeMounts());
        mounts.add(new VolumeMountBuilder().withName(volume).withMountPath(ProbePodFactory.HOST_ROOT + hostPath)
                .withReadOnly(false).withMountPropagation("HostToContainer").build());
        container.setVolumeMounts(mounts);
        return pod;
    }

    public static ConfigMap spec(RdmaStorageAcceptance run, AcceptanceSpecDocument document, OperatorConfig config) {
        return configMap(run, specName(run.getMetadata().getName()), ProbeSpecConfigMap.KEY, document.json(), config);
    }

    /** The record, key {@value AcceptanceMarkdown#KEY}. */
    public static ConfigMap report(RdmaStorageAcceptance run, String markdown, OperatorConfig config) {
        return configMap(run, reportName(run.getMetadata().getName()), AcceptanceMarkdown.KEY, markdown, config);
    }

    private static ConfigMap configMap(RdmaStorageAcceptance run, String name, String key, String value,
                                       OperatorConfig config) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withNamespace(config.namespace())
                    .withLabels(labels(run))
                    .withOwnerReferences(ownerReference(run))
                .endMetadata()
                .withData(Map.of(key, value))
                .build();
    }

    /**
     * Whether {@code pod} is this run's, by UID (its owner reference, which every operator version
     * set): a pod of an earlier run of the same name, still terminating, has the same name and run
     * label but another owner.
     */
    static boolean ownedBy(Pod pod, RdmaStorageAcceptance run) {
        String uid = run.getMetadata().getUid();
        List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(o -> uid != null && uid.equals(o.getUid()));
    }

    /** The run (cluster-scoped) owns its namespaced objects; controller: true maps them back to it. */
    static OwnerReference ownerReference(RdmaStorageAcceptance run) {
        String uid = run.getMetadata().getUid();
        if (uid == null || uid.isEmpty()) {
            throw new IllegalArgumentException("acceptance run " + run.getMetadata().getName() + " has no uid");
        }
        return new OwnerReferenceBuilder()
                .withApiVersion(RdmaStorageProfile.GROUP + "/" + RdmaStorageProfile.VERSION)
                .withKind(RdmaStorageAcceptance.KIND)
                .withName(run.getMetadata().getName())
                .withUid(uid)
                .withController(true)
                .build();
    }

    /** The run's own pods among {@code pods}, by UID. */
    static Set<Pod> own(Set<Pod> pods, RdmaStorageAcceptance run) {
        Set<Pod> own = new HashSet<>();
        pods.stream().filter(pod -> ownedBy(pod, run)).forEach(own::add);
        return own;
    }

    /** The run's measuring pods by name (its target's: the verbs target's server too), to delete. */
    static List<Pod> measuring(RdmaStorageAcceptance run, OperatorConfig config) {
        List<String> names = AcceptanceTarget.of(run.getSpec()).map(t -> t.podNames(run)).orElseGet(() -> List.of(podName(run)));
        return names.stream().map(name -> stub(name, config.namespace())).toList();
    }

    /** A pod by name only: one to delete, or one that reads as in progress while the API has not shown it yet. */
    static Pod stub(String name, String namespace) {
        return new PodBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build()).build();
    }

    static Optional<Pod> named(Collection<Pod> pods, String name) {
        return pods.stream().filter(p -> name.equals(p.getMetadata().getName())).findFirst();
    }
}
