package io.rdmastorage.probe.testing;

import java.util.List;

/**
 * The GdsReady area of a fixture node (gpu-01): a stub {@code gdscheck -p}, nvidia-fs's
 * {@code /proc/driver/nvidia-fs/modules}, {@code /proc/kallsyms}, {@code /proc/cmdline},
 * {@code /sys/kernel/iommu_groups}, {@code /etc/cufile.json}, and the PCIe placement of the GPU and
 * the two ConnectX-7 HCAs in sysfs.
 *
 * <p>The healthy node: nvidia_fs 2.27 loaded; nvme and nvme_rdma registered with it (their
 * GDS-enabled drivers export the nvfs hooks); IOMMU off ({@code intel_iommu=off}, no IOMMU groups);
 * GPFS served through dma-buf; compat mode forbidden in cufile.json; the GPU 0000:04:00.0 and mlx5_0
 * 0000:03:00.0 (and mlx5_1 0000:05:00.0) below the same PCIe switch, upstream port 0000:01:00.0, whose
 * downstream ports 0000:02:01.0, 0000:02:00.0 and 0000:02:02.0 have ACS with nothing on (their
 * configuration spaces are {@link PciConfigSpace}s laid out as a PLX switch port's: ACS at 0xf24, where
 * NVIDIA/nccl#304's fix writes its Control register; the ACSCtl lines are that issue's).
 *
 * <p>What is recorded and what is constructed: the gdscheck outputs are recorded samples; the healthy
 * one is the recorded GDS 1.16 output with two rows changed to match this node (see
 * {@link #healthyGdscheck()}), the IOMMU-enabled one is constructed (no public output shows
 * {@code IOMMU: enabled}). The procfs and sysfs files are constructed from their documented formats
 * (nvidia-fs's nvfs-proc.c prints {@code name: version}, kallsyms {@code address type name\t[module]}).
 */
public final class GdsFixtures {

    public static final String GDSCHECK = "/usr/local/cuda/gds/tools/gdscheck";
    /** The DESIGN.md example profile's gds section: passes on {@link #healthy}. */
    public static final String SPEC =
            "{\"gds\":{\"filesystems\":[\"gpfs\"],\"requireIommuDisabled\":true,\"requireNicGpuSameSwitch\":true}}";
    /** A spec that needs nvidia-fs to serve local NVMe: fails on {@link #backendNotRegistered}. */
    public static final String NVME_SPEC = "{\"gds\":{\"filesystems\":[\"nvme\"]}}";
    /** {@link #SPEC} with compat mode forbidden: fails on {@link #compatModeAllowed}. */
    public static final String STRICT_SPEC = "{\"gds\":{\"filesystems\":[\"gpfs\",\"nvme\",\"nvmeof\"],"
            + "\"requireIommuDisabled\":true,\"requireNicGpuSameSwitch\":true,\"forbidCompatMode\":true}}";

    public static final String GPU = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0";
    /** The switch's downstream ports above the GPU, mlx5_0 and mlx5_1. */
    public static final String GPU_PORT = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0";
    public static final String MLX5_0_PORT = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0";
    public static final String MLX5_1_PORT = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:02.0";
    static final String ACS_SAMPLE = "pcie/lspci-vvv-grep-acsctl_plx-switch-broken-and-working_setpci-f2a_nccl-issue304.txt";
    private static final String PLX_ACS_CAP = "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+";
    public static final String MLX5_0 = RdmaFixtures.MLX5_0_PCI;
    public static final String MLX5_1 = RdmaFixtures.MLX5_1_PCI;
    /** The GPU of {@link #crossSwitch}: same root complex, another root port and switch than the HCAs. */
    public static final String GPU_OTHER_SWITCH =
            "/sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0/0000:07:00.0/0000:08:00.0";

    static final String SAMPLE_1_16 = "gds/gdscheck-p_1.16.0.49_nvidia-doc-newformat.txt";
    static final String SAMPLE_NO_NVFS = "gds/gdscheck-p_1.15.0.42_l40s-vm-p2pdma.txt";
    static final String SAMPLE_GPFS_UNSUPPORTED = "gds/gdscheck-p_1.14.0.30_rtx6000x4-coyote2.txt";
    static final String SAMPLE_NVME_UNREGISTERED = "gds/gdscheck-p_1.7.1.12_nvme-unsupported_issue31.txt";

