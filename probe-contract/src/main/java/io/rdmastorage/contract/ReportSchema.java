package io.rdmastorage.contract;

import io.rdmastorage.contract.checks.RdmaPortErrors;
import java.util.Set;

/**
 * node-probe's report as it travels in a pod termination message: its version, its size limit and
 * its field names, written by node-probe's ReportJson and read by the operator's ProbeReports.
 */
public final class ReportSchema {

    public static final String API_VERSION = "rdmastorage.io/v1alpha1";
    public static final String KIND = "NodeProbeReport";
    /** Kubernetes keeps at most 4096 bytes of a container's termination message (the last ones of the file). */
    public static final int MAX_BYTES = 4096;

    // the document, in this order
    public static final String F_API_VERSION = "apiVersion";
    public static final String F_KIND = "kind";
    public static final String F_NODE = "node";
    public static final String F_PROBE_VERSION = "probeVersion";
    public static final String F_STARTED_AT = "startedAt";
    public static final String F_DURATION_MILLIS = "durationMillis";
    /** The worst check status: True only when every check is True (and there is one). */
    public static final String F_STATUS = "status";
    public static final String F_CHECKS = "checks";
    /** The node's inventory facts ({@link InventoryFact}): key → short string; always kept whole. */
    public static final String F_INVENTORY = "inventory";

    // one entry of checks, in this order
    public static final String C_TYPE = "type";
    public static final String C_STATUS = "status";
    public static final String C_REASON = "reason";
    public static final String C_MESSAGE = "message";
    /** The measured facts: JSON-friendly values only. */
    public static final String C_DETAILS = "details";
    /**
     * In details: they were dropped to keep the report under {@link #MAX_BYTES}; alone, or beside
     * the {@link #KEPT_DETAILS} the check had.
     */
    public static final String DETAILS_OMITTED = "detailsOmitted";
    /**
     * In details: the RDMA devices a False verdict is about, where a problem is one device's (its
     * port is down, its firmware logged a fatal error, its error counters grew, its rail idles): a
     * list of objects with {@link #FD_DEVICE}, {@link #FD_PCI_ADDRESS}, {@link #FD_NETDEVS} and
     * {@link #FD_REASONS}. The operator fences these devices one by one (a DRA DeviceTaintRule)
     * instead of the node. Absent when no False finding names a device.
     */
    public static final String FAULTY_DEVICES = "faultyDevices";
    /** The RDMA device's name, {@code mlx5_2}. */
    public static final String FD_DEVICE = "device";
    /** Its PCIe function, {@code 0006:03:00.0}; absent when sysfs does not show it. */
    public static final String FD_PCI_ADDRESS = "pciAddress";
    /** Its netdevs ({@code enP6p3s0f0np0}); absent when it has none. */
    public static final String FD_NETDEVS = "netdevs";
    /** The reasons of the False findings about it. */
    public static final String FD_REASONS = "reasons";
    /**
     * In details, beside {@link #FAULTY_DEVICES}: true when some False finding is no one device's (a
     * setting, the fabric), so fencing the faulty devices does not make the node fit for storage.
     */
    public static final String FAULTS_BEYOND_DEVICES = "faultsBeyondDevices";

    /**
     * Details kept when the rest of a check's details is dropped to keep the report under
     * {@link #MAX_BYTES}, both small by design and read by the operator: RdmaPortErrors' counter
     * reading, which it hands to the node's next probe (losing it costs the next round its
     * comparison), and the faulty devices it fences.
     */
    public static final Set<String> KEPT_DETAILS = Set.of(RdmaPortErrors.BASELINE_DETAIL, FAULTY_DEVICES,
            FAULTS_BEYOND_DEVICES);

    private ReportSchema() {
    }
}
