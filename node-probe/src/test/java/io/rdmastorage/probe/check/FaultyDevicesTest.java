package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The devices a False verdict is about ({@code details.faultyDevices}), which the operator fences
 * one by one: named only by False findings that are one device's, placed by the host's sysfs.
 */
class FaultyDevicesTest {

    @TempDir
    Path dir;

    private FixtureHost tray() {
        return Gb200Fixtures.tray(FixtureHost.at(dir.resolve("root")));
    }

    @Test
    void aStorageNicsDownPortNamesThatDeviceWithItsPciAddressAndNetdevs() {
        JsonNode check = ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_6"), StorageNicsCheckTest.BY_PCI)
                .check("RdmaDevices");

        JsonNode faulty = check.path("details").path("faultyDevices");
        assertThat(faulty.size()).as(check.toString()).isEqualTo(1);
        assertThat(faulty.get(0).path("device").asText()).isEqualTo("mlx5_6");
        assertThat(faulty.get(0).path("pciAddress").asText()).isEqualTo("0016:03:00.0");
        assertThat(faulty.get(0).path("netdevs").toString()).contains("enP22p3s0f0np0");
        assertThat(faulty.get(0).path("reasons").toString()).isEqualTo("[\"PortDown\"]");
        assertThat(check.path("details").has("faultsBeyondDevices")).isFalse();
    }

    @Test
    void aHealthyNodeAndAComputeNicsFaultNameNoDevice() {
        assertThat(ProbeRun.withSpec(tray(), StorageNicsCheckTest.BY_PCI).check("RdmaDevices").path("details")
                .has("faultyDevices")).isFalse();
        assertThat(ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_4"), StorageNicsCheckTest.BY_PCI)
                .check("RdmaDevices").path("details").has("faultyDevices")).isFalse();
    }

    @Test
    void aFatalKernelLogLineNamesTheDeviceItWasLoggedFor() {
        String log = Samples.body("kmsg/dev-kmsg_mlx5-dying_cx5-pcie-drop-no-pid-prefix_linux-7.0-report.txt");
        FixtureHost dying = tray().file("/dev/kmsg", log.replace("0000:c4:00.0", "0006:03:00.0"))
                .file("/proc/uptime", "2600.00 1.00\n");

        JsonNode faulty = ProbeRun.withSpec(dying, StorageNicsCheckTest.BY_PCI).check("RdmaDevices")
                .path("details").path("faultyDevices");

        assertThat(faulty.toString()).contains("\"device\":\"mlx5_2\"", "\"pciAddress\":\"0006:03:00.0\"", "DeviceFatalLogged");
    }

    @Test
    void unknownFindingsNameNoDeviceAndAFalseOneWithoutADeviceIsSaidBeside() {
        Finding down = Finding.of(Status.FALSE, "PortDown", "mlx5_2/1 is down", "mlx5_2/1 down").onDevice("mlx5_2");
        Finding unreadable = Finding.of(Status.UNKNOWN, "PortStateUnreadable", "cannot read mlx5_3/1").onDevice("mlx5_3");
        Finding setting = Finding.of(Status.FALSE, "MtuTooSmall", "the netdev's MTU is 1500");

        CheckResult devicesOnly = combine(down, unreadable);
        assertThat(devicesOnly.details().get("faultyDevices"))
                .isEqualTo(List.of(Map.of("device", "mlx5_2", "reasons", List.of("PortDown"))));
        assertThat(devicesOnly.details()).doesNotContainKey("faultsBeyondDevices");

        CheckResult mixed = combine(down, setting);
        assertThat(mixed.details()).containsEntry("faultsBeyondDevices", true);
        assertThat(combine(setting).details()).doesNotContainKeys("faultyDevices", "faultsBeyondDevices");
    }

    private static CheckResult combine(Finding... findings) {
        return Findings.combine(CheckType.RDMA_DEVICES, Findings.Mention.COUNTED,
                Judgement.of(List.of(findings), Finding.passed("PortsActive", "all good"), new Details()));
    }
}
