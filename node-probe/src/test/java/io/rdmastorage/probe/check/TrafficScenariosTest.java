package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.FixtureIdentity;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RoceFixtures;
import io.rdmastorage.probe.testing.TrafficFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RdmaTraffic on whole fixture nodes through the CLI, the probe sleeping its real window while the
 * host steps from one counter reading to the next ({@link TrafficFixtures}): what the operator's
 * simulated nodes and the demo show.
 */
class TrafficScenariosTest {

    /** The healthy node's spec with the traffic section. */
    static final String SPEC = NodeScenarios.HEALTHY_SPEC.strip().replaceFirst("}$", ", \"traffic\": " + TrafficFixtures.SECTION + "}");

    /** The RoCE node's checks: lossless configuration and the data path. */
    static final String ROCE_SPEC = "{\"roce\": {\"dscp\": 26, \"priority\": 3}, \"traffic\": " + TrafficFixtures.SECTION + "}";

    @TempDir
    Path dir;

    private FixtureHost healthy() {
        return NodeScenarios.healthy(FixtureHost.at(dir.resolve("root"), FixtureIdentity.gpu(6)));
    }

    private static String verdict(JsonNode check) {
        return check.path("status").asText() + " " + check.path("reason").asText();
    }

    @Test
    void everyConfigurationCheckPassesWhileTheStorageBytesGoOverTcp() {
        ProbeRun run = ProbeRun.withSpec(TrafficFixtures.overTcp(healthy()), SPEC);

        for (String config : List.of("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady")) {
            assertThat(verdict(run.check(config))).as(config).startsWith("True ");
        }
        JsonNode traffic = run.check("RdmaTraffic");
        assertThat(verdict(traffic)).isEqualTo("False DataOnTcp");
        assertThat(traffic.path("message").asText()).startsWith("192.0.2.1:4420 (NVMe/TCP) moved ")
                .contains("while the RDMA ports stayed below 100 packets/s");
        assertThat(traffic.path("details").path("tcpBytesPerSecond").asLong()).isGreaterThan(1 << 20);
        assertThat(traffic.path("details").path("rdmaPacketsPerSecond").asLong()).isZero();
    }

    @Test
    void storageOverRdmaIsDataOverRdmaWithItsBytes() {
        JsonNode traffic = ProbeRun.withSpec(TrafficFixtures.overRdma(healthy()), SPEC).check("RdmaTraffic");

        assertThat(verdict(traffic)).isEqualTo("True DataOverRdma");
        assertThat(traffic.path("message").asText()).startsWith("mlx5_0/1 carried ");
        // the fixture's 2 GB over the window, however long a busy machine made the window (its
        // seconds are rounded to a tenth: within 15 %)
        JsonNode details = traffic.path("details");
        assertThat(details.path("rdmaBytesPerSecond").asLong() * details.path("windowSeconds").asDouble())
                .isBetween(1.7e9, 2.3e9);
        assertThat(traffic.path("details").path("tcpBytesPerSecond").asLong()).isZero();
    }

    @Test
    void aRoceNodeWithPfcOnOtherPrioritiesLosesPacketsAndShowsFabricErrors() {
        FixtureHost host = RoceFixtures.pfcOnOtherPriorities(TrafficFixtures.lossyRdma(RoceFixtures.healthy(healthy())));

        ProbeRun run = ProbeRun.withSpec(host, ROCE_SPEC);

        JsonNode roce = run.check("RoceLossless");
        assertThat(verdict(roce)).isEqualTo("False PfcNotOnStoragePriority");
        assertThat(roce.path("message").asText()).contains("not on the lossless priority 3");
        JsonNode traffic = run.check("RdmaTraffic");
        assertThat(verdict(traffic)).isEqualTo("False FabricErrors");
        assertThat(traffic.path("message").asText()).startsWith("mlx5_0/1: hw_counters/out_of_sequence grew by 40 in the ");
    }
}
