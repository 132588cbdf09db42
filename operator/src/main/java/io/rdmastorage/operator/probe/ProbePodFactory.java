package io.rdmastorage.operator.probe;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.Sha256;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The probe pod of one (profile, node, round): node-probe pinned to the node, reporting through
 * its termination message.
 *
 * <h2>Security posture, and why</h2>
 * <ul>
 * <li><b>privileged</b>: the checks open device nodes that the container runtime's device cgroup
 * denies to an unprivileged container whatever capabilities it holds: {@code /dev/infiniband/uverbs*}
 * (libibverbs' open and memory registration), the GPFS kernel extension's device behind
 * {@code mmfsadm}/{@code mmdiag}, the {@code /dev/nvidia*} devices and {@code nvidia-fs} behind
 * {@code gdscheck}. A narrower set such as {@code capabilities.add: [SYS_CHROOT, IPC_LOCK, SYS_ADMIN]}
 * without privileged would still get EPERM on those opens (the device cgroup, not a capability,
 * refuses them; reasoned from how runc/containerd build the device allow-list, not measured on an
 * RDMA node here); a device plugin could grant the RDMA devices, but not GPFS's or nvidia-fs's.
 * Privileged also gives the container the host's device nodes (containerd and CRI-O do so unless
 * configured with privileged_without_host_devices), {@code /dev/infiniband} included, so it needs
 * no mount of its own (see {@code volumes}).</li>
 * <li>what privileged does not need, it does not get: no service-account token, no service
 * links, no host network/PID/IPC (only the pairwise latency pods need host networking, see
 * {@code LatencyPods}), a read-only root filesystem, the host's root mounted read-only, and small
 * resource limits. {@code allowPrivilegeEscalation} is true because the API server refuses false
 * together with privileged. The RuntimeDefault seccomp profile is declared but ignored while the
 * container is privileged (privileged containers always run Unconfined); it takes effect as soon
 * as privileged can be narrowed.</li>
 * <li>runs as root (uid 0): the GPFS administration commands refuse anyone else, and node-probe
 * chroots into {@code /host} to run host tools.</li>
 * </ul>
 * The namespace must allow this: Pod Security level {@code privileged}
 * ({@code pod-security.kubernetes.io/enforce=privileged}); {@code baseline} refuses the pod.
 */
public final class ProbePodFactory {

    public static final String CONTAINER = "node-probe";
    public static final String HOST_ROOT = "/host";
    public static final String SPEC_DIR = "/etc/rdmastorage";
    public static final String SPEC_PATH = SPEC_DIR + "/" + ProbeSpecConfigMap.KEY;
    public static final String TERMINATION_LOG = "/dev/termination-log";
    /** The profile generation the pod was built from, for the verdict's observedGeneration. */
    public static final String PROFILE_GENERATION_ANNOTATION = "rdmastorage.io/profile-generation";

    /**
     * Measured: node-probe's whole run on a fixture node peaks at about 50 MiB RSS (JVM included)
     * and 0.5 s of CPU. Host tools run as children in the same cgroup; gdscheck initialises CUDA
     * and is the largest of them, hence the headroom. The 16 MiB in-memory /tmp counts here too.
     */
    static final Quantity CPU_REQUEST = new Quantity("50m");
    static final Quantity CPU_LIMIT = new Quantity("500m");
    static final Quantity MEMORY_REQUEST = new Quantity("64Mi");
    static final Quantity MEMORY_LIMIT = new Quantity("256Mi");
    static final Quantity TMP_SIZE = new Quantity("16Mi");

    /** The GpfsVerbs check runs up to six host tools one after the other (the longest chain). */
    static final int SEQUENTIAL_TOOL_RUNS = 6;
    static final Duration MIN_TOOL_TIMEOUT = Duration.ofMillis(500);
    /** node-probe's own default. */
    static final Duration MAX_TOOL_TIMEOUT = Duration.ofSeconds(30);

    private static final int MAX_NAME = 63;
    private static final int HASH_CHARS = 10;

    private ProbePodFactory() {
    }

