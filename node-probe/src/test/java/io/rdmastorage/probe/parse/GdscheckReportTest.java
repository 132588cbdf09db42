package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.GdscheckReport.DriverSupport;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GdscheckReportTest {

    private static GdscheckReport sample(String name) {
        return GdscheckReport.parse(Samples.body("gds/" + name)).orElseThrow();
    }

    private static String value(GdscheckReport report, String row) {
        return report.driver(List.of(row)).map(DriverSupport::value).orElse("absent");
    }

    private static boolean direct(GdscheckReport report, String row) {
        return report.driver(List.of(row)).map(DriverSupport::direct).orElse(false);
    }

    @Test
    void gds10OldFormat() {
        GdscheckReport r = sample("gdscheck-p_1.0.1.3_quadro-vm-oldformat.txt");

        assertThat(r.gdsVersion()).contains("1.0.1.3");
        assertThat(r.nvidiaFsVersion()).contains("2.7");
        assertThat(r.libcufileVersion()).contains("2.4");
        assertThat(direct(r, "NVMe")).isTrue();
        assertThat(direct(r, "IBM Spectrum Scale")).isFalse();
        assertThat(r.driver(List.of("NVMe P2PDMA"))).isEmpty();
        assertThat(r.driverOptions()).containsEntry("Mellanox PeerDirect", "Enabled")
                .containsEntry("rdma library", "Not Loaded (libcufile_rdma.so)");
        assertThat(r.cufileFlag("use_compat_mode")).contains(true);
        assertThat(r.gpus()).hasSize(1);
        assertThat(r.gpus().get(0).iommuState()).isEmpty();   // 1.0 GPU lines have no IOMMU State
        assertThat(r.iommu()).contains("disabled");
        assertThat(r.iommuEnabled()).contains(false);
        assertThat(r.platformVerified()).contains(true);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void gds110NvmeofAndNfsSupported() {
        GdscheckReport r = sample("gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt");

        assertThat(r.nvidiaFsVersion()).contains("2.20");
        assertThat(direct(r, "NVMe")).isTrue();
        assertThat(direct(r, "NVMeOF")).isTrue();
        assertThat(direct(r, "NFS")).isTrue();
        assertThat(direct(r, "BeeGFS")).isFalse();
        assertThat(r.gpus().get(0).iommuState()).contains("disabled");
        assertThat(r.cufileProperties()).containsEntry("fs.gpfs.gds_write_support", "false");
    }

    @Test
    void gds114FragmentWithoutLeadingSpaceOnFirstLine() {
        GdscheckReport r = sample("gdscheck-p_1.14.0.30_h200-all-unsupported_issue75.txt");

        assertThat(r.gdsVersion()).contains("1.14.0.30");
        assertThat(r.nvidiaFsVersion()).contains("2.27");
        assertThat(r.drivers()).hasSize(12).allSatisfy((row, value) -> assertThat(value).isEqualTo("Unsupported"));
        assertThat(r.iommuEnabled()).isEmpty();   // cut before GPU and PLATFORM INFO
        assertThat(r.platformVerified()).isEmpty();
    }

    @Test
    void gds114FourGpusCompatModeOff() {
        GdscheckReport r = sample("gdscheck-p_1.14.0.30_rtx6000x4-coyote2.txt");

        assertThat(r.gpus()).hasSize(4).allSatisfy(g -> assertThat(g.iommuState()).contains("disabled"));
        assertThat(r.cufileFlag("use_compat_mode")).contains(false);
        assertThat(r.cufileFlag("force_compat_mode")).contains(false);
        assertThat(direct(r, "NVMe")).isTrue();
        assertThat(direct(r, "NVMe P2PDMA")).isFalse();
        assertThat(value(r, "IBM Spectrum Scale")).isEqualTo("Unsupported");
    }

    @Test
    void gds115WithoutNvidiaFs() {
        GdscheckReport r = sample("gdscheck-p_1.15.0.42_l40s-vm-p2pdma.txt");

        assertThat(r.nvidiaFsLoaded()).isFalse();
        assertThat(r.libcufileVersion()).contains("2.12");
        assertThat(direct(r, "NVMe P2PDMA")).isTrue();
        assertThat(direct(r, "NVMe")).isFalse();
        assertThat(r.iommuEnabled()).contains(false);
    }

    @Test
    void gds116ModeLists() {
        GdscheckReport r = sample("gdscheck-p_1.16.0.49_nvidia-doc-newformat.txt");

        assertThat(r.nvidiaFsVersion()).contains("2.27");   // not the "minimum version" beside it
        DriverSupport nvme = r.driver(List.of("NVMe")).orElseThrow();
        assertThat(nvme.modes()).containsExactly("nvfs", "compat");
        assertThat(nvme.direct()).isTrue();
        assertThat(r.driver(List.of("NVMeOF")).orElseThrow().modes()).containsExactly("compat");
        assertThat(direct(r, "NVMeOF")).isFalse();
        assertThat(direct(r, "IBM Spectrum Scale")).isTrue();   // dmabuf, compat
        assertThat(direct(r, "FSx Lustre")).isTrue();           // plain "Supported" in the new format
        assertThat(direct(r, "Userspace RDMA")).isTrue();
        assertThat(r.driverOptions()).containsEntry("DmaBuf support", "Enabled")
                .containsEntry("rdma_device_status", "Up: 1 Down: 0");
        assertThat(r.cufileProperties()).containsEntry("block.nvmeof.use_pci_p2pdma", "false");
        assertThat(r.iommuEnabled()).contains(false);
        assertThat(r.platformVerified()).contains(true);
    }

    @Test
    void gds17FragmentEndsInsideCufileConfiguration() {
        GdscheckReport r = sample("gdscheck-p_1.7.1.12_nvme-unsupported_issue31.txt");

        assertThat(r.nvidiaFsVersion()).contains("2.17");
        assertThat(direct(r, "NVMe")).isFalse();
        assertThat(r.cufileProperties()).containsEntry("properties.posix_pool_slab_size_kb", "4 1024 16384");
        assertThat(r.gpus()).isEmpty();
        assertThat(r.iommuEnabled()).isEmpty();
    }

    @Test
    void rowNamesMatchWithoutCaseOrPadding() {
        GdscheckReport r = sample("gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt");

        assertThat(r.driver(List.of("ibm   spectrum SCALE"))).map(DriverSupport::row).contains("IBM Spectrum Scale");
        assertThat(r.driver(List.of("IBM Storage Scale", "IBM Spectrum Scale"))).isPresent();
        assertThat(r.driver(List.of("Nothing"))).isEmpty();
    }

    @Test
    void leadingWarnLinesAreKeptAsWarnings() {
        // the libcufile logger's line, as printed before the report on a GDS 1.13 host (public install notes)
        String text = "warn: error opening log file: Permission denied, logging will be disabled\n"
                + Samples.body("gds/gdscheck-p_1.14.0.30_rtx6000x4-coyote2.txt");

        GdscheckReport r = GdscheckReport.parse(text).orElseThrow();

        assertThat(r.warnings()).containsExactly("warn: error opening log file: Permission denied, logging will be disabled");
        assertThat(r.gdsVersion()).contains("1.14.0.30");
        assertThat(r.drivers()).hasSize(13);
    }

    @Test
    void crlfAndTabsAreTolerated() {
        String text = Samples.body("gds/gdscheck-p_1.0.1.3_quadro-vm-oldformat.txt")
                .replace("\n", "\r\n").replace(" NVMe               :", "\tNVMe\t:");

        GdscheckReport r = GdscheckReport.parse(text).orElseThrow();

        assertThat(direct(r, "NVMe")).isTrue();
        assertThat(r.iommuEnabled()).contains(false);
    }

    @Test
    void paddedRowWithEmptyValueDoesNotEndTheSection() {
        // constructed: an empty value must not be taken for a section name such as "GPU INFO:"
        String text = " GDS release version: 1.14.0.30\n =====================\n DRIVER CONFIGURATION:\n"
                + " =====================\n SCSI               :\n NFS                : Supported\n";

        GdscheckReport r = GdscheckReport.parse(text).orElseThrow();

        assertThat(r.drivers()).containsEntry("SCSI", "").containsEntry("NFS", "Supported");
    }

    @Test
    void enabledIommuFromPlatformOrGpuLines() {
        // constructed (no public output shows it): the documented "IOMMU:" line and per-GPU state
        String platform = " GDS release version: 1.14.0.30\n ==============\n PLATFORM INFO:\n ==============\n IOMMU: enabled\n";
        String gpuOnly = " GDS release version: 1.14.0.30\n =========\n GPU INFO:\n =========\n"
                + " GPU index 0 NVIDIA H200 bar:1 bar size (MiB):262144 supports GDS, IOMMU State: Enabled\n";

        assertThat(GdscheckReport.parse(platform).orElseThrow().iommuEnabled()).contains(true);
        assertThat(GdscheckReport.parse(gpuOnly).orElseThrow().iommuEnabled()).contains(true);
    }

    @Test
    void failedPlatformVerificationIsAWarning() {
        String text = " GDS release version: 1.14.0.30\n ==============\n PLATFORM INFO:\n ==============\n"
                + " IOMMU: disabled\n Platform verification error :\n";

        GdscheckReport r = GdscheckReport.parse(text).orElseThrow();

        assertThat(r.platformVerified()).contains(false);
        assertThat(r.warnings()).containsExactly("Platform verification error :");
    }

    @Test
    void garbageIsNotAReport() {
        assertThat(GdscheckReport.parse("")).isEmpty();
        assertThat(GdscheckReport.parse("bash: gdscheck: command not found\n")).isEmpty();
        assertThat(GdscheckReport.parse("\u0000\u0001:::\n==\nfoo: bar\n")).isEmpty();
    }

    @Test
    void modeListEdgeCases() {
        assertThat(new DriverSupport("X", "compat").direct()).isFalse();
        assertThat(new DriverSupport("X", " p2pdma , compat ").modes()).containsExactly("p2pdma", "compat");
        assertThat(new DriverSupport("X", "Unsupported").direct()).isFalse();
        assertThat(new DriverSupport("X", "Supported").modes()).isEmpty();
        assertThat(new DriverSupport("X", "").direct()).isFalse();
        assertThat(Optional.of(new DriverSupport("NFS", "Supported")).map(DriverSupport::toString)).contains("NFS: Supported");
    }

    @Test
    void userspaceRdmaRowsOfTheNewAndTheOldFormat() {
        GdscheckReport.UserspaceRdma healthy = sample("gdscheck-p_1.16.0.49_nvidia-doc-newformat.txt").userspaceRdma();
        assertThat(healthy.shown()).isTrue();
        assertThat(healthy.row().orElseThrow().direct()).isTrue();
        assertThat(healthy.library()).contains("Loaded (libcufile_rdma.so)");
        assertThat(healthy.devicesConfigured()).contains(true);
        assertThat(healthy.up()).hasValue(1);
        assertThat(healthy.down()).hasValue(0);

        // padded rows of GDS 1.10: Unsupported, the library not loaded, no device configured
        GdscheckReport.UserspaceRdma none = sample("gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt").userspaceRdma();
        assertThat(none.row().orElseThrow().direct()).isFalse();
        assertThat(none.library()).contains("Not Loaded (libcufile_rdma.so)");
        assertThat(none.devicesConfigured()).contains(false);
        assertThat(none.up()).hasValue(0);
    }

    @Test
    void aFragmentCutBeforeTheRdmaRowsShowsNone() {
        // the recorded H200 excerpt ends at the WekaFS row, before Userspace RDMA and its -- rows
        GdscheckReport.UserspaceRdma cut = sample("gdscheck-p_1.14.0.30_h200-all-unsupported_issue75.txt").userspaceRdma();

        assertThat(cut.shown()).isFalse();
        assertThat(cut.library()).isEmpty();
        assertThat(cut.devicesConfigured()).isEmpty();
        assertThat(cut.up()).isEmpty();
    }
}
