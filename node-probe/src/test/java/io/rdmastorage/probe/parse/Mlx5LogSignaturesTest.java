package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.Mlx5LogSignatures.Hit;
import io.rdmastorage.probe.parse.Mlx5LogSignatures.Kind;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class Mlx5LogSignaturesTest {

    private static final String SAMPLE = "kmsg/dev-kmsg_mlx5-fault-signatures_ucx-7738.txt";

    @Test
    void kmsgRecordsAreReadWithTheirTimeAndTheDictionaryLinesSkipped() {
        List<Kmsg.Record> records = Kmsg.parse(Samples.body(SAMPLE));

        assertThat(records).hasSize(9);
        assertThat(records.get(1)).isEqualTo(new Kmsg.Record(3, 8812, 3_600_120_455L,
                "mlx5_core 0000:61:00.0: poll_health:834:(pid 0): device's health compromised - reached miss count"));
    }

    /** "cmd[22]: CREATE_DCT(0x710) No done completion" is the command's execution timeout (cmd.c), its first line. */
    @Test
    void eachSignatureIsFoundWithItsFunctionOrNetdevAndOtherLinesAreNot() {
        List<Optional<Hit>> hits = Kmsg.parse(Samples.body(SAMPLE)).stream().map(r -> Mlx5LogSignatures.match(r.message())).toList();

        assertThat(hits.stream().map(h -> h.map(Hit::kind).orElse(null)).toList()).containsExactly(null,
                Kind.HEALTH_COMPROMISED, Kind.COMMAND_TIMEOUT, Kind.COMMAND_TIMEOUT, Kind.COMMAND_TIMEOUT, Kind.INSUFFICIENT_POWER,
                Kind.MODULE_HIGH_TEMPERATURE, Kind.TX_TIMEOUT, null);
        assertThat(hits.get(3).orElseThrow().bdf()).contains("0000:61:00.0");
        assertThat(hits.get(3).orElseThrow().text()).isEqualTo("wait_func:1132:(pid 141181): CREATE_DCT(0x710) timeout. "
                + "Will cause a leak of a command resource");
        assertThat(hits.get(7).orElseThrow().bdf()).isEmpty();
        assertThat(hits.get(7).orElseThrow().netdev()).contains("ens1f0np0");
    }

    @Test
    void theNewWatchdogFormatOfAnMlx5NetdevIsATxTimeout() {
        Hit hit = Mlx5LogSignatures.match("mlx5_core 0000:3b:00.1 ens1f1np1: NETDEV WATCHDOG: CPU: 3: transmit queue 7 timed out 5120 ms")
                .orElseThrow();

        assertThat(hit.kind()).isEqualTo(Kind.TX_TIMEOUT);
        assertThat(hit.bdf()).contains("0000:3b:00.1");
        assertThat(hit.netdev()).contains("ens1f1np1");
    }

    /** Each recorded dying ConnectX: the fatal kinds its lines carry (the driver's own messages, any kernel's prefix). */
    @Test
    void everyRecordedDyingConnectXHasItsFatalSignatures() {
        assertThat(kinds("dev-kmsg_mlx5-dying_cx4lx-vf-hot-unplug-fatal-cmd-timeouts_netdev-2020.txt"))
                .contains(Kind.FATAL_ERROR, Kind.PCI_LOST, Kind.HEALTH_COMPROMISED);
        assertThat(kinds("dev-kmsg_mlx5-dying_cx5-pcie-drop-no-pid-prefix_linux-7.0-report.txt"))
                .contains(Kind.FATAL_ERROR, Kind.PCI_LOST, Kind.ERROR_STATE, Kind.RECOVERY_FAILED, Kind.PROBE_FAILED);
        assertThat(kinds("dev-kmsg_mlx5-dying_cx6dx-fw-internal-error-miss-count_qemu-devel-2025.txt"))
                .contains(Kind.HEALTH_COMPROMISED, Kind.FIRMWARE_ERROR);
        assertThat(kinds("dev-kmsg_mlx5-dying_cx6dx-thermal-fatal-recovery-aborted_ofed-notes.txt"))
                .contains(Kind.DEVICE_HIGH_TEMPERATURE, Kind.HEALTH_COMPROMISED, Kind.RECOVERY_FAILED);
        assertThat(kinds("dev-kmsg_mlx5-dying_pcie-surprise-link-down-pci-slot-unavailable_linux-rdma-2025.txt"))
                .contains(Kind.FATAL_ERROR, Kind.PCI_LOST);
        assertThat(kinds("dev-kmsg_mlx5-dying_ppc-eeh-pci-slot-unavailable-cmd-timeout_netdev-2022.txt"))
                .contains(Kind.FATAL_ERROR, Kind.PCI_LOST, Kind.ERROR_STATE, Kind.COMMAND_TIMEOUT);
        assertThat(kinds("dev-kmsg_mlx5-fw-never-initializes_bluefield2-probe-timeout_blog.txt")).contains(Kind.PROBE_FAILED);
    }

    @Test
    void bootNoticesCableEventsAndLinkChangesAreNoSignature() {
        List<Kmsg.Record> records = Kmsg.parse(Samples.body("kmsg/dev-kmsg_mlx5-benign_boot-notices-and-events.txt"));

        assertThat(records).hasSizeGreaterThan(20);
        assertThat(records.stream().map(r -> Mlx5LogSignatures.match(r.message())).flatMap(Optional::stream).toList()).isEmpty();
    }

    @Test
    void theFirmwaresSeverityDecidesAHealthIssueAndTheDriversRecoveryIsSeen() {
        assertThat(Mlx5LogSignatures.match("mlx5_core 0000:0d:00.0: print_health_info:431:(pid 0): Health issue observed, "
                + "firmware internal error, severity(3) ERROR:").orElseThrow().kind()).isEqualTo(Kind.FIRMWARE_ERROR);
        assertThat(Mlx5LogSignatures.match("mlx5_core 0000:0d:00.0: print_health_info:431: Health issue observed, "
                + "High temperature, severity(4) WARNING:").orElseThrow().kind()).isEqualTo(Kind.FIRMWARE_WARNING);
        Hit recovered = Mlx5LogSignatures.match("mlx5_core 0000:0d:00.0: mlx5_health_try_recover:345:(pid 1): health recovery "
                + "succeeded").orElseThrow();
        assertThat(recovered.kind().severity()).isEqualTo(Mlx5LogSignatures.Severity.RECOVERED);
        assertThat(Mlx5LogSignatures.match("mlx5_core 0000:0d:00.0: firmware version: 22.44.1036")).isEmpty();
        assertThat(Mlx5LogSignatures.match("mlx5_core 0000:0d:00.0: firmware version: 65535.65535.65535").orElseThrow().kind())
                .isEqualTo(Kind.PCI_LOST);
    }

    private static List<Kind> kinds(String sample) {
        return Kmsg.parse(Samples.body("kmsg/" + sample)).stream().map(r -> Mlx5LogSignatures.match(r.message()))
                .flatMap(Optional::stream).map(Hit::kind).distinct().toList();
    }

    @Test
    void uptimeIsReadInMicroseconds() {
        assertThat(Kmsg.uptimeMicros("350735.47 234388.90\n")).hasValue(350_735_470_000L);
        assertThat(Kmsg.uptimeMicros("garbage")).isEmpty();
    }
}
