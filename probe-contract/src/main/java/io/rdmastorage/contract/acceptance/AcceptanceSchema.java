package io.rdmastorage.contract.acceptance;

/**
 * The acceptance run's result document as it travels in the pod's termination message (at most
 * {@link io.rdmastorage.contract.ReportSchema#MAX_BYTES}): written by node-probe's
 * {@code acceptance} command, read by the operator. One entry per transport, in the spec's order,
 * each with one entry per {@link Workload} it completed.
 */
public final class AcceptanceSchema {

    public static final String KIND = "AcceptanceReport";

    public static final String F_API_VERSION = "apiVersion";
    public static final String F_KIND = "kind";
    public static final String F_NODE = "node";
    public static final String F_PROBE_VERSION = "probeVersion";
    public static final String F_FIO_VERSION = "fioVersion";
    public static final String F_STARTED_AT = "startedAt";
    public static final String F_DURATION_MILLIS = "durationMillis";
    /** True only when every transport was measured, each by its own transport, and cleanup succeeded. */
    public static final String F_COMPLETE = "complete";
    /** Why it is not complete: the first problem, with what to do. */
    public static final String F_MESSAGE = "message";
    public static final String F_TRANSPORTS = "transports";
    /** Controllers the probe connected and disconnected again (names as the kernel gave them). */
    public static final String F_DISCONNECTED = "disconnected";
    /**
     * What the run could not undo on its node (a controller left connected, its file left behind),
     * one entry per problem; empty when nothing is left. The operator keeps the run's record of
     * what it may have changed while this is not empty, and its cleanup pod undoes it from the journal.
     */
    public static final String F_CLEANUP_PROBLEMS = "cleanupProblems";

    // one entry of transports
    public static final String T_TRANSPORT = "transport";
    public static final String T_CONTROLLER = "controller";
    public static final String T_DEVICE = "device";
    /** True when the probe connected this controller for the run. */
    public static final String T_CONNECTED_BY_PROBE = "connectedByProbe";
    /** What the node's storage counters showed over the transport's workloads (RDMA packets, NVMe/TCP bytes). */
    public static final String T_TRAFFIC = "traffic";
    /** Present when the transport's numbers must not be compared: what went wrong. */
    public static final String T_PROBLEM = "problem";

    // one workload's numbers, under its Workload.field()
    public static final String W_IOPS = "iops";
    public static final String W_BYTES_PER_SECOND = "bytesPerSecond";
    public static final String W_P50_MICROS = "p50Micros";
    public static final String W_P99_MICROS = "p99Micros";
    public static final String W_P999_MICROS = "p999Micros";
    /** Host CPU over exactly the run, from /proc/stat: cores busy (all CPU time but idle, iowait, steal). */
    public static final String W_CORES_BUSY = "coresBusy";
    public static final String W_SOFT_PERCENT = "softPercent";
    public static final String W_SYS_PERCENT = "sysPercent";

    private AcceptanceSchema() {
    }
}