    /**
     * {@code <profile>-<node>-<hash>-<round>}, a DNS-1123 label of at most 63 characters. The same
     * (profile, node, round) always gives the same name, so an operator restarted in the middle of a
     * round that creates the round's pod again gets AlreadyExists, never a second pod. The hash of
     * (profile, node) keeps names distinct when the readable part is cut short or when two pairs
     * read alike ({@code a-b}+{@code c} and {@code a}+{@code b-c}, dots become dashes).
     */
    public static String podName(String profile, String node, long round) {
        if (round < 0) {
            throw new IllegalArgumentException("round must not be negative: " + round);
        }
        return podName(profile, node, Long.toString(round));
    }

    /**
     * {@code <profile>-<node>-<hash>-<suffix>} cut to a DNS-1123 label of at most 63 characters;
     * {@code suffix} (lower-case letters, digits, dashes) tells a node's pods apart.
     */
    public static String podName(String profile, String node, String suffix) {
        String tail = "-" + Sha256.hex(profile + "\n" + node).substring(0, HASH_CHARS) + "-" + suffix;
        String head = (profile + "-" + node).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        head = head.substring(0, Math.min(head.length(), MAX_NAME - tail.length()));
        head = head.replaceAll("^-+", "").replaceAll("-+$", "");
        return (head.isEmpty() ? "probe" : head) + tail;
    }

    /**
     * The pod for {@code round} of {@code profile} on {@code nodeName}. {@code profile} must be the
     * object as read from the API server (its uid goes into the owner reference).
     */
    public static Pod build(RdmaStorageProfile profile, String nodeName, long round, OperatorConfig config) {
        return build(profile, nodeName, round, config, Optional.empty());
    }

    /**
     * The same, handing the probe the previous round's port error counters to compare with
     * ({@link CounterBaselineHandover}), when there is a reading.
     */
    public static Pod build(RdmaStorageProfile profile, String nodeName, long round, OperatorConfig config,
                            Optional<String> counterBaseline) {
        String profileName = profile.getMetadata().getName();
        ProfileSettings settings = ProfileSettings.of(profile.getSpec());
        Map<String, String> labels = Labels.forNode(profileName, nodeName);
        labels.put(Labels.ROUND, Long.toString(round));
        // the tools share probeTimeout; the traffic window (sampling, no tool runs) comes on top
        List<String> args = arguments(List.of(), toolTimeout(settings.probeTimeout()));
        counterBaseline.ifPresent(json -> args.addAll(List.of(CounterBaselineHandover.OPTION, json)));
        return pod(profile, nodeName, podName(profileName, nodeName, round), labels, Map.of(), args, false,
                settings.nodeProbeTimeout(), config);
    }

    /**
     * The shape every probe pod of a profile has, the node's own check and the latency pair's sides
     * alike: node-probe pinned to {@code nodeName} with {@code args}, the component and generation
     * marks added to {@code labels} and {@code annotations}, and the security posture described above. Only the latency
     * pods ask for {@code hostNetwork}: perftest and the TCP comparison must use the node's own
     * addresses and RDMA devices.
     */
    public static Pod pod(RdmaStorageProfile profile, String nodeName, String name, Map<String, String> labels,
                          Map<String, String> annotations, List<String> args, boolean hostNetwork,
                          OperatorConfig config) {
        return pod(profile, nodeName, name, labels, annotations, args, hostNetwork,
                ProfileSettings.of(profile.getSpec()).probeTimeout(), config);
    }

    /** The same, with the pod's deadline ({@code activeDeadlineSeconds}) given. */
    static Pod pod(RdmaStorageProfile profile, String nodeName, String name, Map<String, String> labels,
                   Map<String, String> annotations, List<String> args, boolean hostNetwork, Duration deadline,
                   OperatorConfig config) {
        Map<String, String> allAnnotations = new LinkedHashMap<>(annotations);
        if (profile.getMetadata().getGeneration() != null) {
            allAnnotations.put(PROFILE_GENERATION_ANNOTATION, profile.getMetadata().getGeneration().toString());
        }
        Owner owner = new Owner(ProfileOwnerReference.of(profile), Labels.COMPONENT_NODE_PROBE, allAnnotations,
                tolerations(profile.getSpec().getTolerations()), ProbeSpecConfigMap.name(profile.getMetadata().getName()));
        return pod(owner, nodeName, name, labels, args, hostNetwork, Budget.probe(deadline), config);
    }

