package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.KernelCmdline;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import io.rdmastorage.probe.testing.GdsFixtures;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.ToolResults;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * GdsReady's data path on fact records: nvidia-fs's counters ({@code /proc/driver/nvidia-fs/stats},
 * recorded samples) and gdscheck's Userspace RDMA rows, beside the healthy gdscheck output.
 */
class GdsReadyDataPathJudgeTest {

    private static final ProbeSpec GPFS = spec(false, false, false);
    private static final ProbeSpec VERIFY = spec(false, true, false);

    private static final String UNDER_LOAD = "gds/nvidia-fs-stats_v2.0_nfs-rdma-client_nvidia-doc.txt";
    private static final String STATS_DISABLED = "gds/nvidia-fs-stats_v4.0_driver-2.25.7.txt";
    /** IO stats on, cuFile mapped one buffer, its async I/O failed before nvidia-fs counted a read. */
    private static final String MAPPED_NO_IO = "gds/nvidia-fs-stats_v4.0_driver-2.20.5_io-stats-enabled_TABs_gds-issue46_fragment.txt";

    private static ProbeSpec spec(boolean userspaceRdma, boolean verifyDataPath, boolean sameSwitch) {
        return new ProbeSpec(null, null, null,
                new ProbeSpec.Gds(List.of("gpfs"), true, sameSwitch, false, userspaceRdma, verifyDataPath), null, null);
    }

    private static GdsReadyCheck.Facts facts(ToolResult gdscheck, GdsDataPath.View dataPath) {
        return new GdsReadyCheck.Facts(gdscheck, Optional.of(KernelCmdline.parse("BOOT_IMAGE=/vmlinuz ro intel_iommu=off")),
                OptionalInt.of(0), Optional.of(NvidiaFsModules.parse("nvme: (null)\nwekafsio: 1\n")), Optional.empty(),
                Optional.of(GdsFixtures.cufileJson(false)), GdsTopology.View.NOT_READ,
                new GdsReadyCheck.KernelView(OptionalInt.empty(), Optional.empty(), true, "/host", Set.of()), dataPath);
    }

    private static GdsReadyCheck.Facts stats(String text, String rwStatsEnabled) {
        return facts(healthy(), new GdsDataPath.View(Optional.of(text), Optional.ofNullable(rwStatsEnabled)));
    }

    private static ToolResult healthy() {
        return ToolResults.printed("gdscheck -p", GdsFixtures.healthyGdscheck());
    }

    private static CheckResult verdict(GdsReadyCheck.Facts facts, ProbeSpec spec) {
        return new GdsReadyCheck().result(facts, spec);
    }

    // ---- nvidia-fs's counters --------------------------------------------------------------------