    private static final String CMDLINE = "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-5.14.0-570.25.1.el9_6.x86_64 "
            + "root=/dev/mapper/rhel-root ro crashkernel=1G-4G:192M,4G-64G:256M,64G-:512M rd.lvm.lv=rhel/root";

    /** A few kallsyms lines around the storage drivers: the GDS-enabled builds export the nvfs hooks. */
    private static final String KALLSYMS_GDS_ENABLED = """
            ffffffffc0a41000 t nvme_pci_complete_rq\t[nvme]
            ffffffffc0a43a20 T nvme_v1_register_nvfs_dma_ops\t[nvme]
            ffffffffc0a43a90 T nvme_v1_unregister_nvfs_dma_ops\t[nvme]
            ffffffffc0a4e0c8 r __ksymtab_nvme_v1_register_nvfs_dma_ops\t[nvme]
            ffffffffc0a4e0d4 r __ksymtab_nvme_v1_unregister_nvfs_dma_ops\t[nvme]
            ffffffffc0b10200 t nvme_rdma_queue_rq\t[nvme_rdma]
            ffffffffc0b12340 T nvme_rdma_v1_register_nvfs_dma_ops\t[nvme_rdma]
            ffffffffc0b123b0 T nvme_rdma_v1_unregister_nvfs_dma_ops\t[nvme_rdma]
            ffffffffc0c01000 t nvfs_blk_register_dma_ops\t[nvidia_fs]
            ffffffffc0c01340 t nvfs_mgroup_get\t[nvidia_fs]
            """;
    /** The distribution's nvme stack: the same drivers, no nvfs hooks. */
    private static final String KALLSYMS_STOCK = """
            ffffffffc0a41000 t nvme_pci_complete_rq\t[nvme]
            ffffffffc0a41580 t nvme_queue_rq\t[nvme]
            ffffffffc0b10200 t nvme_rdma_queue_rq\t[nvme_rdma]
            ffffffffc0c01000 t nvfs_blk_register_dma_ops\t[nvidia_fs]
            ffffffffc0c01340 t nvfs_mgroup_get\t[nvidia_fs]
            """;

    private GdsFixtures() {
    }

    /**
     * The recorded GDS 1.16 output (NVIDIA's documentation sample) made to match this node: NVMeOF is
     * served by nvfs because its nvme_rdma is registered (the sample's host had none), and the
     * effective compat mode is off as in this node's cufile.json. All else is as recorded.
     */
    public static String healthyGdscheck() {
        return replace(sample16WithNvmeofRegistered(), "properties.use_compat_mode : true", "properties.use_compat_mode : false");
    }

    /** Everything GDS needs: passes {@link #SPEC} and {@link #STRICT_SPEC}. */
    public static FixtureHost healthy(FixtureHost host) {
        host.tool(GDSCHECK).on("-p").prints(healthyGdscheck());
        host.file("/proc/driver/nvidia-fs/version", "version: 2.27\n");
        // wekafsio is a pseudo entry nvidia-fs always lists; the others registered at load
        host.file("/proc/driver/nvidia-fs/modules", "nvme: (null)\nnvme_rdma: (null)\nwekafsio: 1\n");
        host.file("/proc/kallsyms", KALLSYMS_GDS_ENABLED);
        host.file("/proc/cmdline", CMDLINE + " intel_iommu=off\n");
        host.mkdir("/sys/kernel/iommu_groups");
        host.file("/etc/cufile.json", cufileJson(false));
        pciFunction(host, GPU, "0x10de", "0x2335", "0x030200");
        RdmaFixtures.healthy(host);   // the HCAs whose PCIe place the topology check compares
        for (String port : List.of(GPU_PORT, MLX5_0_PORT, MLX5_1_PORT)) {
            host.bytes(port + "/config", switchPort(acsCtl(false)).bytes());
        }
        return host;
    }

    /** ACS redirect on mlx5_0's switch port (nccl#304's broken state): GPU and mlx5_0 still share the switch. */
    public static FixtureHost acsRedirect(FixtureHost host) {
        healthy(host);
        return host.bytes(MLX5_0_PORT + "/config", switchPort(acsCtl(true)).bytes());
    }

    /** The switch ports' config as a reader without CAP_SYS_ADMIN gets it: its first 64 bytes. */
    public static FixtureHost acsUnreadable(FixtureHost host) {
        healthy(host);
        for (String port : List.of(GPU_PORT, MLX5_0_PORT, MLX5_1_PORT)) {
            host.bytes(port + "/config", switchPort(acsCtl(false)).firstBytes(64));
        }
        return host;
    }

