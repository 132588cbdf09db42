package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated CRDs in a real kube-apiserver: valid profiles are accepted as written, and bad
 * input is refused by the API server itself with a message naming the field — it never reaches
 * the operator, let alone a privileged probe pod.
 */
class CrdValidationTest {

    private static LocalControlPlane plane;
    private static Kubectl kubectl;
    private static KubernetesClient client;

    @BeforeAll
    static void installCrds() {
        plane = ApiServerCrds.installed();
        kubectl = plane.kubectl();
        client = plane.adminClient();
    }

    @AfterEach
    void deleteProfiles() {
        client.resources(RdmaStorageProfile.class).withLabel("test", "crd-validation").delete();
    }

    @Test
    void theExampleOfTheDesignIsAcceptedAsWritten() throws IOException {
        String example = designExample();
        assertThat(example).contains("kind: RdmaStorageProfile").contains("nqn.2024-01.dev.wutz:target1");

        CommandResult created = kubectl.applyYaml(example.replace("metadata: {name: gpfs-gds-training}",
                "metadata: {name: gpfs-gds-training, labels: {test: crd-validation}}"));
        assertThat(created.exitCode()).as(created.stderr()).isZero();

        RdmaStorageProfileSpec spec = client.resources(RdmaStorageProfile.class).withName("gpfs-gds-training").get().getSpec();
        assertThat(spec.getNodeSelector().getMatchLabels()).containsEntry("nvidia.com/gpu.present", "true");
        assertThat(spec.getInterval()).isEqualTo("15m");
        assertThat(spec.getMaxConcurrentProbes()).isEqualTo(20);
        assertThat(spec.getRdma().getDevices()).containsExactly("mlx5_0/1", "mlx5_1/1");
        assertThat(spec.getGpfs().getMinPagepool()).isEqualTo("16Gi");
        assertThat(spec.getNvmeof().getTargets().get(0).getAddress()).isEqualTo("10.68.20.10");
        assertThat(spec.getNvmeof().getTargets().get(0).getPort()).isEqualTo(4420);
        assertThat(spec.getGds().getFilesystems()).containsExactly(GdsFilesystem.GPFS);
        assertThat(spec.getLatency().getMaxTypicalMicros()).isEqualTo(5.0);
        assertThat(spec.getCeph()).isNotNull();
    }

    @Test
    void theApiServerFillsInTheDocumentedDefaults() {
        apply("defaults", """
                latency: {device: mlx5_0}
                nvmeof: {targets: [{nqn: "nqn.2024-01.dev.wutz:target1", address: "fd00::10"}]}
                gds: {filesystems: [nvme, nvmeof, scsi, gpfs, nfs, lustre, beegfs, wekafs]}
                """).orThrow("apply");
        RdmaStorageProfileSpec spec = client.resources(RdmaStorageProfile.class).withName("defaults").get().getSpec();
        assertThat(spec.getInterval()).isEqualTo("15m");
        assertThat(spec.getProbeTimeout()).isEqualTo("3m");
        assertThat(spec.getMaxConcurrentProbes()).isEqualTo(20);
        assertThat(spec.getNodeLabels()).isFalse();
        assertThat(spec.getTaintNotReady()).isFalse();
        assertThat(spec.getNodeCondition()).isFalse();
        assertThat(spec.getLatency().getPort()).isEqualTo(1);
        assertThat(spec.getLatency().getSize()).isEqualTo(2);
        assertThat(spec.getLatency().getIterations()).isEqualTo(1000);
        assertThat(spec.getLatency().getMaxTypicalMicros()).isEqualTo(5.0);
        assertThat(spec.getNvmeof().getTargets().get(0).getPort()).isEqualTo(4420);
        assertThat(spec.getGds().getRequireIommuDisabled()).isTrue();
        assertThat(spec.getGds().getFilesystems()).hasSize(8);
        assertThat(spec.getPortErrors()).as("absent: not checked").isNull();
    }

