package io.rdmastorage.probe.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.probe.cli.ExitCode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.FixtureIdentity;
import io.rdmastorage.probe.testing.LustreFixtures;
import io.rdmastorage.probe.testing.NfsFixtures;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whole nodes through the real CLI: every check at once, as the operator will run them. Each
 * failure mode must change exactly its own check and leave the others True.
 */
class NodeScenariosTest {

    private static final List<String> ALL_CHECKS = List.of("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "CephMessenger");

    @TempDir
    Path dir;

    @Test
    void healthyNodePassesTheDesignProfile() {
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.healthy(FixtureHost.at(dir)), NodeScenarios.HEALTHY_SPEC);

        assertThat(run.exitCode()).as(run.stdout()).isEqualTo(ExitCode.ALL_TRUE);
        JsonNode report = run.report();
        assertThat(report.path("status").asText()).isEqualTo("True");
        List<String> types = new ArrayList<>();
        report.path("checks").forEach(c -> {
            types.add(c.path("type").asText());
            assertThat(c.path("status").asText()).as(c.toString()).isEqualTo("True");
        });
        assertThat(types).containsExactlyElementsOf(ALL_CHECKS);
        assertThat(run.stdout().strip().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);
    }

    @Test
    void eachFixtureNodeNamesItself() {
        // gpu-02 of a simulated cluster: its GPFS is gpu-02-ib, and its GPFS peer on TCP is gpu-01-ib
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir, FixtureIdentity.gpu(2)),
                "gpfs-tcp-fallback"), NodeScenarios.HEALTHY_SPEC);

        assertThat(run.check("GpfsVerbs").path("message").asText())
                .startsWith("GPFS on gpu-02-ib talks to gpu-01-ib over TCP");
        ProbeRun healthy = ProbeRun.withSpec(NodeScenarios.healthy(FixtureHost.at(dir.resolve("gpu-05"),
                FixtureIdentity.gpu(5))), NodeScenarios.HEALTHY_SPEC);
        assertThat(healthy.exitCode()).as(healthy.stdout()).isEqualTo(ExitCode.ALL_TRUE);
        assertThat(healthy.check("GpfsVerbs").path("message").asText()).startsWith("GPFS on gpu-05-ib uses RDMA");
        // a host laid out before is the same node again
        assertThat(FixtureHost.at(dir.resolve("gpu-05")).identity()).isEqualTo(FixtureIdentity.gpu(5));
        assertThat(FixtureIdentity.forNodeName("gpu-a")).isEqualTo(FixtureIdentity.GPU_01);
    }

    @Test
    void discoveryWithoutSpecFindsEveryArea() {
        ProbeRun run = ProbeRun.on(NodeScenarios.healthy(FixtureHost.at(dir)));

        List<String> types = new ArrayList<>();
        run.report().path("checks").forEach(c -> types.add(c.path("type").asText()));
        assertThat(types).containsExactlyElementsOf(ALL_CHECKS);
        assertThat(run.report().path("status").asText()).as(run.stdout()).isEqualTo("True");
    }

    @ParameterizedTest(name = "{0} -> {1} {2} {3}")
    @CsvSource({
            "gpfs-tcp-fallback,          GpfsVerbs,     False, TcpFallback",
            "gpfs-verbs-disabled,        GpfsVerbs,     False, VerbsRdmaDisabled",
            "gpfs-verbs-ports-typo,      GpfsVerbs,     False, VerbsPortsMismatch",
            "gpfs-not-running,           GpfsVerbs,     False, GpfsNotRunning",
            "nvmeof-on-tcp,              NvmeofRdma,    False, TransportTcp",
            "nvmeof-connecting,          NvmeofRdma,    False, ControllerNotLive",
            "nvmeof-target-missing,      NvmeofRdma,    False, TargetNotConnected",
            "gds-iommu-enabled,          GdsReady,      False, IommuEnabled",
            "gds-nvidia-fs-missing,      GdsReady,      False, NvidiaFsMissing",
            "gds-filesystem-unsupported, GdsReady,      False, FilesystemUnsupported",
            "gds-acs-redirect,           GdsReady,      False, PcieAcsRedirect",
            "rdma-port-down,             RdmaDevices,   False, PortDown",
            "rdma-no-subnet-manager,     RdmaDevices,   False, PortNotActivated",
            "ceph-async-rdma,            CephMessenger, False, ExperimentalRdmaMessenger"})
    void eachFailureModeChangesOnlyItsCheck(String scenario, String type, String status, String reason) {
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir), scenario), NodeScenarios.HEALTHY_SPEC);

        assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        JsonNode check = run.check(type);
        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo(status);
        assertThat(check.path("reason").asText()).as(check.toString()).isEqualTo(reason);
        assertThat(check.path("message").asText()).isNotBlank();
        for (String other : ALL_CHECKS) {
            if (!other.equals(type)) {
                assertThat(run.check(other).path("status").asText()).as(scenario + " must not change " + other)
                        .isEqualTo("True");
            }
        }
    }

    @Test
    void textFormatShowsEveryCheckInATable() {
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir), "gpfs-tcp-fallback"),
                NodeScenarios.HEALTHY_SPEC, "--format", "text");

        assertThat(run.stdout()).startsWith("node test-node: False")
                .containsPattern("GpfsVerbs +False +TcpFallback +.*gpu-02")
                .containsPattern("NvmeofRdma +True");
    }

    @Test
    void aProbeThatCannotSeeSysFencesNothing() {
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir), "host-sys-not-mounted"),
                NodeScenarios.HEALTHY_SPEC);

        for (String type : List.of("RdmaDevices", "NvmeofRdma", "GdsReady")) {
            assertThat(run.check(type).path("status").asText()).as(type).isEqualTo("Unknown");
            assertThat(run.check(type).path("reason").asText()).as(type).isEqualTo("HostViewMissing");
        }
        assertThat(run.check("GpfsVerbs").path("status").asText()).isEqualTo("True");
        assertThat(run.check("CephMessenger").path("status").asText()).isEqualTo("True");
        assertThat(run.report().path("status").asText()).isEqualTo("Unknown");
    }

    @Test
    void disputedIommuChangesOnlyGdsReadyAndOnlyToUnknown() {
        ProbeRun run = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir), "gds-iommu-disputed"),
                NodeScenarios.HEALTHY_SPEC);

        assertThat(run.check("GdsReady").path("reason").asText()).isEqualTo("SourcesDisagree");
        for (String other : ALL_CHECKS) {
            if (!other.equals("GdsReady")) {
                assertThat(run.check(other).path("status").asText()).as(other).isEqualTo("True");
            }
        }
    }

    @Test
    void aNodeThatAlsoMountsNfsOverRdmaStaysWithinTheReportSizeAndANfsFallbackChangesOnlyNfsRdma() {
        String spec = NodeScenarios.HEALTHY_SPEC.strip().replaceFirst("}$", ", \"nfs\": {\"mounts\": [\"/data\"]}}");
        ProbeRun healthy = ProbeRun.withSpec(NfsFixtures.rdma(NodeScenarios.healthy(FixtureHost.at(dir.resolve("rdma")))), spec);

        assertThat(healthy.report().path("status").asText()).as(healthy.stdout()).isEqualTo("True");
        assertThat(healthy.check("NfsRdma").path("reason").asText()).isEqualTo("MountsOverRdma");
        assertThat(healthy.stdout().strip().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);

        ProbeRun tcp = ProbeRun.withSpec(NfsFixtures.tcp(NodeScenarios.healthy(FixtureHost.at(dir.resolve("tcp")))), spec);

        assertThat(tcp.check("NfsRdma").path("reason").asText()).isEqualTo("MountNotRdma");
        for (String other : ALL_CHECKS) {
            assertThat(tcp.check(other).path("status").asText()).as(other).isEqualTo("True");
        }
    }

    @Test
    void aLustreClientWhoseO2ibNetworkIsDownChangesOnlyLustreLnet() {
        ProbeRun healthy = ProbeRun.withSpec(LustreFixtures.healthy(NodeScenarios.healthy(FixtureHost.at(dir.resolve("ok")))),
                NodeScenarios.LUSTRE_SPEC);

        assertThat(healthy.report().path("status").asText()).as(healthy.stdout()).isEqualTo("True");
        assertThat(healthy.check("LustreLnet").path("reason").asText()).isEqualTo("MountsOverRdma");

        ProbeRun down = ProbeRun.withSpec(NodeScenarios.withFailure(FixtureHost.at(dir.resolve("down")), "lustre-o2ib-down"),
                NodeScenarios.LUSTRE_SPEC);

        JsonNode check = down.check("LustreLnet");
        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PeerOnTcp");
        assertThat(check.path("message").asText()).contains("10.10.0.11@o2ib is reachable by o2ib NID(s) that are all down",
                "192.168.0.11@tcp up", "also 2 more: o2ib NI down; 10.10.0.12@o2ib health 400");
        for (String other : ALL_CHECKS) {
            assertThat(down.check(other).path("status").asText()).as(other).isEqualTo("True");
        }
        assertThat(down.stdout().strip().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);
    }
}
