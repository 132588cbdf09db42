package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GdsFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GdsReady's data path through the real probe on fixture hosts: nvidia-fs's stats file under the host root. */
class GdsReadyDataPathCheckTest {

    @TempDir
    Path dir;

    private JsonNode gds(FixtureHost host, String spec) {
        return ProbeRun.withSpec(host, spec).check("GdsReady");
    }

    @Test
    void countedReadsMakeTheNodeReady() {
        JsonNode check = gds(GdsFixtures.ioServed(FixtureHost.at(dir)), GdsFixtures.DATA_PATH_SPEC);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("nvidia-fs served 424436862 read(s)");
        assertThat(check.path("details").path("nvfsIo").asText()).startsWith("reads 424436862 (21518771 MiB)");
    }

    @Test
    void mappedBuffersWithoutServedIoAreCompatMode() {
        JsonNode check = gds(GdsFixtures.ioBypassed(FixtureHost.at(dir)), GdsFixtures.DATA_PATH_SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("CompatModeIo");
    }

    @Test
    void statsDisabledIsUnknownWithTheVerifiedDataPathAndReadyWithout() {
        FixtureHost host = GdsFixtures.ioStatsDisabled(FixtureHost.at(dir));

        assertThat(gds(host, GdsFixtures.DATA_PATH_SPEC).path("reason").asText()).isEqualTo("IoStatsDisabled");
        assertThat(gds(host, GdsFixtures.SPEC).path("status").asText()).isEqualTo("True");
    }

    @Test
    void everyProbeReadsTheCountersAgain() {
        FixtureHost host = GdsFixtures.ioStatsDisabled(FixtureHost.at(dir));
        assertThat(gds(host, GdsFixtures.SPEC).path("status").asText()).isEqualTo("True");

        // between two probes the driver counts failed reads (constructed from the recorded output)
        host.file("/proc/driver/nvidia-fs/stats", Samples.body("gds/nvidia-fs-stats_v4.0_driver-2.25.7.txt")
                .replace("Reads                : err=0", "Reads                : err=3"));

        JsonNode check = gds(host, GdsFixtures.SPEC);
        assertThat(check.path("reason").asText()).isEqualTo("NvfsIoErrors");
        assertThat(check.path("message").asText()).contains("Reads err=3");
    }
}