    /**
     * Who a pod belongs to and what it reads: the owner reference, the component label value, the
     * annotations, the tolerations, and the ConfigMap whose {@link ProbeSpecConfigMap#KEY} is its spec.
     */
    public record Owner(OwnerReference reference, String component, Map<String, String> annotations,
                        List<Toleration> tolerations, String specConfigMap) {
    }

    /**
     * What a pod may spend: its deadline (activeDeadlineSeconds, rounded up), the grace node-probe
     * gets on SIGTERM, and its CPU and memory.
     */
    public record Budget(Duration deadline, long terminationGraceSeconds, Quantity cpuRequest, Quantity cpuLimit,
                         Quantity memoryRequest, Quantity memoryLimit) {

        /** A profile's probe: small, and done in seconds. */
        static Budget probe(Duration probeTimeout) {
            return new Budget(probeTimeout, 5, CPU_REQUEST, CPU_LIMIT, MEMORY_REQUEST, MEMORY_LIMIT);
        }
    }

    /**
     * The shape of every pod that runs node-probe (a profile's probes and an acceptance run's): the
     * security posture described above, {@code owner}'s marks and spec, {@code budget}'s limits.
     */
    public static Pod pod(Owner owner, String nodeName, String name, Map<String, String> labels, List<String> args,
                          boolean hostNetwork, Budget budget, OperatorConfig config) {
        Map<String, String> allLabels = new LinkedHashMap<>(labels);
        allLabels.put(Labels.COMPONENT, owner.component());
        return new PodBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withNamespace(config.namespace())
                    .withLabels(allLabels)
                    .withAnnotations(new LinkedHashMap<>(owner.annotations()))
                    .withOwnerReferences(owner.reference())
                .endMetadata()
                .withNewSpec()
                    // pinned: no scheduler involved; unschedulable (cordoned) nodes are not probed
                    // at all, so there is no toleration for node.kubernetes.io/unschedulable
                    .withNodeName(nodeName)
                    .withTolerations(owner.tolerations())
                    .withRestartPolicy("Never")
                    .withActiveDeadlineSeconds(deadlineSeconds(budget.deadline()))
                    .withTerminationGracePeriodSeconds(budget.terminationGraceSeconds())
                    .withAutomountServiceAccountToken(false)
                    .withEnableServiceLinks(false)
                    // the node's resolver: node-probe resolves no cluster names, and under ClusterFirst a
                    // kubelet without cluster DNS writes a MissingClusterDNS Event (and a Node Event)
                    // for every probe pod, six API writes per round
                    .withDnsPolicy("Default")
                    .withHostNetwork(hostNetwork)
                    .withHostPID(false)
                    .withHostIPC(false)
                    .withContainers(container(config, args, budget))
                    .withVolumes(volumes(owner.specConfigMap()))
                .endSpec()
                .build();
    }