    @Test
    void thePortErrorsRatesDefaultToNvSentinelsRules() {
        apply("port-errors", "portErrors: {devices: [mlx5_0/1]}").orThrow("apply");
        PortErrorsCheckSpec spec = client.resources(RdmaStorageProfile.class).withName("port-errors").get().getSpec().getPortErrors();
        assertThat(spec.getMaxLinkDownedPerHour()).isZero();
        assertThat(spec.getMaxRnrRetriesExceededPerHour()).isZero();
        assertThat(spec.getMaxSymbolErrorsPerHour()).isEqualTo(120);
        assertThat(spec.getMaxReceiveErrorsPerHour()).isEqualTo(36_000);
        assertThat(spec.getMaxCarrierChangesPerHour()).isEqualTo(2);
    }

    static Stream<Arguments> validSpecs() {
        return Stream.of(
                Arguments.of("empty spec: check what every node has", "{}"),
                Arguments.of("IPv6 target, non-default port", """
                        nvmeof: {targets: [{nqn: "nqn.2014-08.org.nvmexpress:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", address: "fd00:10:68::20", port: 4421}]}
                        """),
                Arguments.of("peers by name and by address, GPFS fabric suffix", """
                        gpfs: {verbsPorts: ["mlx5_0/1/1", "mlx5_1/2"], requiredPeers: [nsd-01, nsd-02.storage.example.com, 10.68.20.11, "fd00::11"], minPagepool: 512M}
                        """),
                Arguments.of("compound durations", "{interval: 1h30m, probeTimeout: 90s}"),
                Arguments.of("shortest interval with a shorter timeout", "{interval: 1m, probeTimeout: 45s}"),
                Arguments.of("latency at its bounds", "latency: {device: irdma-eth1, port: 255, size: 8388608, iterations: 10000000, maxTypicalMicros: 1000000}"),
                Arguments.of("fractional latency threshold", "latency: {device: mlx5_0, maxTypicalMicros: 2.5}"),
                Arguments.of("rdma ports, any HCA naming", "rdma: {devices: [mlx5_0/1, rxe0/1, bnxt_re0/255, hfi1_0/1], userspaceVerbs: true}"),
                Arguments.of("roce at its bounds", "roce: {dscp: 63, priority: 7, devices: [mlx5_0/1, bnxt_re0/1], pfcPriorities: [0, 7]}"),
                Arguments.of("roce lowest values", "roce: {dscp: 0, priority: 0}"),
                Arguments.of("traffic at its bounds", "traffic: {window: 1m, devices: [mlx5_0/1], maxTcpBytesPerSecond: 2147483647,"
                        + " minRdmaPacketsPerSecond: 1, priority: 7, maxErrorCount: 0, maxCongestionPerSecond: 0}"),
                Arguments.of("traffic's shortest window in ms", "traffic: {window: 1000ms}"),
                Arguments.of("portErrors with its defaults", "portErrors: {}"),
                Arguments.of("portErrors at its bounds", "portErrors: {devices: [mlx5_0/1, rxe0/1], maxLinkDownedPerHour: 0,"
                        + " maxSymbolErrorsPerHour: 2147483647, maxCarrierChangesPerHour: 0}"),
                Arguments.of("nfs mount points", "nfs: {mounts: [/mnt/datasets, /srv/nfs+rdma/user@site_01]}"),
                Arguments.of("nfs every mount", "nfs: {}"),
                Arguments.of("gds data path and userspace RDMA", "gds: {filesystems: [nfs], verifyDataPath: true, requireUserspaceRdma: true}"),
                Arguments.of("rdma link expectations", "rdma: {minMtu: 4096, minRate: \"400 Gb/sec\"}"),
                Arguments.of("rdma fractional rate, smallest MTU", "rdma: {minMtu: 256, minRate: \"12.5 Gb/sec\"}"),
                Arguments.of("the most probes at once", "maxConcurrentProbes: 1000"),
                Arguments.of("fleet facts that may differ", "fleet: {allowMixed: [kernel, hcaFirmware, gds], required: true}"),
                Arguments.of("every selector operator", "nodeSelector: {matchExpressions: [{key: a, operator: In, values: [x]},"
                        + " {key: b, operator: NotIn, values: [v, w]}, {key: c, operator: Exists}, {key: d, operator: DoesNotExist, values: []}]}"),
                Arguments.of("tolerations as Kubernetes takes them", "tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule},"
                        + " {key: dedicated, operator: Equal, value: storage}, {operator: Exists},"
                        + " {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}]"),
                Arguments.of("an exbibyte pagepool", "gpfs: {minPagepool: 7Ei}"),
                Arguments.of("a fractional pagepool of whole bytes", "gpfs: {minPagepool: 1.5Gi}"),
                Arguments.of("the longest interval", "{interval: 8760h, probeTimeout: 8759h}"),
                Arguments.of("reference nodes by expression", "latency: {device: mlx5_0, referenceNodeSelector:"
                        + " {matchExpressions: [{key: role, operator: In, values: [storage]}]}}"),
                Arguments.of("device taints with their defaults", "deviceTaints: {}"),
                Arguments.of("device taints of another driver", "deviceTaints: {effect: NoExecute, drivers: [{driver: nic.example.com,"
                        + " pciAddressAttributes: [nic.example.com/pciAddress, pciBusID], netdevAttributes: [ifName]}]}"),
                Arguments.of("a startup taint, both modes", "startupTaint: {key: storage.example.com/unverified}"),
                Arguments.of("a continuous startup taint without a domain", "startupTaint: {key: unverified, mode: Continuous}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validSpecs")
    void validProfilesAreAccepted(String what, String spec) {
        CommandResult result = apply("valid", spec);
        assertThat(result.exitCode()).as("%s: %s", what, result.stderr()).isZero();
    }

    static Stream<Arguments> invalidSpecs() {
        String longNqn = "nqn.2024-01.dev.wutz:" + "t".repeat(Rules.NQN_MAX_LENGTH);
        String manyPorts = String.join(", ", Collections.nCopies(257, "mlx5_0/1"));
        return Stream.of(
                // field, spec, what the API server says
                Arguments.of("spec.nvmeof.targets[0].nqn", "nvmeof: {targets: [{nqn: not-an-nqn, address: 10.68.20.10}]}", "should match"),
                Arguments.of("spec.nvmeof.targets[0].nqn", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1;reboot\", address: 10.68.20.10}]}", "should match"),
                Arguments.of("spec.nvmeof.targets[0].nqn", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1 $(reboot)\", address: 10.68.20.10}]}", "should match"),
                Arguments.of("spec.nvmeof.targets[0].nqn", "nvmeof: {targets: [{nqn: \"" + longNqn + "\", address: 10.68.20.10}]}", "Too long"),
                Arguments.of("spec.nvmeof.targets[0].nqn", "nvmeof: {targets: [{address: 10.68.20.10}]}", "Required value"),
                Arguments.of("spec.nvmeof.targets[0].port", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1\", address: 10.68.20.10, port: 70000}]}", "65535"),
                Arguments.of("spec.nvmeof.targets[0].port", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1\", address: 10.68.20.10, port: 0}]}", "greater than or equal to 1"),
                Arguments.of("spec.nvmeof.targets[0].address", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1\", address: 10.68.20.256}]}", "IPv4 or IPv6"),
                Arguments.of("spec.nvmeof.targets[0].address", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1\", address: target.example.com}]}", "IPv4 or IPv6"),
                Arguments.of("spec.nvmeof.targets[0].address", "nvmeof: {targets: [{nqn: \"nqn.2024-01.dev.wutz:t1\", address: \"10.68.20.10;reboot\"}]}", "IPv4 or IPv6"),
                Arguments.of("spec.gpfs.verbsPorts[0]", "gpfs: {verbsPorts: [mlx5_0]}", "should match"),
                Arguments.of("spec.gpfs.verbsPorts[1]", "gpfs: {verbsPorts: [mlx5_0/1, \"mlx5_0/1`reboot`\"]}", "should match"),
                Arguments.of("spec.gpfs.verbsPorts", "gpfs: {verbsPorts: [" + manyPorts + "]}", "Too many"),
                Arguments.of("spec.gpfs.requiredPeers", "gpfs: {requiredPeers: [\"nsd-01|reboot\"]}", "GPFS node name"),
                Arguments.of("spec.gpfs.requiredPeers", "gpfs: {requiredPeers: [\"-oProxyCommand=x\"]}", "GPFS node name"),
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: \"16 GiB\"}", "should match"),
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: \"0Gi\"}", "positive size"),
                // issue 14: sizes node-probe refuses (more bytes than a long holds) are refused here too
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: 9999999999999999999999Ei}", "less than 8Ei"),
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: 8Ei}", "less than 8Ei"),
                // node-probe reads whole bytes only: a fraction of a byte is refused here as it would be there
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: \"0.5\"}", "whole number of bytes"),
                Arguments.of("spec.gpfs.minPagepool", "gpfs: {minPagepool: 1.0001Ki}", "whole number of bytes"),
                Arguments.of("spec.rdma.devices[0]", "rdma: {devices: [\"mlx5_0/1 && reboot\"]}", "should match"),
                Arguments.of("spec.rdma.devices", "rdma: {devices: [mlx5_0/0]}", "between 1 and 255"),
                Arguments.of("spec.rdma.minMtu", "rdma: {minMtu: 9000}", "must be one of 256, 512, 1024, 2048, 4096"),
                Arguments.of("spec.rdma.minRate", "rdma: {minRate: 400G}", "should match"),
                Arguments.of("spec.rdma.minRate", "rdma: {minRate: \"4 Gb/sec;reboot\"}", "should match"),
                Arguments.of("spec.latency.device", "latency: {device: \"mlx5_0;id\"}", "should match"),
                Arguments.of("spec.latency.device", "latency: {port: 1}", "Required value"),
                Arguments.of("spec.latency.port", "latency: {device: mlx5_0, port: 256}", "255"),
                Arguments.of("spec.latency.size", "latency: {device: mlx5_0, size: 0}", "greater than or equal to 1"),
                Arguments.of("spec.latency.iterations", "latency: {device: mlx5_0, iterations: 1}", "greater than or equal to 5"),
                Arguments.of("spec.latency.maxTypicalMicros", "latency: {device: mlx5_0, maxTypicalMicros: 0}", "greater than 0"),
                Arguments.of("spec.latency.maxTypicalMicros", "latency: {device: mlx5_0, maxTypicalMicros: -1}", "greater than 0"),
                Arguments.of("spec.gds.filesystems[0]", "gds: {filesystems: [zfs]}", "Unsupported value"),
                Arguments.of("spec.roce.dscp", "roce: {dscp: 64, priority: 3}", "less than or equal to 63"),
                Arguments.of("spec.roce.dscp", "roce: {dscp: -1, priority: 3}", "greater than or equal to 0"),
                Arguments.of("spec.roce.dscp", "roce: {priority: 3}", "Required value"),
                Arguments.of("spec.roce.priority", "roce: {dscp: 26, priority: 8}", "less than or equal to 7"),
                Arguments.of("spec.roce.priority", "roce: {dscp: 26}", "Required value"),
                Arguments.of("spec.roce.pfcPriorities", "roce: {dscp: 26, priority: 3, pfcPriorities: [3, 8]}", "between 0 and 7"),
                Arguments.of("spec.roce.devices[0]", "roce: {dscp: 26, priority: 3, devices: [\"mlx5_0/1;reboot\"]}", "should match"),
                Arguments.of("spec.roce.devices", "roce: {dscp: 26, priority: 3, devices: [mlx5_0/0]}", "between 1 and 255"),
                Arguments.of("spec.traffic.window", "traffic: {window: 61s}", "between 1s and 60s"),
                Arguments.of("spec.traffic.window", "traffic: {window: 999ms}", "between 1s and 60s"),
                Arguments.of("spec.traffic.window", "traffic: {window: 1m30s}", "should match"),
                Arguments.of("spec.traffic.maxTcpBytesPerSecond", "traffic: {maxTcpBytesPerSecond: -1}", "greater than or equal to 0"),
                Arguments.of("spec.traffic.maxTcpBytesPerSecond", "traffic: {maxTcpBytesPerSecond: 2147483648}", "less than or equal to"),
                Arguments.of("spec.traffic.minRdmaPacketsPerSecond", "traffic: {minRdmaPacketsPerSecond: 0}", "greater than or equal to 1"),
                Arguments.of("spec.traffic.priority", "traffic: {priority: 8}", "less than or equal to 7"),
                Arguments.of("spec.traffic.devices[0]", "traffic: {devices: [\"mlx5_0/1 --x\"]}", "should match"),
                Arguments.of("spec.portErrors.maxSymbolErrorsPerHour", "portErrors: {maxSymbolErrorsPerHour: -1}",
                        "greater than or equal to 0"),
                Arguments.of("spec.portErrors.maxCarrierChangesPerHour", "portErrors: {maxCarrierChangesPerHour: 2147483648}",
                        "less than or equal to"),
                Arguments.of("spec.portErrors.devices[0]", "portErrors: {devices: [\"mlx5_0/1;reboot\"]}", "should match"),
                Arguments.of("spec.portErrors.devices", "portErrors: {devices: [mlx5_0/0]}", "between 1 and 255"),
                Arguments.of("spec.portErrors.maxLinkDownedPerHour", "portErrors: {maxLinkDownedPerHour: one}", "must be of type integer"),
                Arguments.of("spec.nfs.mounts[0]", "nfs: {mounts: [/mnt/../etc]}", "should match"),
                Arguments.of("spec.nfs.mounts[0]", "nfs: {mounts: [\"/mnt/data; reboot\"]}", "should match"),
                Arguments.of("spec.nfs.mounts", "nfs: {mounts: [/mnt/data, /mnt/data]}", "mount points must not repeat"),
                Arguments.of("spec.interval", "interval: -5m", "should match"),
                Arguments.of("spec.interval", "interval: 15 minutes", "should match"),
                Arguments.of("spec.interval", "interval: 30s", "at least 1m"),
                Arguments.of("spec.probeTimeout", "interval: 15m\nprobeTimeout: 15m", "shorter than interval"),
                Arguments.of("spec.probeTimeout", "interval: 15m\nprobeTimeout: 1h", "shorter than interval"),
                // the default probeTimeout (3m) is not shorter than a 2m interval: say so rather than probe forever
                Arguments.of("spec.probeTimeout", "interval: 2m", "probeTimeout (3m) must be shorter than interval (2m)"),
                Arguments.of("spec.probeTimeout", "probeTimeout: 0s", "longer than 0s"),
                Arguments.of("spec.maxConcurrentProbes", "maxConcurrentProbes: 0", "greater than or equal to 1"),
                Arguments.of("spec.maxConcurrentProbes", "maxConcurrentProbes: 1001", "less than or equal to 1000"),
                Arguments.of("spec.maxConcurrentProbes", "maxConcurrentProbes: lots", "integer"),
                // issue 14, defect 2: tolerations and durations the API server refuses in every probe pod
                Arguments.of("spec.tolerations[0].key", "tolerations: [{key: \"a b;$(x)\", operator: Exists}]", "should match"),
                Arguments.of("spec.tolerations[0].operator", "tolerations: [{key: a, operator: Foo}]", "Unsupported value"),
                Arguments.of("spec.tolerations[0].effect", "tolerations: [{key: a, operator: Exists, effect: Sometimes}]", "Unsupported value"),
                Arguments.of("spec.tolerations[0]", "tolerations: [{key: a, operator: Exists, value: b}]", "value must be empty when operator is Exists"),
                Arguments.of("spec.tolerations[0]", "tolerations: [{value: b}]", "operator must be Exists when key is empty"),
                Arguments.of("spec.tolerations[0]", "tolerations: [{key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]",
                        "tolerationSeconds needs effect NoExecute"),
                Arguments.of("spec.tolerations[0].value", "tolerations: [{key: a, operator: Equal, value: \"b c\"}]", "should match"),
                Arguments.of("spec.interval", "{interval: 2562047h, probeTimeout: 2562046h}", "at most 8760h"),
                // issue 14, defect 1: an expression without operator crashed every reconcile
                Arguments.of("spec.nodeSelector.matchExpressions[0].operator", "nodeSelector: {matchExpressions: [{key: a}]}", "Required value"),
                // the inventory facts' names, from the contract: anything else is refused
                Arguments.of("spec.fleet.allowMixed[1]", "fleet: {allowMixed: [kernel, uptime]}", "should match"),
                Arguments.of("spec.nodeSelector.matchExpressions[0].operator", "nodeSelector: {matchExpressions: [{key: a, operator: Gt, values: [\"1\"]}]}",
                        "Unsupported value"),
                Arguments.of("spec.nodeSelector.matchExpressions[0]", "nodeSelector: {matchExpressions: [{key: a, operator: In}]}", "values must be non-empty for operator In"),
                Arguments.of("spec.nodeSelector.matchExpressions[0]", "nodeSelector: {matchExpressions: [{key: a, operator: NotIn, values: []}]}",
                        "values must be non-empty for operator NotIn"),
                Arguments.of("spec.nodeSelector.matchExpressions[0]", "nodeSelector: {matchExpressions: [{key: a, operator: Exists, values: [x]}]}",
                        "values must be empty for operator Exists"),
                Arguments.of("spec.latency.referenceNodeSelector.matchExpressions[0].operator", "latency: {device: mlx5_0, referenceNodeSelector:"
                        + " {matchExpressions: [{key: role}]}}", "Required value"),
                Arguments.of("spec.latency.referenceNodeSelector.matchExpressions[0]", "latency: {device: mlx5_0, referenceNodeSelector:"
                        + " {matchExpressions: [{key: role, operator: DoesNotExist, values: [x]}]}}", "values must be empty for operator DoesNotExist"),
                // device taints and the startup taint: what reaches DeviceTaintRules and Node taints
                Arguments.of("spec.deviceTaints.effect", "deviceTaints: {effect: PreferNoSchedule}", "Unsupported value"),
                Arguments.of("spec.deviceTaints.drivers[0]", "deviceTaints: {drivers: [{driver: dra.net}]}",
                        "a driver needs at least one attribute to find a device by"),
                Arguments.of("spec.deviceTaints.drivers[0].driver", "deviceTaints: {drivers: [{driver: \"Dra.Net;x\", netdevAttributes: [ifName]}]}",
                        "should match"),
                Arguments.of("spec.deviceTaints.drivers[0].pciAddressAttributes[0]", "deviceTaints: {drivers: [{driver: dra.net,"
                        + " pciAddressAttributes: [\"dra.net/pci address\"]}]}", "should match"),
                Arguments.of("spec.startupTaint.key", "startupTaint: {key: rdmastorage.io/gate}",
                        "the startup taint is the node's own, not one of the operator's rdmastorage.io/ keys"),
                Arguments.of("spec.startupTaint.key", "startupTaint: {key: \"bad key\"}", "should match"),
                Arguments.of("spec.startupTaint.key", "startupTaint: {mode: Continuous}", "Required value"),
                Arguments.of("spec.startupTaint.mode", "startupTaint: {key: unverified, mode: Always}", "Unsupported value"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidSpecs")
    void invalidProfilesAreRefusedNamingTheField(String field, String spec, String says) {
        CommandResult result = apply("invalid", spec);

        assertThat(result.exitCode()).as("accepted: %s", spec).isNotZero();
        assertThat(result.stderr()).contains("is invalid").contains(field + ":").contains(says);
        assertThat(client.resources(RdmaStorageProfile.class).withName("invalid").get()).isNull();
    }

    @Test
    void profileNamesAreLimitedTo63CharactersBecauseTheyBecomeLabelValues() {
        String name63 = "p".repeat(RdmaStorageProfile.MAX_NAME_LENGTH);
        assertThat(apply(name63, "{}").exitCode()).isZero();

        CommandResult tooLong = apply(name63 + "q", "{}");
        assertThat(tooLong.exitCode()).isNotZero();
        assertThat(tooLong.stderr()).contains("is invalid").contains("metadata.name must be at most 63 characters");
    }

    @Test
    void aProfileWithoutSpecIsRefused() {
        CommandResult result = kubectl.applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata: {name: no-spec, labels: {test: crd-validation}}
                """);
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("spec is required");
    }

    private static CommandResult apply(String name, String spec) {
        String indented = spec.strip().replace("\n", "\n  ");
        return kubectl.applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata: {name: %s, labels: {test: crd-validation}}
                spec:
                  %s
                """.formatted(name, indented));
    }

    /** The RdmaStorageProfile example of docs/DESIGN.md, status included (the API server drops it on create). */
    static String designExample() throws IOException {
        Path design = Path.of(System.getProperty("rdmastorage.design.doc", "../docs/DESIGN.md"));
        Matcher m = Pattern.compile("### RdmaStorageProfile.*?```yaml\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(design));
        assertThat(m.find()).as("a yaml block under '### RdmaStorageProfile' in %s", design).isTrue();
        return m.group(1);
    }
}
