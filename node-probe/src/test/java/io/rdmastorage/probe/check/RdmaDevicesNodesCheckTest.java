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
 * RdmaDevices' device nodes: the host's /dev/infiniband as ovis-hpc/ldms#127 lists it, against the
 * uverbs/umad/issm nodes /sys/class/infiniband_verbs and infiniband_mad announce (constructed).
 */
class RdmaDevicesNodesCheckTest {

    @TempDir
    Path dir;

    /** The healthy node, both umad classes announced, and /dev/infiniband as the sample lists it. */
    private FixtureHost host() {
        FixtureHost host = RdmaFixtures.healthy(FixtureHost.at(dir.resolve("root")));
        for (String device : new String[] {"mlx5_0", "mlx5_1"}) {
            String n = device.substring(device.length() - 1);
            host.file("/sys/class/infiniband_mad/umad" + n + "/ibdev", device + "\n").file("/sys/class/infiniband_mad/umad" + n + "/port", "1\n")
                    .file("/sys/class/infiniband_mad/issm" + n + "/ibdev", device + "\n").file("/sys/class/infiniband_mad/issm" + n + "/port", "1\n");
        }
        for (String node : Samples.body("rdma/ls-dev-infiniband_mlx4-3ports_ldms-issue127.txt").strip().split("\\s+")) {
            host.file("/dev/infiniband/" + node, "");
        }
        return host;
    }

    @Test
    void everyAnnouncedNodePresentPasses() {
        JsonNode check = ProbeRun.withSpec(host(), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("PortsActive");
    }

    @Test
    void aMissingUverbsNodeOnAnActivePortIsFalseAndNamed() {
        FixtureHost host = host().delete("/dev/infiniband/uverbs1").delete("/dev/infiniband/umad1");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceNodeMissing");
        assertThat(check.path("message").asText())
                .startsWith("/dev/infiniband/uverbs1, /dev/infiniband/umad1 missing on the host although mlx5_1/1 is ACTIVE")
                .contains("`lstat /dev/infiniband/uverbs1`");
    }

    @Test
    void aHostDevThatCannotBeSeenIsUnknownNotMissing() {
        FixtureHost host = host().delete("/dev");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
        assertThat(check.path("message").asText()).contains("/dev");
    }
}