    /**
     * node-probe's argv for the image's entrypoint: {@code command} (empty for the node's own
     * check; {@code latency-server ...} or {@code latency-client ...}), then the options every
     * probe takes. Values are single argv elements, never a shell line.
     */
    public static List<String> arguments(List<String> command, Duration toolTimeout) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--host-root", HOST_ROOT,
                "--node", "$(NODE_NAME)",
                "--spec", SPEC_PATH,
                "--output", TERMINATION_LOG,
                "--tool-timeout", cliDuration(toolTimeout)));
        return args;
    }

    /** node-probe's per-tool timeout: the longest chain of tool runs fits in 80% of the deadline. */
    static Duration toolTimeout(Duration probeTimeout) {
        Duration share = probeTimeout.multipliedBy(8).dividedBy(10).dividedBy(SEQUENTIAL_TOOL_RUNS);
        if (share.compareTo(MIN_TOOL_TIMEOUT) < 0) {
            return MIN_TOOL_TIMEOUT;
        }
        return share.compareTo(MAX_TOOL_TIMEOUT) > 0 ? MAX_TOOL_TIMEOUT : share.truncatedTo(ChronoUnit.MILLIS);
    }

    /** As node-probe's --tool-timeout reads it: whole seconds where possible, else milliseconds. */
    public static String cliDuration(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** activeDeadlineSeconds: the probe timeout rounded up to whole seconds. */
    static long deadlineSeconds(Duration probeTimeout) {
        long seconds = probeTimeout.toSeconds();
        if (probeTimeout.toNanosPart() > 0) {
            seconds++;
        }
        return Math.max(1, seconds);
    }

    /** Copies of {@code tolerations} (a spec's), none when absent. */
    public static List<Toleration> tolerations(List<Toleration> tolerations) {
        List<Toleration> result = new ArrayList<>();
        if (tolerations != null) {
            for (Toleration t : tolerations) {
                result.add(new TolerationBuilder(t).build());
            }
        }
        return result;
    }

    private static Container container(OperatorConfig config, List<String> args, Budget budget) {
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(config.probeImage())
                .withImagePullPolicy(config.probeImagePullPolicy())
                // argv for the image's entrypoint (java -jar node-probe.jar); never a shell
                .withArgs(args)
                .addNewEnv()
                    .withName("NODE_NAME")
                    .withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName").endFieldRef().endValueFrom()
                .endEnv()
                .withTerminationMessagePath(TERMINATION_LOG)
                // a probe that dies before writing its report still leaves its last log lines
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withNewResources()
                    .addToRequests("cpu", budget.cpuRequest())
                    .addToRequests("memory", budget.memoryRequest())
                    .addToLimits("cpu", budget.cpuLimit())
                    .addToLimits("memory", budget.memoryLimit())
                .endResources()
                .withNewSecurityContext()
                    .withPrivileged(true)
                    .withAllowPrivilegeEscalation(true)
                    .withReadOnlyRootFilesystem(true)
                    .withRunAsUser(0L)
                    .withRunAsNonRoot(false)
                    .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext()
                .withVolumeMounts(mounts())
                .build();
    }

    private static List<VolumeMount> mounts() {
        return List.of(
                // HostToContainer: host unmounts (a GPFS file system going away) reach the pod
                // instead of being held busy by its private copy of the mount tree. readOnly covers
                // the top mount; recursiveReadOnly would cover submounts too but requires
                // mountPropagation None, and a privileged container could remount either way:
                // read-only here guards against accidents, node-probe only reads
                new VolumeMountBuilder().withName("host-root").withMountPath(HOST_ROOT).withReadOnly(true)
                        .withMountPropagation("HostToContainer").build(),
                new VolumeMountBuilder().withName("spec").withMountPath(SPEC_DIR).withReadOnly(true).build(),
                // jffi unpacks its native stub into java.io.tmpdir; the root filesystem is read-only
                new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build());
    }

    /**
     * The host's root, the spec and a scratch /tmp. There is deliberately no hostPath volume for
     * {@code /dev/infiniband}: a privileged container already gets the host's device nodes, and the
     * hostPath types would either keep the pod from starting on nodes without RDMA
     * ({@code Directory}) or create an empty {@code /dev/infiniband} on them
     * ({@code DirectoryOrCreate}, or unset with containerd), which would mislead any tool that
     * checks for the folder. Host tools run in the chroot see {@code /host/dev} anyway.
     */
    private static List<Volume> volumes(String specConfigMap) {
        return List.of(
                new VolumeBuilder().withName("host-root")
                        .withNewHostPath().withPath("/").withType("Directory").endHostPath().build(),
                new VolumeBuilder().withName("spec")
                        .withNewConfigMap()
                            .withName(specConfigMap)
                            .addNewItem().withKey(ProbeSpecConfigMap.KEY).withPath(ProbeSpecConfigMap.KEY).endItem()
                            .withDefaultMode(0444)
                        .endConfigMap().build(),
                new VolumeBuilder().withName("tmp")
                        .withNewEmptyDir().withMedium("Memory").withSizeLimit(TMP_SIZE).endEmptyDir().build());
    }
}