    /** nccl#304's ACSCtl line of the broken (ACS on) or the working state. */
    static String acsCtl(boolean broken) {
        String line = Samples.body(ACS_SAMPLE).lines().toList().get(broken ? 0 : 1);
        return line.substring(line.indexOf(':') + 1).strip();
    }

    /** A PLX switch downstream port (PCI Express capability at 0x68, AER at 0x100, ACS at 0xf24). */
    private static PciConfigSpace switchPort(String acsCtl) {
        return PciConfigSpace.bridge(0x10b5, 0x8747).standard(0x68, 0x10).extended(0x100, 0x0001, 1)
                .acs(0xf24, PLX_ACS_CAP, acsCtl);
    }

    /**
     * The IOMMU translates: booted with intel_iommu=on, IOMMU groups populated, gdscheck reporting it.
     * Constructed: the healthy output with PLATFORM INFO's and GPU INFO's IOMMU state flipped, as no
     * public gdscheck output with the IOMMU on was found.
     */
    public static FixtureHost iommuEnabled(FixtureHost host) {
        healthy(host);
        String output = replace(replace(healthyGdscheck(), "IOMMU: disabled", "IOMMU: enabled"),
                "IOMMU State: Disabled", "IOMMU State: Enabled");
        host.tool(GDSCHECK).on("-p").prints(output);
        host.file("/proc/cmdline", CMDLINE + " intel_iommu=on\n");
        for (int group = 0; group < 4; group++) {
            host.mkdir("/sys/kernel/iommu_groups/" + group + "/devices");
        }
        return host;
    }

    /**
     * gdscheck and the kernel disagree on the IOMMU: the healthy (recorded) gdscheck output says
     * "IOMMU: disabled", but the node was booted with intel_iommu=on, its IOMMU groups are populated
     * and /sys/class/iommu lists two DMAR units. Constructed from the healthy node's files.
     */
    public static FixtureHost iommuDisputed(FixtureHost host) {
        healthy(host);
        host.file("/proc/cmdline", CMDLINE + " intel_iommu=on\n");
        for (int group = 0; group < 12; group++) {
            host.mkdir("/sys/kernel/iommu_groups/" + group + "/devices");
        }
        host.mkdir("/sys/class/iommu/dmar0").mkdir("/sys/class/iommu/dmar1");
        return host;
    }

    /** nvidia-fs not loaded: the recorded GDS 1.15 output of a host without it (only NVMe P2PDMA works). */
    public static FixtureHost nvidiaFsMissing(FixtureHost host) {
        healthy(host);
        host.tool(GDSCHECK).on("-p").printsSample(SAMPLE_NO_NVFS);
        host.delete("/proc/driver/nvidia-fs");
        return host;
    }

    /** GPFS not served by GDS: the recorded GDS 1.14 output with "IBM Spectrum Scale : Unsupported". */
    public static FixtureHost filesystemUnsupported(FixtureHost host) {
        healthy(host);
        host.tool(GDSCHECK).on("-p").printsSample(SAMPLE_GPFS_UNSUPPORTED);
        return host;
    }

    /**
     * The distribution's nvme driver: it exports no nvfs hook, so nvidia-fs lists only its pseudo
     * entry and NVMe is Unsupported (the recorded output and the modules content of gds-nvidia-fs
     * issue 31). Fails {@link #NVME_SPEC}.
     */
    public static FixtureHost backendNotRegistered(FixtureHost host) {
        healthy(host);
        host.tool(GDSCHECK).on("-p").printsSample(SAMPLE_NVME_UNREGISTERED);
        host.file("/proc/driver/nvidia-fs/modules", "wekafsio: 1\n");
        host.file("/proc/kallsyms", KALLSYMS_STOCK);
        return host;
    }

    /** The GPU sits under another root port and switch than both HCAs: they meet only at the root complex. */
    public static FixtureHost crossSwitch(FixtureHost host) {
        healthy(host);
        host.delete("/sys/bus/pci/devices/0000:04:00.0");
        host.delete(GPU);
        pciFunction(host, GPU_OTHER_SWITCH, "0x10de", "0x2335", "0x030200");
        return host;
    }

    /** {@link #SPEC} with the data path verified: nvidia-fs's counters must show GDS I/O. */
    public static final String DATA_PATH_SPEC = "{\"gds\":{\"filesystems\":[\"gpfs\"],\"verifyDataPath\":true}}";
    static final String STATS = "/proc/driver/nvidia-fs/stats";
    static final String RW_STATS_ENABLED = "/sys/module/nvidia_fs/parameters/rw_stats_enabled";

