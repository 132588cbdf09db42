package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RdmaDevices' kernel-log signatures: the recorded mlx5 lines of ucx#7738 (and the others of the
 * sample) as the host's /dev/kmsg of the healthy node, moved to its mlx5_0 (0000:03:00.0); the
 * host has been up 14400 s, so the command timeouts are 2 minutes old and the health-poll failure 3 hours.
 */
class RdmaDevicesKernelLogCheckTest {

    @TempDir
    Path dir;

    private FixtureHost host() {
        return RdmaFixtures.healthy(FixtureHost.at(dir.resolve("root"))).file("/dev/kmsg",
                Samples.body("kmsg/dev-kmsg_mlx5-fault-signatures_ucx-7738.txt").replace("0000:61:00.0", "0000:03:00.0"));
    }

    @Test
    void aCommandTimeoutWithinTheWindowIsFalseNamingTheLineTheDeviceAndItsTime() {
        JsonNode check = ProbeRun.withSpec(host(), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceFatalLogged");
        assertThat(check.path("message").asText())
                .startsWith("mlx5_0 (0000:03:00.0) logged \"wait_func:1132:(pid 141179): CREATE_DCT(0x710) timeout. Will "
                        + "cause a leak of a command resource\" at ")
                .contains(", 119s ago (2 more such lines within 15m): a firmware command timed out")
                .contains("`devlink dev reload pci/0000:03:00.0`")
                .contains("mlx5_0 insufficient PCIe slot power").contains("mlx5_0 module high temperature")
                .contains("ens1f0np0 transmit queue timed out")
                .doesNotContain("health compromised");
        assertThat(check.path("details").path("problems").toString()).contains("DeviceWarningLogged");
    }

    @Test
    void aConnectXWhosePcieLinkDroppedIsFalseWhileItsPortStillReadsActive() {
        // the real Linux 7.0 sequence (no "(pid N)" in the call-site) on mlx5_0's function, 80 s before the probe
        FixtureHost host = RdmaFixtures.healthy(FixtureHost.at(dir.resolve("root")))
                .file("/dev/kmsg", Samples.body("kmsg/dev-kmsg_mlx5-dying_cx5-pcie-drop-no-pid-prefix_linux-7.0-report.txt")
                        .replace("0000:c4:00.0", "0000:03:00.0"))
                .file("/proc/uptime", "2600.00 1.00\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceFatalLogged");
        assertThat(check.path("message").asText()).startsWith("mlx5_0 (0000:03:00.0) logged ")
                .contains("mlx5_0 PCIe link lost", "mlx5_0 recovery failed");
    }

    @Test
    void aFatalErrorTheDriverRecoveredFromIsAWarningThatSaysSo() {
        String log = Samples.body("kmsg/dev-kmsg_mlx5-dying_pcie-surprise-link-down-pci-slot-unavailable_linux-rdma-2025.txt")
                .replace("0000:bb:00.0", "0000:03:00.0");
        long last = io.rdmastorage.probe.parse.Kmsg.parse(log).stream().mapToLong(io.rdmastorage.probe.parse.Kmsg.Record::usec)
                .max().orElseThrow();
        FixtureHost host = RdmaFixtures.healthy(FixtureHost.at(dir.resolve("root")))
                .file("/dev/kmsg", log + "6,99999," + (last + 1_000_000) + ",-;mlx5_core 0000:03:00.0: "
                        + "mlx5_health_try_recover:345:(pid 4242): health recovery succeeded\n")
                .file("/proc/uptime", (last / 1_000_000 + 60) + ".00 1.00\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceWarningLogged");
        assertThat(check.path("message").asText()).contains("then \"mlx5_health_try_recover:345:(pid 4242): health recovery "
                + "succeeded\"");
    }

    @Test
    void aWiderWindowReachesTheOlderHealthPollFailure() {
        JsonNode check = ProbeRun.withSpec(host(), "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"kernelLogWindow\":\"240m\"}}")
                .check("RdmaDevices");

        assertThat(check.path("reason").asText()).isEqualTo("DeviceFatalLogged");
        assertThat(check.path("message").asText()).contains("health compromised");
    }

    @Test
    void linesOfAnotherRdmaDeviceAreNotThisProfilesButAnUnmappedNetdevIsNamed() {
        JsonNode check = ProbeRun.withSpec(host(), "{\"rdma\":{\"devices\":[\"mlx5_1/1\"]}}").check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceWarningLogged");
        assertThat(check.path("message").asText()).startsWith("ens1f0np0 logged \"transmit queue 3 timed out\" at ")
                .doesNotContain("mlx5_0");
    }

    @Test
    void linesOlderThanTheWindowLeaveTheDevicesTrue() {
        FixtureHost host = host().file("/proc/uptime", "20000.00 1.00\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
    }

    @Test
    void aKernelLogThatIsNotThereIsUnknownNotQuiet() {
        FixtureHost host = host().delete("/dev/kmsg");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("KernelLogUnreadable");
        assertThat(check.path("message").asText()).contains("/dev/kmsg is not there on the host");
    }

    @Test
    void anInvalidWindowIsRefused() {
        ProbeRun run = ProbeRun.withSpec(host(), "{\"rdma\":{\"kernelLogWindow\":\"2d\"}}");

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.stderr()).contains("rdma.kernelLogWindow");
    }
}
