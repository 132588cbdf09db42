package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** /proc/driver/nvidia-fs/stats in its two formats, with IO stats on and off, TABs and spaces. */
class NvfsStatsTest {

    private static NvfsStats parse(String sample) {
        return NvfsStats.parse(Samples.body("gds/" + sample)).orElseThrow();
    }

    @Test
    void oldFormatUnderLoadCountsReadsAndWritesAndPerGpuCrossRootPort() {
        NvfsStats stats = parse("nvidia-fs-stats_v2.0_nfs-rdma-client_nvidia-doc.txt");

        assertThat(stats.header()).containsEntry("NVFS statistics", "2.0").containsEntry("NVFS Driver", "2:3:1")
                .containsEntry("Active Process", "1").doesNotContainKey("IO stats");
        // no "IO stats:" line in ver 2.0: the n= count says they are on
        assertThat(stats.ioStatsEnabled()).contains(true);
        assertThat(stats.counter("Reads", "n")).hasValue(424436862L);
        assertThat(stats.counter("Reads", "readMiB")).hasValue(21518771L);
        assertThat(stats.counter("Reads", "Bandwidth(MiB/s)")).hasValue(13081L);   // the second Reads line, merged
        assertThat(stats.counter("Writes", "n")).hasValue(309770912L);
        assertThat(stats.counter("Bar1-map", "n")).hasValue(3584L);
        assertThat(stats.errors()).isEmpty();
        assertThat(stats.gpus()).extracting(NvfsStats.Gpu::address).containsExactly("0000:be:00.0", "0000:e7:00.0");
        assertThat(stats.gpus().get(0).crossRootPortPercent()).hasValue(0L);
    }

    @Test
    void ioStatsDisabledPrintsOnlyTheErrorCountersOfReadsAndWrites() {
        NvfsStats stats = parse("nvidia-fs-stats_v4.0_driver-2.25.7.txt");

        assertThat(stats.ioStatsEnabled()).contains(false);
        assertThat(stats.header()).containsEntry("peer IO stats", "Disabled").containsEntry("NVFS Driver", "2.25.7");
        assertThat(stats.counter("Reads", "n")).isEmpty();
        assertThat(stats.counter("Reads", "err")).hasValue(0L);
        assertThat(stats.counter("Mmap", "n")).hasValue(1L);
        assertThat(stats.counter("Error", "dma-ref")).hasValue(0L);
        assertThat(stats.gpus()).singleElement().satisfies(g -> {
            assertThat(g.address()).isEqualTo("0000:01:00.0");
            assertThat(g.crossRootPortPercent()).isEqualTo(OptionalLong.empty());   // peer IO stats off
        });
    }

    @Test
    void realTabsAndTheBatchesLineOfIoStatsEnabled() {
        NvfsStats stats = parse("nvidia-fs-stats_v4.0_driver-2.20.5_io-stats-enabled_TABs_gds-issue46_fragment.txt");

        assertThat(stats.ioStatsEnabled()).contains(true);
        assertThat(stats.header()).containsEntry("GDS Version", "1.10.0.4");
        assertThat(stats.counter("Batches", "n")).hasValue(0L);
        assertThat(stats.counter("Sparse Reads", "holes")).hasValue(0L);
        assertThat(stats.counter("Reads", "n")).hasValue(0L);
        assertThat(stats.counter("Bar1-map", "n")).hasValue(1L);
        assertThat(stats.counter("Bar1-map", "delay-frees")).hasValue(0L);
    }

    @Test
    void promptsAndThePeerAffinityTableAppendedAreNotGpuLines() {
        NvfsStats stats = parse("nvidia-fs-stats_v4.0_driver-2.17.5_io-stats-disabled_no-gpu-lines_plus-peer_affinity_gds-issue31.txt");

        assertThat(stats.ioStatsEnabled()).contains(false);
        assertThat(stats.header()).containsEntry("Mellanox PeerDirect Supported", "False");
        assertThat(stats.counter("Bar1-map", "n")).hasValue(0L);
        assertThat(stats.gpus()).isEmpty();
    }

    @Test
    void failureCountersAreNamedByLineAndKey() {
        // constructed from the recorded 2.25.7 output: two read errors, one failed Bar1 map, one dma-map error
        String text = Samples.body("gds/nvidia-fs-stats_v4.0_driver-2.25.7.txt")
                .replace("Reads                : err=0", "Reads                : err=2")
                .replace("Bar1-map             : n=1 ok=1 err=0", "Bar1-map             : n=2 ok=1 err=1")
                .replace("dma-map=0", "dma-map=1");

        assertThat(NvfsStats.parse(text).orElseThrow().errors())
                .containsExactly(java.util.Map.entry("Reads err", 2L), java.util.Map.entry("Bar1-map err", 1L),
                        java.util.Map.entry("Error dma-map", 1L));
    }

    @Test
    void garbageIsNotStats() {
        assertThat(NvfsStats.parse("")).isEmpty();
        assertThat(NvfsStats.parse("cat: /proc/driver/nvidia-fs/stats: No such file or directory\n")).isEmpty();
    }
}
