package io.rdmastorage.contract.checks;

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
    public static final String GDSCHECK_NOT_FOUND = "GdscheckNotFound";
    /** The True reason, named as the condition type. */
    public static final String GDS_READY = "GdsReady";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("GdsReady", "gds", Measurement.NODE_PROBE, List.of(
            Reason.probe(GDS_READY, TRUE, "nvidia_fs loaded, IOMMU as required, filesystems served, topology as required"),
            Reason.probe(GDSCHECK_NOT_FOUND, FALSE, UNKNOWN, "gdscheck is not installed (False when the profile has a gds section)"),
            Reason.probe(NVIDIA_FS_MISSING, FALSE, "the nvidia_fs module is not loaded"),
            Reason.probe(IOMMU_ENABLED, FALSE, "the IOMMU is on: GDS bounces through host memory"),
            Reason.probe(BACKEND_NOT_REGISTERED, FALSE, "the storage driver exports no nvfs hooks: GDS silently runs in compat mode"),
            Reason.probe(FILESYSTEM_UNSUPPORTED, FALSE, "a required filesystem is not Supported in gdscheck -p"),
            Reason.probe(COMPAT_MODE_FORCED, FALSE, "cufile.json forces compat mode (POSIX I/O)"),
            Reason.probe(COMPAT_MODE_ALLOWED, FALSE, "cufile.json allows the silent POSIX fallback and forbidCompatMode is set"),
            Reason.probe(CROSS_SWITCH_TOPOLOGY, FALSE, "a GPU shares no PCIe switch with an RDMA NIC"),
            Reason.probe(IOMMU_STATE_UNKNOWN, UNKNOWN, "the IOMMU state cannot be told from gdscheck, sysfs or the kernel command line"),
            Reason.probe(BACKEND_REGISTRATION_UNKNOWN, UNKNOWN, "whether the storage driver registered with nvidia-fs cannot be told"),
            Reason.probe(TOPOLOGY_UNKNOWN, UNKNOWN, "the GPUs' and NICs' PCIe paths cannot be read"),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "gdscheck and the kernel contradict each other on the IOMMU "
                    + "or on nvidia_fs, and gdscheck does not show the problem")),
            Optional.of(PrinterColumn.conditionStatus("GDS", "GdsReady")));

    private GdsReady() {
    }
}
