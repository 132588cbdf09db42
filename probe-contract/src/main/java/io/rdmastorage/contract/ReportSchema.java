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
     * the {@link #HANDED_ON_DETAILS} the check had.
     */
    public static final String DETAILS_OMITTED = "detailsOmitted";
    /**
     * Details the operator hands to the node's next probe (RdmaPortErrors' counter reading): kept
     * when the rest of a check's details is dropped, since losing them costs the next round its
     * comparison. Small by design.
     */
    public static final Set<String> HANDED_ON_DETAILS = Set.of(RdmaPortErrors.BASELINE_DETAIL);

    private ReportSchema() {
    }
}