    /** nvidia-fs with IO stats on, counting the reads and writes of a loaded NFS-over-RDMA client (recorded). */
    public static FixtureHost ioServed(FixtureHost host) {
        healthy(host);
        host.sampleFile(STATS, "gds/nvidia-fs-stats_v2.0_nfs-rdma-client_nvidia-doc.txt");
        host.file(RW_STATS_ENABLED, "1\n");
        return host;
    }

    /**
     * IO stats on, one GPU buffer mapped by cuFile, no read or write counted (recorded: gds-nvidia-fs
     * issue 46, whose cuFile I/O never reached nvidia-fs): fails {@link #DATA_PATH_SPEC} with CompatModeIo.
     */
    public static FixtureHost ioBypassed(FixtureHost host) {
        healthy(host);
        host.sampleFile(STATS, "gds/nvidia-fs-stats_v4.0_driver-2.20.5_io-stats-enabled_TABs_gds-issue46_fragment.txt");
        host.file(RW_STATS_ENABLED, "1\n");
        return host;
    }

    /** nvidia-fs's default, IO stats off (recorded 2.25.7 output): the data path cannot be told. */
    public static FixtureHost ioStatsDisabled(FixtureHost host) {
        healthy(host);
        host.sampleFile(STATS, "gds/nvidia-fs-stats_v4.0_driver-2.25.7.txt");
        host.file(RW_STATS_ENABLED, "0\n");
        return host;
    }

    /** GDS tools not installed: no gdscheck anywhere. */
    public static FixtureHost gdscheckMissing(FixtureHost host) {
        healthy(host);
        host.delete(GDSCHECK);
        return host;
    }

    /**
     * cufile.json as NVIDIA ships it, compat mode allowed; gdscheck shows it effective. Passes
     * {@link #SPEC}, fails {@link #STRICT_SPEC} (forbidCompatMode).
     */
    public static FixtureHost compatModeAllowed(FixtureHost host) {
        healthy(host);
        host.tool(GDSCHECK).on("-p").prints(sample16WithNvmeofRegistered());
        host.file("/etc/cufile.json", cufileJson(true));
        return host;
    }

    /**
     * An /etc/cufile.json in the shape of the shipped one: an object with {@code //} comment lines,
     * constructed from NVIDIA's documented parameters (most left at their defaults, so omitted).
     */
    public static String cufileJson(boolean allowCompatMode) {
        return """
                {
                    // Applications may name another file with CUFILE_ENV_PATH_JSON=<path>
                    "logging": {
                        // NOTICE|ERROR|WARN|INFO|DEBUG|TRACE
                        "level": "ERROR"
                    },
                    "profile": {
                        "nvtx": false,
                        "cufile_stats": 0
                    },
                    "properties": {
                        // chunk size of each I/O cuFile submits, in KiB (multiple of 64)
                        "max_direct_io_size_kb": 16384,
                        "max_device_cache_size_kb": 131072,
                        // true: fall back to POSIX reads and writes where GDS cannot serve a file
                        "allow_compat_mode": %s,
                        "gds_rdma_write_support": true,
                        //"rdma_dev_addr_list": [ "10.10.0.11" ],
                        "rdma_dynamic_routing": false
                    },
                    "fs": {
                        "gpfs": {
                            "gds_write_support": false
                        }
                    }
                }
                """.formatted(allowCompatMode);
    }

    private static String sample16WithNvmeofRegistered() {
        return replace(Samples.body(SAMPLE_1_16), "NVMeOF : compat", "NVMeOF : nvfs, compat");
    }

    /** A PCI function's identity files, and its /sys/bus/pci/devices link. */
    private static void pciFunction(FixtureHost host, String pciPath, String vendor, String device, String pciClass) {
        host.file(pciPath + "/vendor", vendor + "\n");
        host.file(pciPath + "/device", device + "\n");
        host.file(pciPath + "/class", pciClass + "\n");
        host.symlink("/sys/bus/pci/devices/" + lastComponent(pciPath), "../../.." + pciPath.substring("/sys".length()));
    }

    private static String lastComponent(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Replaces a line fragment that must be there: a changed sample fails loudly, not silently. */
    private static String replace(String text, String from, String to) {
        if (!text.contains(from)) {
            throw new IllegalStateException("fixture sample no longer contains '" + from + "'");
        }
        return text.replace(from, to);
    }
}
