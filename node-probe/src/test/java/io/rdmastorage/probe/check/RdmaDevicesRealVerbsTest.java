package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.RealVerbsEnvironment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole CLI with {@code rdma.userspaceVerbs} on a healthy fixture host: sysfs (under the host
 * root) says the HCAs are fine, then the REAL libibverbs of this machine is asked, which sees the
 * machine's devices, not the fixture's. On a build machine without an HCA that must come out as a
 * clean VerbsUnavailable, never a crash or a True.
 */
class RdmaDevicesRealVerbsTest {

    @TempDir
    Path dir;

    @Test
    void healthySysfsButNoDevicesForLibibverbs() {
        FixtureHost host = RdmaFixtures.healthy(FixtureHost.at(dir));

        ProbeRun run = ProbeRun.withSpec(host, "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"userspaceVerbs\":true}}");
        JsonNode check = run.check("RdmaDevices");

        assertThat(run.stderr()).isEmpty();
        if (RealVerbsEnvironment.devicesPresent()) {
            // a machine with real HCAs: whatever it says, it says it as a verdict with a reason
            assertThat(check.path("reason").asText()).isNotEmpty();
            return;
        }
        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("VerbsUnavailable");
        assertThat(check.path("message").asText()).contains(RealVerbsEnvironment.libraryInstalled()
                ? "libibverbs in the probe sees no RDMA devices"
                : "libibverbs cannot be loaded in the probe");
        assertThat(check.path("details").path("memlock").asText()).isNotEmpty();
    }
}
