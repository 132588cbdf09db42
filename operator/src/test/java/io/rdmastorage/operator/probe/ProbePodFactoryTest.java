package io.rdmastorage.operator.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.TrafficCheckSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.probe.cli.CliArguments;
import io.rdmastorage.testing.ContainerEnv;
import io.rdmastorage.testing.ProbeArguments;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ProbePodFactoryTest {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final OperatorConfig CONFIG = new OperatorConfig("rdma-storage-system",
            "registry.example/node-probe:1.2.3", "IfNotPresent", false, 8080);

    @Test
    void podNamesAreDeterministicReadableDnsLabels() {
        String name = ProbePodFactory.podName("gpfs-gds-training", "gpu-07", 12);
        assertThat(name).matches(DNS_LABEL).startsWith("gpfs-gds-training-gpu-07-").endsWith("-12");
        assertThat(ProbePodFactory.podName("gpfs-gds-training", "gpu-07", 12)).isEqualTo(name);
        assertThat(ProbePodFactory.podName("gpfs-gds-training", "gpu-07", 13)).isNotEqualTo(name);
        assertThat(ProbePodFactory.podName("gpfs-gds-training", "gpu-08", 12)).isNotEqualTo(name);
    }

    @Test
    void longAndDottedNamesAreCutWithAHashThatKeepsThemApart() {
        String profile = "p".repeat(63);
        String node = "gpu-0001.rack-17.datacenter-west.example.com";
        String a = ProbePodFactory.podName(profile, node, Long.MAX_VALUE);
        String b = ProbePodFactory.podName(profile, node.replace("0001", "0002"), Long.MAX_VALUE);
        assertThat(a).hasSizeLessThanOrEqualTo(63).matches(DNS_LABEL).endsWith("-" + Long.MAX_VALUE);
        assertThat(b).hasSizeLessThanOrEqualTo(63).matches(DNS_LABEL).isNotEqualTo(a);

        assertThat(ProbePodFactory.podName("rsp.v2", "Node.Example.COM", 0)).matches(DNS_LABEL).startsWith("rsp-v2-node-example-com-");
    }

    @Test
    void pairsThatReadAlikeStillGetDistinctNames() {
        Set<String> names = new HashSet<>(List.of(
                ProbePodFactory.podName("a-b", "c", 1),
                ProbePodFactory.podName("a", "b-c", 1),
                ProbePodFactory.podName("a.b", "c", 1),
                ProbePodFactory.podName("a", "b.c", 1)));
        assertThat(names).hasSize(4);
    }

    @Test
    void negativeRoundsAreABug() {
        assertThatThrownBy(() -> ProbePodFactory.podName("p", "n", -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePodIsPinnedOwnedLabelledAndBounded() {
        RdmaStorageProfile profile = TestProfiles.designExample();
        Toleration gpu = new TolerationBuilder().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").build();
        profile.getSpec().setTolerations(List.of(gpu));

        Pod pod = ProbePodFactory.build(profile, "gpu-07", 4, CONFIG);

        assertThat(pod.getMetadata().getName()).isEqualTo(ProbePodFactory.podName("gpfs-gds-training", "gpu-07", 4));
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("rdma-storage-system");
        assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app.kubernetes.io/managed-by", "rdma-storage-operator",
                "app.kubernetes.io/component", "node-probe",
                "rdmastorage.io/profile", "gpfs-gds-training",
                "rdmastorage.io/node", "gpu-07",
                "rdmastorage.io/round", "4"));
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("rdmastorage.io/profile-generation", "3");
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("RdmaStorageProfile");
            assertThat(o.getUid()).isEqualTo(profile.getMetadata().getUid());
            assertThat(o.getController()).isTrue();
        });

        PodSpec spec = pod.getSpec();
        assertThat(spec.getNodeName()).isEqualTo("gpu-07");
        assertThat(spec.getNodeSelector()).isNullOrEmpty();
        assertThat(spec.getAffinity()).isNull();
        assertThat(spec.getTolerations()).containsExactly(gpu);
        assertThat(spec.getTolerations().get(0)).isNotSameAs(gpu);
        assertThat(spec.getRestartPolicy()).isEqualTo("Never");
        assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(180L);
        assertThat(spec.getAutomountServiceAccountToken()).isFalse();
        assertThat(spec.getEnableServiceLinks()).isFalse();
        assertThat(spec.getDnsPolicy()).as("the node's resolver, no cluster DNS").isEqualTo("Default");
        assertThat(spec.getHostNetwork()).isFalse();
        assertThat(spec.getHostPID()).isFalse();
        assertThat(spec.getHostIPC()).isFalse();
        assertThat(spec.getPriorityClassName()).isNull();
        assertThat(spec.getContainers()).hasSize(1);
        assertThat(spec.getInitContainers()).isNullOrEmpty();
    }

    @Test
    void theContainerRunsNodeProbeWithArgvOnly() {
        Container c = ProbePodFactory.build(TestProfiles.designExample(), "gpu-07", 1, CONFIG).getSpec().getContainers().get(0);

        assertThat(c.getName()).isEqualTo("node-probe");
        assertThat(c.getImage()).isEqualTo("registry.example/node-probe:1.2.3");
        assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(c.getCommand()).isNullOrEmpty();
        assertThat(c.getArgs()).containsExactly("--host-root", "/host", "--node", "$(NODE_NAME)",
                "--spec", "/etc/rdmastorage/spec.json", "--output", "/dev/termination-log", "--tool-timeout", "24s");
        assertThat(c.getEnv()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("NODE_NAME");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
        });
        assertThat(c.getTerminationMessagePath()).isEqualTo("/dev/termination-log");
        assertThat(c.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(c.getResources().getRequests()).containsEntry("cpu", new Quantity("50m")).containsEntry("memory", new Quantity("64Mi"));
        assertThat(c.getResources().getLimits()).containsEntry("cpu", new Quantity("500m")).containsEntry("memory", new Quantity("256Mi"));
    }

    @Test
    void theArgumentsAreWhatNodeProbeAccepts() throws Exception {
        Pod pod = ProbePodFactory.build(TestProfiles.designExample(), "gpu-07", 1, CONFIG);
        Container c = pod.getSpec().getContainers().get(0);
        List<String> argv = ContainerEnv.expand(c.getArgs(), ContainerEnv.of(pod, c, "10.0.0.7"));

        CliArguments cli = CliArguments.parse(argv);

        assertThat(cli.node()).contains("gpu-07");
        assertThat(cli.hostRoot()).isEqualTo("/host");
        assertThat(cli.spec()).contains("/etc/rdmastorage/spec.json");
        assertThat(cli.output()).contains("/dev/termination-log");
        assertThat(cli.toolTimeout()).isEqualTo(Duration.ofSeconds(24));
        assertThat(cli.command()).isEqualTo(CliArguments.CHECK);
    }

    @Test
    void theSimulatedKubeletUnderstandsTheArguments() {
        Pod pod = ProbePodFactory.build(TestProfiles.designExample(), "gpu-07", 1, CONFIG);
        Container c = pod.getSpec().getContainers().get(0);
        List<String> argv = ContainerEnv.expand(c.getArgs(), ContainerEnv.of(pod, c, "10.0.0.7"));
        Path fixture = Path.of("/fixtures/gpu-07");

        List<String> local = ProbeArguments.translate(argv, fixture, c.getTerminationMessagePath(),
                Path.of("/scratch/termination-log"), Path.of("/scratch/output"),
                path -> path.equals(ProbePodFactory.SPEC_PATH) ? Optional.of(Path.of("/scratch/spec.json")) : Optional.empty());

        assertThat(local).containsExactly("--node", "gpu-07", "--spec", "/scratch/spec.json",
                "--output", "/scratch/termination-log", "--tool-timeout", "24s",
                "--host-root", "/fixtures/gpu-07", "--exec-mode", "direct");
    }

    @Test
    void theSecurityPostureIsExplicit() {
        Container c = ProbePodFactory.build(TestProfiles.designExample(), "gpu-07", 1, CONFIG).getSpec().getContainers().get(0);
        SecurityContext sc = c.getSecurityContext();
        assertThat(sc.getPrivileged()).isTrue();
        assertThat(sc.getAllowPrivilegeEscalation()).isTrue();
        assertThat(sc.getReadOnlyRootFilesystem()).isTrue();
        assertThat(sc.getRunAsUser()).isZero();
        assertThat(sc.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    @Test
    void theHostIsMountedReadOnlyTheSpecAsDataAndTmpInMemory() {
        Pod pod = ProbePodFactory.build(TestProfiles.designExample(), "gpu-07", 1, CONFIG);
        Map<String, VolumeMount> mounts = new java.util.HashMap<>();
        pod.getSpec().getContainers().get(0).getVolumeMounts().forEach(m -> mounts.put(m.getMountPath(), m));
        Map<String, Volume> volumes = new java.util.HashMap<>();
        pod.getSpec().getVolumes().forEach(v -> volumes.put(v.getName(), v));

        assertThat(mounts).containsOnlyKeys("/host", "/etc/rdmastorage", "/tmp");
        VolumeMount host = mounts.get("/host");
        assertThat(host.getReadOnly()).isTrue();
        assertThat(host.getMountPropagation()).isEqualTo("HostToContainer");
        assertThat(volumes.get(host.getName()).getHostPath().getPath()).isEqualTo("/");
        assertThat(volumes.get(host.getName()).getHostPath().getType()).isEqualTo("Directory");

        VolumeMount spec = mounts.get("/etc/rdmastorage");
        assertThat(spec.getReadOnly()).isTrue();
        Volume specVolume = volumes.get(spec.getName());
        assertThat(specVolume.getConfigMap().getName()).isEqualTo("rsp-gpfs-gds-training-spec");
        assertThat(specVolume.getConfigMap().getItems()).singleElement()
                .satisfies(i -> assertThat(i.getKey() + "→" + i.getPath()).isEqualTo("spec.json→spec.json"));

        Volume tmp = volumes.get(mounts.get("/tmp").getName());
        assertThat(tmp.getEmptyDir().getMedium()).isEqualTo("Memory");
        assertThat(tmp.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("16Mi"));

        assertThat(volumes.values()).noneMatch(v -> v.getHostPath() != null && !v.getHostPath().getPath().equals("/"));
    }

    @Test
    void longNodeNamesGetAValidLabelValue() {
        String node = "gpu-0001." + "rack-17.".repeat(10) + "example.com";
        Pod pod = ProbePodFactory.build(TestProfiles.designExample(), node, 1, CONFIG);
        String value = pod.getMetadata().getLabels().get("rdmastorage.io/node");
        assertThat(value).hasSizeLessThanOrEqualTo(63).matches("[A-Za-z0-9]([-_.A-Za-z0-9]*[A-Za-z0-9])?");
        assertThat(pod.getSpec().getNodeName()).isEqualTo(node);
    }

    @Test
    void theToolTimeoutLetsTheLongestToolChainFinishBeforeTheDeadline() {
        assertThat(ProbePodFactory.toolTimeout(Duration.ofMinutes(3))).isEqualTo(Duration.ofSeconds(24));
        assertThat(ProbePodFactory.toolTimeout(Duration.ofMinutes(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(ProbePodFactory.toolTimeout(Duration.ofSeconds(10))).isEqualTo(Duration.ofMillis(1333));
        assertThat(ProbePodFactory.toolTimeout(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(500));
        for (Duration timeout : List.of(Duration.ofSeconds(10), Duration.ofMinutes(1), Duration.ofMinutes(3))) {
            assertThat(ProbePodFactory.toolTimeout(timeout).multipliedBy(ProbePodFactory.SEQUENTIAL_TOOL_RUNS)).isLessThan(timeout);
        }
        assertThat(ProbePodFactory.cliDuration(Duration.ofMillis(1333))).isEqualTo("1333ms");
        assertThat(ProbePodFactory.cliDuration(Duration.ofSeconds(30))).isEqualTo("30s");
    }

    @Test
    void theDeadlineIsTheProbeTimeoutRoundedUp() {
        assertThat(ProbePodFactory.deadlineSeconds(Duration.ofMinutes(3))).isEqualTo(180);
        assertThat(ProbePodFactory.deadlineSeconds(Duration.ofMillis(1500))).isEqualTo(2);
        assertThat(ProbePodFactory.deadlineSeconds(Duration.ofMillis(10))).isEqualTo(1);

        RdmaStorageProfile profile = TestProfiles.designExample();
        profile.getSpec().setProbeTimeout(null);
        assertThat(ProbePodFactory.build(profile, "n", 1, CONFIG).getSpec().getActiveDeadlineSeconds()).isEqualTo(180L);
        profile.getSpec().setProbeTimeout("45s");
        Pod pod = ProbePodFactory.build(profile, "n", 1, CONFIG);
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(45L);
        assertThat(pod.getSpec().getContainers().get(0).getArgs()).endsWith("--tool-timeout", "6s");
    }

    @Test
    void theTrafficWindowComesOnTopOfTheNodeProbesDeadlineNotOfItsToolTimeout() {
        RdmaStorageProfile profile = TestProfiles.designExample();
        profile.getSpec().setProbeTimeout("45s");
        profile.getSpec().setTraffic(new TrafficCheckSpec());   // window defaults to 10s
        Pod pod = ProbePodFactory.build(profile, "n", 1, CONFIG);
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(55L);
        assertThat(pod.getSpec().getContainers().get(0).getArgs()).endsWith("--tool-timeout", "6s");

        profile.getSpec().getTraffic().setWindow("1500ms");
        assertThat(ProbePodFactory.build(profile, "n", 1, CONFIG).getSpec().getActiveDeadlineSeconds()).isEqualTo(47L);
        assertThat(ProfileSettings.of(profile.getSpec()).nodeProbeTimeout()).isEqualTo(Duration.ofMillis(46_500));
    }
}
