package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.PrinterColumn;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.Reasons;
import java.util.List;
import java.util.Optional;

/** GPUDirect Storage moves data directly: nvidia-fs serves the filesystems, no IOMMU, no compat mode. */
public final class GdsReady {

    public static final String NVIDIA_FS_MISSING = "NvidiaFsMissing";
    public static final String IOMMU_ENABLED = "IommuEnabled";
    public static final String IOMMU_STATE_UNKNOWN = "IommuStateUnknown";
    public static final String BACKEND_NOT_REGISTERED = "BackendNotRegistered";
    public static final String BACKEND_REGISTRATION_UNKNOWN = "BackendRegistrationUnknown";
    public static final String FILESYSTEM_UNSUPPORTED = "FilesystemUnsupported";
    public static final String COMPAT_MODE_FORCED = "CompatModeForced";
    public static final String COMPAT_MODE_ALLOWED = "CompatModeAllowed";
    public static final String CROSS_SWITCH_TOPOLOGY = "CrossSwitchTopology";
    public static final String TOPOLOGY_UNKNOWN = "TopologyUnknown";
    public static final String PCIE_ACS_REDIRECT = "PcieAcsRedirect";
    public static final String PCIE_ACS_UNREADABLE = "PcieAcsUnreadable";
    public static final String GDSCHECK_NOT_FOUND = "GdscheckNotFound";
    public static final String USERSPACE_RDMA_UNSUPPORTED = "UserspaceRdmaUnsupported";
    public static final String RDMA_DEVICES_NOT_CONFIGURED = "RdmaDevicesNotConfigured";
    public static final String RDMA_DEVICES_DOWN = "RdmaDevicesDown";
    public static final String USERSPACE_RDMA_UNKNOWN = "UserspaceRdmaUnknown";
    public static final String NVFS_IO_ERRORS = "NvfsIoErrors";
    public static final String COMPAT_MODE_IO = "CompatModeIo";
    public static final String IO_STATS_DISABLED = "IoStatsDisabled";
    public static final String NO_GDS_IO = "NoGdsIo";
    public static final String NVFS_STATS_UNREADABLE = "NvfsStatsUnreadable";
    /** The True reason, named as the condition type. */
    public static final String GDS_READY = "GdsReady";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("GdsReady", "gds", Measurement.NODE_PROBE, List.of(
            Reason.probe(GDS_READY, TRUE, "nvidia_fs loaded, IOMMU as required, filesystems served, topology (and no ACS "
                    + "redirect between the pair) as required", NONE),
            Reason.probe(GDSCHECK_NOT_FOUND, FALSE, UNKNOWN, "gdscheck is not installed (False when the profile has a gds section)", FIX_CONFIG),
            Reason.probe(NVIDIA_FS_MISSING, FALSE, "the nvidia_fs module is not loaded", FIX_CONFIG),
            Reason.probe(IOMMU_ENABLED, FALSE, "the IOMMU is on: GDS bounces through host memory", FIX_CONFIG),
            Reason.probe(BACKEND_NOT_REGISTERED, FALSE, "the storage driver exports no nvfs hooks: GDS silently runs in compat mode", FIX_CONFIG),
            Reason.probe(FILESYSTEM_UNSUPPORTED, FALSE, "a required filesystem is not Supported in gdscheck -p", FIX_CONFIG),
            Reason.probe(COMPAT_MODE_FORCED, FALSE, "cufile.json forces compat mode (POSIX I/O)", FIX_CONFIG),
            Reason.probe(COMPAT_MODE_ALLOWED, FALSE, "cufile.json allows the silent POSIX fallback and forbidCompatMode is set", FIX_CONFIG),
            Reason.probe(CROSS_SWITCH_TOPOLOGY, FALSE, "a GPU shares no PCIe switch with an RDMA NIC, or (with verifyDataPath) "
                    + "nvidia-fs counted its peer-to-peer DMA crossing the root complex", FIX_CONFIG),
            Reason.probe(PCIE_ACS_REDIRECT, FALSE, "requireNicGpuSameSwitch: a PCIe bridge between a GPU and an RDMA NIC "
                    + "that share a switch has ACS P2P Request/Completion Redirect or Egress Control on (names the bridge and "
                    + "the pair): their DMA goes up through the root complex", FIX_CONFIG),
            Reason.probe(USERSPACE_RDMA_UNSUPPORTED, FALSE, "requireUserspaceRdma: gdscheck shows Userspace RDMA unsupported "
                    + "(libcufile_rdma not loaded)", FIX_CONFIG),
            Reason.probe(RDMA_DEVICES_NOT_CONFIGURED, FALSE, "requireUserspaceRdma: gdscheck shows rdma devices Not configured "
                    + "(cufile.json rdma_dev_addr_list empty)", FIX_CONFIG),
            Reason.probe(RDMA_DEVICES_DOWN, FALSE, "requireUserspaceRdma: gdscheck's rdma_device_status counts Down devices, or none Up", INVESTIGATE_NODE),
            Reason.probe(NVFS_IO_ERRORS, FALSE, "nvidia-fs counted failed GDS I/O (Reads/Writes/Bar1-map err=, Error line) "
                    + "since it was loaded or its stats were cleared", INVESTIGATE_NODE),
            Reason.probe(COMPAT_MODE_IO, FALSE, "verifyDataPath: cuFile mapped GPU buffers through nvidia-fs, but nvidia-fs "
                    + "served no read or write: the I/O went through compat mode", FIX_CONFIG),
            Reason.probe(IOMMU_STATE_UNKNOWN, UNKNOWN, "the IOMMU state cannot be told from gdscheck, sysfs or the kernel command line", NONE),
            Reason.probe(BACKEND_REGISTRATION_UNKNOWN, UNKNOWN, "whether the storage driver registered with nvidia-fs cannot be told", NONE),
            Reason.probe(TOPOLOGY_UNKNOWN, UNKNOWN, "the GPUs' and NICs' PCIe paths cannot be read, or a GPU shares no "
                    + "switch with the NICs found while a NIC rdma.devices names is not there", NONE),
            Reason.probe(PCIE_ACS_UNREADABLE, UNKNOWN, "requireNicGpuSameSwitch: the ACS control of a bridge between a GPU and "
                    + "a NIC cannot be read (a reader without CAP_SYS_ADMIN gets only the first 64 bytes of its config)", NONE),
            Reason.probe(USERSPACE_RDMA_UNKNOWN, UNKNOWN, "requireUserspaceRdma: gdscheck -p printed no Userspace RDMA rows", NONE),
            Reason.probe(IO_STATS_DISABLED, UNKNOWN, "verifyDataPath: nvidia-fs counts no reads or writes (rw_stats_enabled=0), "
                    + "so the data path cannot be told", NONE),
            Reason.probe(NO_GDS_IO, UNKNOWN, "verifyDataPath: no cuFile I/O since nvidia-fs was loaded or its stats cleared: "
                    + "an idle node proves nothing", NONE),
            Reason.probe(NVFS_STATS_UNREADABLE, UNKNOWN, "verifyDataPath: /proc/driver/nvidia-fs/stats cannot be read or parsed", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "gdscheck and the kernel contradict each other on the IOMMU "
                    + "or on nvidia_fs, and gdscheck does not show the problem; or nvidia-fs's stats and its "
                    + "rw_stats_enabled parameter disagree", INVESTIGATE_NODE)),
            Optional.of(PrinterColumn.conditionStatus("GDS", "GdsReady")));

    private GdsReady() {
    }
}
