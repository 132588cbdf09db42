package io.rdmastorage.probe.check;

import static io.rdmastorage.probe.testing.NvmeofFixtures.SPEC;
import static io.rdmastorage.probe.testing.NvmeofFixtures.TARGET_NQN;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvmeofRdmaCheckTest {

    private static final String CONNECT = "nvme connect -t rdma -n " + TARGET_NQN + " -a 10.68.20.10 -s 4420";

    @TempDir
    Path dir;

    private FixtureHost host() {
        return FixtureHost.at(dir.resolve("root"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void healthyNodeHasTheTargetLiveOverRdma() {
        ProbeRun run = ProbeRun.withSpec(NvmeofFixtures.healthy(host()), SPEC);
        JsonNode check = run.check("NvmeofRdma");

        assertThat(run.exitCode()).isZero();
        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("ConnectedOverRdma");
        assertThat(check.path("message").asText()).contains(TARGET_NQN + " at 10.68.20.10:4420 via nvme1");
        JsonNode target = check.path("details").path("targets").get(0);
        assertThat(target.path("endpoint").asText()).isEqualTo("10.68.20.10:4420");
        assertThat(texts(target.path("paths"))).containsExactly("nvme1 rdma 10.68.20.10:4420 live");
    }

    @Test
    void targetOnTcpIsTheSilentFallback() {
        JsonNode check = ProbeRun.withSpec(NvmeofFixtures.targetOnTcp(host()), SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("TransportTcp");
        assertThat(check.path("message").asText())
                .contains("nvme1 tcp 10.68.20.10:4420 live")
                .contains("no live rdma path")
                .contains("`nvme disconnect -d nvme1`")
                .contains("`modprobe nvme-rdma`")
                .contains(CONNECT);
    }

    @Test
    void connectingControllerIsNotLiveYet() {
        JsonNode check = ProbeRun.withSpec(NvmeofFixtures.controllerConnecting(host()), SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("ControllerNotLive");
        assertThat(check.path("message").asText())
                .contains("nvme1 is connecting")
                .contains("reconnecting")
                .contains("`nvme list-subsys`")
                .contains("`dmesg | grep -i nvme`")
                .contains(CONNECT);
    }

    @Test
    void deletingControllerIsNotLiveAndNotCalledReconnecting() {
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.healthy(host()), "nvme1", "rdma",
                NvmeofFixtures.TARGET_RDMA_ADDRESS, TARGET_NQN, "deleting (no IO)");

        JsonNode check = ProbeRun.withSpec(host, SPEC).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("ControllerNotLive");
        assertThat(check.path("message").asText()).contains("nvme1 is deleting (no IO)").doesNotContain("reconnecting");
    }

    @Test
    void missingTargetSaysHowToConnectIt() {
        ProbeRun run = ProbeRun.withSpec(NvmeofFixtures.targetMissing(NvmeofFixtures.healthy(host())), SPEC);
        JsonNode check = run.check("NvmeofRdma");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("TargetNotConnected");
        assertThat(check.path("message").asText())
                .contains("no controller connects " + TARGET_NQN + " at 10.68.20.10:4420")
                .contains(CONNECT)
                .contains("nvme discover -t rdma -a 10.68.20.10 -s 4420");
        assertThat(check.path("details").path("targets").get(0).path("paths")).isEmpty();
    }

    @Test
    void multipathWithOneLivePathAndOneReconnectingIsTrueAndSaysSo() {
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.healthy(host()), "nvme2", "rdma",
                "traddr=10.68.21.10,trsvcid=4420\n", TARGET_NQN, "connecting");

        JsonNode check = ProbeRun.withSpec(host, SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("via nvme1").contains("other paths not live: nvme2 connecting");
        assertThat(texts(check.path("details").path("targets").get(0).path("paths")))
                .containsExactly("nvme1 rdma 10.68.20.10:4420 live", "nvme2 rdma 10.68.21.10:4420 connecting");
    }

    @Test
    void tcpPathBesideALiveRdmaPathStillFails() {
        // native NVMe multipath spreads I/O over every path of the subsystem, the tcp one included
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.healthy(host()), "nvme2", "tcp",
                "traddr=10.68.30.10,trsvcid=4420,src_addr=10.68.30.21\n", TARGET_NQN, "live");

        JsonNode check = ProbeRun.withSpec(host, SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("TransportTcp");
        assertThat(check.path("message").asText())
                .contains("nvme2 tcp 10.68.30.10:4420 live")
                .contains("beside the live rdma path nvme1")
                .contains("`nvme disconnect -d nvme2`");
        assertThat(texts(check.path("details").path("targets").get(0).path("paths")))
                .containsExactly("nvme1 rdma 10.68.20.10:4420 live", "nvme2 tcp 10.68.30.10:4420 live");
    }

    @Test
    void recordedSysfsSnapshotWithTcpAndConnectingRdmaPaths() {
        // nvme-subsys1 of the prometheus/procfs sysfs snapshot: nvme3 tcp live, nvme4 rdma connecting
        FixtureHost host = host();
        String nqn = procfsSnapshotSubsystem1(host);
        String spec = "{\"nvmeof\":{\"targets\":[{\"nqn\":\"" + nqn + "\",\"address\":\"10.0.0.2\"}]}}";

        JsonNode check = ProbeRun.withSpec(host, spec).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("TransportTcp");
        assertThat(check.path("message").asText()).contains("nvme3 tcp 10.0.0.1:4420 live").contains("no live rdma path");
        assertThat(texts(check.path("details").path("targets").get(0).path("paths")))
                .containsExactly("nvme3 tcp 10.0.0.1:4420 live", "nvme4 rdma 10.0.0.2:4420 connecting");

        NvmeofFixtures.removeController(host, "nvme3");
        assertThat(ProbeRun.withSpec(host, spec).check("NvmeofRdma").path("reason").asText()).isEqualTo("ControllerNotLive");
    }

    @Test
    void theSubsystemConnectedElsewhereIsNotTheDeclaredTarget() {
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.targetMissing(host()), "nvme1", "rdma",
                "traddr=10.68.20.10,trsvcid=4421\n", TARGET_NQN, "live");

        JsonNode check = ProbeRun.withSpec(host, SPEC).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("TargetNotConnected");
        assertThat(check.path("message").asText()).contains("other paths: nvme1 rdma 10.68.20.10:4421 live");
    }

    @Test
    void ipv6AddressesMatchInAnyTextualForm() {
        // constructed: no public sysfs sample of an IPv6 NVMe-oF controller was found
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.targetMissing(host()), "nvme1", "rdma",
                "traddr=fe80::1%ib0,trsvcid=4420\n", TARGET_NQN, "live");
        String spec = "{\"nvmeof\":{\"targets\":[{\"nqn\":\"" + TARGET_NQN + "\",\"address\":\"fe80:0:0:0:0:0:0:1\"}]}}";

        JsonNode check = ProbeRun.withSpec(host, spec).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("details").path("targets").get(0).path("endpoint").asText()).isEqualTo("[fe80:0:0:0:0:0:0:1]:4420");
    }

    @Test
    void addressWithoutTrsvcidUsesTheDefaultPort() {
        // constructed: the kernel omits trsvcid when nvme connect was not given -s
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.targetMissing(host()), "nvme1", "rdma",
                "traddr=10.68.20.10\n", TARGET_NQN, "live");

        assertThat(ProbeRun.withSpec(host, SPEC).check("NvmeofRdma").path("status").asText()).isEqualTo("True");
    }

    @Test
    void unreadableControllerMeansUnknownNotMissing() {
        FixtureHost host = NvmeofFixtures.healthy(host()).delete("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/address");

        JsonNode check = ProbeRun.withSpec(host, SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ControllerUnreadable");
        assertThat(check.path("message").asText()).contains("address of nvme1").contains("cat /sys/class/nvme/nvme1/");
    }

    @Test
    void anUnreadableLocalDriveDoesNotHideAMissingTarget() {
        FixtureHost host = NvmeofFixtures.targetMissing(host())
                .delete("/sys/devices/pci0000:e0/0000:e0:01.1/0000:e1:00.0/nvme/nvme0/subsysnqn");

        assertThat(ProbeRun.withSpec(host, SPEC).check("NvmeofRdma").path("reason").asText()).isEqualTo("TargetNotConnected");
    }

    @Test
    void noSysfsUnderTheHostRootIsUnknown() {
        JsonNode check = ProbeRun.withSpec(host().mkdir("/etc"), SPEC).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        // issue 13: SysfsUnavailable became the reason every check gives for a host view it cannot see
        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
    }

    @Test
    void anEmptySectionOnAHostWithoutSysfsIsUnknownNotAbsent() {
        // the host's / mounted without its submounts: /sys is an empty mount point
        JsonNode check = ProbeRun.withSpec(host().mkdir("/sys").mkdir("/etc"), "{\"nvmeof\":{}}").check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
        assertThat(check.path("message").asText()).contains("the host's /sys is not visible");
    }

    @Test
    void noNvmeModuleMeansTheTargetIsNotConnected() {
        JsonNode check = ProbeRun.withSpec(host().mkdir("/sys/class/net"), SPEC).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("TargetNotConnected");
    }

    @Test
    void discoveryReportsRdmaControllersAndSkipsLocalDrives() {
        JsonNode check = ProbeRun.on(NvmeofFixtures.healthy(host())).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(texts(check.path("details").path("controllers")))
                .containsExactly("nvme1 rdma 10.68.20.10:4420 live " + TARGET_NQN);
    }

    @Test
    void discoveryFlagsTcpAndSaysHowToDeclareIntent() {
        JsonNode check = ProbeRun.on(NvmeofFixtures.targetOnTcp(host())).check("NvmeofRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("TransportTcp");
        assertThat(check.path("message").asText()).contains("nvme1 tcp 10.68.20.10:4420 live").contains(CONNECT)
                .contains("nvmeof.targets");
    }

    @Test
    void discoveryFlagsControllersThatAreNotLive() {
        JsonNode check = ProbeRun.on(NvmeofFixtures.controllerConnecting(host())).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("ControllerNotLive");
        assertThat(check.path("message").asText()).contains("nvme1 rdma 10.68.20.10:4420 connecting");
    }

    @Test
    void discoveryWithoutFabricsControllersHasNoCheck() {
        assertThat(ProbeRun.on(NvmeofFixtures.targetMissing(host())).hasCheck("NvmeofRdma")).isFalse();
        assertThat(ProbeRun.on(host().mkdir("/sys/class")).hasCheck("NvmeofRdma")).isFalse();
    }

    @Test
    void persistentDiscoveryControllerCarriesNoIo() {
        // constructed: a persistent discovery controller (nvme discover --persistent) over tcp
        FixtureHost host = NvmeofFixtures.fabricsController(NvmeofFixtures.targetMissing(host()), "nvme2", "tcp",
                "traddr=192.168.1.110,trsvcid=8009\n", "nqn.2014-08.org.nvmexpress.discovery", "live");

        assertThat(ProbeRun.on(host).hasCheck("NvmeofRdma")).isFalse();
    }

    @Test
    void emptySectionJudgesWhatIsThere() {
        ProbeRun run = ProbeRun.withSpec(NvmeofFixtures.targetOnTcp(host()), "{\"nvmeof\":{}}");

        assertThat(run.check("NvmeofRdma").path("reason").asText()).isEqualTo("TransportTcp");
    }

    @Test
    void severalFailingTargetsLeadWithTcp() {
        FixtureHost host = NvmeofFixtures.controllerConnecting(host());
        NvmeofFixtures.fabricsController(host, "nvme2", "tcp", "traddr=10.68.20.11,trsvcid=4420\n",
                "nqn.2024-01.dev.wutz:target2", "live");
        String spec = "{\"nvmeof\":{\"targets\":[" + NvmeofFixtures.SECTION.substring(12, NvmeofFixtures.SECTION.length() - 2)
                + ",{\"nqn\":\"nqn.2024-01.dev.wutz:target2\",\"address\":\"10.68.20.11\"}"
                + ",{\"nqn\":\"nqn.2024-01.dev.wutz:target3\",\"address\":\"10.68.20.12\"}]}}";

        JsonNode check = ProbeRun.withSpec(host, spec).check("NvmeofRdma");

        assertThat(check.path("reason").asText()).isEqualTo("TransportTcp");
        String message = check.path("message").asText();
        assertThat(message.indexOf("target2")).isLessThan(message.indexOf("target3"));
        assertThat(message.indexOf("target3")).isLessThan(message.indexOf("nvme1 is connecting"));
        assertThat(check.path("details").path("targets").findValuesAsText("result"))
                .containsExactly("ControllerNotLive", "TransportTcp", "TargetNotConnected");
    }

    /** Lays nvme-subsys1 of the recorded procfs sysfs snapshot out as /sys/class/nvme controllers; returns its NQN. */
    private static String procfsSnapshotSubsystem1(FixtureHost host) {
        String prefix = "fixtures/sys/class/nvme-subsystem/nvme-subsys1/";
        List<String> lines = Samples.body("nvme/sysfs_nvme-subsystem_procfs-fixture.txt").lines().toList();
        String nqn = null;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("Path: " + prefix)) {
                continue;
            }
            String file = lines.get(i).substring(("Path: " + prefix).length());
            String value = lines.get(i + 2);
            if (file.equals("subsysnqn")) {
                nqn = value;
            } else if (file.startsWith("nvme")) {
                host.file("/sys/devices/virtual/nvme-fabrics/ctl/" + file, value + "\n")
                        .symlink("/sys/class/nvme/" + file.substring(0, file.indexOf('/')),
                                "../../devices/virtual/nvme-fabrics/ctl/" + file.substring(0, file.indexOf('/')));
            }
        }
        for (String ctrl : List.of("nvme3", "nvme4")) {
            host.file("/sys/devices/virtual/nvme-fabrics/ctl/" + ctrl + "/subsysnqn", nqn + "\n");
        }
        return nqn;
    }
}
