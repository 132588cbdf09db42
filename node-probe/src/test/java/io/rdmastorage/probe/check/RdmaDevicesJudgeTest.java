package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.parse.SysfsIbPort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RdmaDevices' rules on fact records: ports as sysfs shows them, no host needed. */
class RdmaDevicesJudgeTest {

    private static final String NDR = "400 Gb/sec (4X NDR)";
    private static final ProbeSpec BOTH = spec(List.of("mlx5_0/1", "mlx5_1/1"), false);

    private static ProbeSpec spec(List<String> devices, boolean verbs) {
        return new ProbeSpec(new ProbeSpec.Rdma(devices, verbs), null, null, null, null, null);
    }

    private static SysfsIbPort active(String device) {
        return SysfsIbPort.of(device, 1, "4: ACTIVE", "5: LinkUp", NDR, "InfiniBand", "1");
    }

    private static SysfsIbPort polling(String device) {
        return SysfsIbPort.of(device, 1, "1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)", "InfiniBand", "0");
    }

    private static RdmaDevicesCheck.Facts facts(SysfsIbPort... ports) {
        Map<String, SysfsIbPort> byName = new LinkedHashMap<>();
        for (SysfsIbPort p : ports) {
            byName.put(p.name(), p);
        }
        return new RdmaDevicesCheck.Facts("/host", true, byName.values().stream().map(SysfsIbPort::device).distinct().toList(), byName,
                Optional.empty());
    }

    private static CheckResult verdict(RdmaDevicesCheck.Facts facts, ProbeSpec spec) {
        return new RdmaDevicesCheck().result(facts, spec);
    }

    @Test
    void expectedPortsActiveAreTrue() {
        CheckResult result = verdict(facts(active("mlx5_0"), active("mlx5_1")), BOTH);

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).isEqualTo("mlx5_0/1, mlx5_1/1 ACTIVE with the link up (" + NDR + ", InfiniBand)");
    }

    @Test
    void aMissingDeviceOutranksADownPortAndBothAreNamed() {
        CheckResult result = verdict(facts(polling("mlx5_0")), BOTH);

        assertThat(result.reason()).isEqualTo("DeviceMissing");
        assertThat(result.message()).startsWith("expected mlx5_1/1 but /sys/class/infiniband has no mlx5_1 (found mlx5_0)")
                .endsWith("; also 1 more: mlx5_0/1 DOWN/Polling");
        assertThat(result.details().get("problems")).isEqualTo(List.of("DeviceMissing", "PortDown"));
    }

    @Test
    void withoutExpectedPortsOneWorkingPortIsEnough() {
        CheckResult result = verdict(facts(active("mlx5_0"), polling("mlx5_1")), ProbeSpec.discover());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).contains("not working (no rdma.devices required them): mlx5_1/1 DOWN/Polling");
    }

    @Test
    void anUnreadablePortIsUnknownNotDown() {
        SysfsIbPort unreadable = SysfsIbPort.of("mlx5_0", 1, null, null, null, null, null);

        CheckResult result = verdict(facts(unreadable), ProbeSpec.discover());

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("PortStateUnreadable");
    }

    @Test
    void requiredVerbsThatWereNotTriedAreNeverTrue() {
        CheckResult result = verdict(facts(active("mlx5_0"), active("mlx5_1")), spec(List.of("mlx5_0/1", "mlx5_1/1"), true));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("VerbsUnavailable");
    }

    @Test
    void aBindingThatFailedIsUnknown() {
        RdmaDevicesCheck.Facts sysfs = facts(active("mlx5_0"));
        RdmaDevicesCheck.Facts facts = new RdmaDevicesCheck.Facts("/host", true, sysfs.devices(), sysfs.ports(), Optional.of(
                new RdmaDevicesCheck.VerbsAttempt(Map.of("mlx5_0", List.of(1)), Optional.empty(),
                        Optional.of("UnsatisfiedLinkError: no jffi"))));

        CheckResult result = verdict(facts, spec(List.of("mlx5_0/1"), true));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.message()).contains("UnsatisfiedLinkError: no jffi");
    }

    @Test
    void aHostWithoutSysIsUnknownNotNoRdmaDevices() {
        CheckResult result = verdict(new RdmaDevicesCheck.Facts("/host", false, List.of(), Map.of(), Optional.empty()), BOTH);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("HostViewMissing");
        assertThat(result.message()).contains("the host's /sys is not visible under the host root /host")
                .doesNotContain("modprobe");
    }

    @Test
    void aVisibleSysWithoutTheRdmaClassIsNoRdmaDevices() {
        CheckResult result = verdict(new RdmaDevicesCheck.Facts("/host", true, List.of(), Map.of(), Optional.empty()), BOTH);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("NoRdmaDevices");
    }

    @Test
    void libibverbsSeeingThePortDownOutranksSysfs() {
        // the sources disagree: sysfs says ACTIVE, the probe's own libibverbs (what a pod uses) says DOWN
        RdmaDevicesCheck.Facts sysfs = facts(active("mlx5_0"));
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0"), List.of(VerbsReport.DeviceTest.passed("mlx5_0",
                List.of(new VerbsReport.PortAttributes(1, 1, 3, 1, 0, 0)), 1 << 20)), Optional.empty());
        RdmaDevicesCheck.Facts facts = new RdmaDevicesCheck.Facts("/host", true, sysfs.devices(), sysfs.ports(), Optional.of(
                new RdmaDevicesCheck.VerbsAttempt(Map.of("mlx5_0", List.of(1)), Optional.of(report), Optional.empty())));

        CheckResult result = verdict(facts, spec(List.of("mlx5_0/1"), true));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("VerbsPortNotActive");
        assertThat(result.message()).contains("libibverbs in the probe reports mlx5_0/1 DOWN although the host's sysfs says ACTIVE",
                "ibv_devinfo -d mlx5_0");
    }
}