    @Test
    void readsCountedUnderLoadProveTheDataPath() {
        CheckResult result = verdict(stats(Samples.body(UNDER_LOAD), "1"), VERIFY);

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.message()).contains("nvidia-fs served 424436862 read(s) (21518771 MiB) and 309770912 write(s)");
        assertThat(result.details()).containsEntry("nvfsIoStats", "enabled");
    }

    @Test
    void ioStatsDisabledIsUnknownForTheDataPathNotTrue() {
        CheckResult result = verdict(stats(Samples.body(STATS_DISABLED), "0"), VERIFY);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("IoStatsDisabled");
        assertThat(result.message()).contains("rw_stats_enabled = 0",
                "echo 1 > /sys/module/nvidia_fs/parameters/rw_stats_enabled");
        // without verifyDataPath the same node is ready: the counters' absence is then no question asked
        assertThat(verdict(stats(Samples.body(STATS_DISABLED), "0"), GPFS).status()).isEqualTo(Status.TRUE);
    }

    @Test
    void buffersMappedButNoReadServedIsCompatMode() {
        CheckResult result = verdict(stats(Samples.body(MAPPED_NO_IO), "1"), VERIFY);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("CompatModeIo");
        assertThat(result.message()).contains("Mmap n=1, Bar1-map n=1", "Reads n=0, Writes n=0", "compat mode");
    }

    @Test
    void anIdleNodeProvesNothing() {
        // constructed from the recorded IO-stats-enabled output: nothing mapped either
        String idle = Samples.body(MAPPED_NO_IO).replace(": n=1 ok=1 err=0 munmap=1", ": n=0 ok=0 err=0 munmap=0")
                .replace(": n=1 ok=1 err=0 free=1", ": n=0 ok=0 err=0 free=0");

        CheckResult result = verdict(stats(idle, "1"), VERIFY);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoGdsIo");
        assertThat(result.message()).contains("gdsio");
    }

    @Test
    void failedGdsIoIsFalseWhetherOrNotTheDataPathIsVerified() {
        // constructed from the recorded 2.25.7 output (IO stats off still prints the error counters)
        String failing = Samples.body(STATS_DISABLED).replace("Reads                : err=0", "Reads                : err=7")
                .replace("dma-map=0", "dma-map=2");

        CheckResult result = verdict(stats(failing, "0"), GPFS);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("NvfsIoErrors");
        assertThat(result.message()).contains("Reads err=7, Error dma-map=2", "echo 1 > /proc/driver/nvidia-fs/stats");
        assertThat(result.details()).containsEntry("nvfsErrors", "Reads err=7, Error dma-map=2");
    }

    @Test
    void statsAndTheirParameterDisagreeingIsNeverTrue() {
        // the stats say IO stats are on and counted reads, the module parameter reads 0
        CheckResult result = verdict(stats(Samples.body(UNDER_LOAD).replace("Active Process: 1",
                "Active Process: 1\nIO stats: Enabled, peer IO stats: Enabled"), "0"), VERIFY);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("/proc/driver/nvidia-fs/stats says IO stats are enabled",
                "/sys/module/nvidia_fs/parameters/rw_stats_enabled is 0");
    }

    @Test
    void statsThatCannotBeReadAreUnknownOnlyWhenTheDataPathIsVerified() {
        GdsReadyCheck.Facts unread = facts(healthy(), GdsDataPath.View.NOT_READ);

        CheckResult result = verdict(unread, VERIFY);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NvfsStatsUnreadable");
        assertThat(verdict(unread, GPFS).status()).isEqualTo(Status.TRUE);
    }

    @Test
    void peerTrafficThroughTheRootComplexIsCrossSwitchTopology() {
        // constructed from the recorded load sample: the second GPU's peer DMA 37 % via the root complex
        String crossing = Samples.body(UNDER_LOAD).replace("max_pinned_MiB=8 cross_root_port(%)=0\n. .",
                "max_pinned_MiB=8 cross_root_port(%)=37\n. .");
        GdsReadyCheck.Facts facts = stats(crossing, "1");

        CheckResult result = verdict(facts, spec(false, true, true));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.details()).containsEntry("crossRootPort", "GPU 0000:e7:00.0 37%");
        assertThat(result.message()).contains("cross_root_port(%)");
    }

    // ---- gdscheck's Userspace RDMA ---------------------------------------------------------------

    @Test
    void userspaceRdmaLoadedConfiguredAndUpIsReady() {
        CheckResult result = verdict(facts(healthy(), GdsDataPath.View.NOT_READ), spec(true, false, false));

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.message()).contains("Userspace RDMA Supported, rdma library Loaded (libcufile_rdma.so), "
                + "rdma devices Configured, Up: 1 Down: 0");
    }

    @Test
    void aDownRdmaDeviceFailsARequiredUserspaceRdma() {
        ToolResult down = ToolResults.printed("gdscheck -p",
                GdsFixtures.healthyGdscheck().replace("Up: 1 Down: 0", "Up: 1 Down: 1"));

        CheckResult result = verdict(facts(down, GdsDataPath.View.NOT_READ), spec(true, false, false));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("RdmaDevicesDown");
        assertThat(result.message()).contains("1 of cuFile's RDMA devices are down");
        // not required: shown in the details only
        CheckResult notRequired = verdict(facts(down, GdsDataPath.View.NOT_READ), GPFS);
        assertThat(notRequired.status()).isEqualTo(Status.TRUE);
        assertThat(notRequired.details().get("userspaceRdma").toString()).contains("Down: 1");
    }

    @Test
    void notConfiguredDevicesFailARequiredUserspaceRdma() {
        // constructed: the healthy 1.16 output with cufile.json's rdma_dev_addr_list emptied
        ToolResult none = ToolResults.printed("gdscheck -p", GdsFixtures.healthyGdscheck()
                .replace("--rdma devices : Configured", "--rdma devices : Not configured").replace("Up: 1 Down: 0", "Up: 0 Down: 0"));

        CheckResult result = verdict(facts(none, GdsDataPath.View.NOT_READ), spec(true, false, false));

        assertThat(result.reason()).isEqualTo("RdmaDevicesNotConfigured");
        assertThat(result.message()).contains("rdma_dev_addr_list");
    }

    @Test
    void theRecordedUnsupportedUserspaceRdmaFails() {
        ToolResult recorded = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt"));
        ProbeSpec nvme = new ProbeSpec(null, null, null, new ProbeSpec.Gds(List.of("nvme"), true, false, false, true, false), null, null);

        CheckResult result = verdict(facts(recorded, GdsDataPath.View.NOT_READ), nvme);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("UserspaceRdmaUnsupported");
        assertThat(result.message()).contains("Userspace RDMA Unsupported; rdma library Not Loaded (libcufile_rdma.so)");
    }

    @Test
    void outputWithoutTheRdmaRowsIsUnknownForARequiredUserspaceRdma() {
        ToolResult cut = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.14.0.30_h200-all-unsupported_issue75.txt"));
        ProbeSpec any = new ProbeSpec(null, null, null, new ProbeSpec.Gds(List.of(), false, false, false, true, false), null, null);

        CheckResult result = verdict(facts(cut, GdsDataPath.View.NOT_READ), any);

        assertThat(result.reason()).isEqualTo("FilesystemUnsupported");   // the fragment serves nothing either
        assertThat(result.details().get("problems").toString()).contains("UserspaceRdmaUnknown");
    }
}
