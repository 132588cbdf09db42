package io.rdmastorage.operator.acceptance;

/** The condition types of an acceptance run and their reasons (docs/acceptance.md and docs/troubleshooting.md list them). */
public final class AcceptanceReasons {

    public static final String COMPLETE = "Complete";
    public static final String RDMA_EFFECTIVE = "RdmaEffective";

    // Complete
    /** True: every transport was measured by itself and the run cleaned up. */
    public static final String MEASURED = "Measured";
    public static final String WAITING_FOR_NODE = "WaitingForNode";
    public static final String RUNNING = "Running";
    /** The pod reported, but a transport was not measured (not connected, fio failed, shared multipath head). */
    public static final String INCOMPLETE = "Incomplete";
    public static final String TIMED_OUT = "TimedOut";
    /** The pod never ran, was lost, or ended without a readable report. */
    public static final String PROBE_FAILED = "ProbeFailed";
    public static final String NODE_NOT_FOUND = "NodeNotFound";
    public static final String INVALID_SPEC = "InvalidSpec";
    /** A path run's compareWith names no run it can be compared with (missing, not Succeeded, another node, directory or workload). */
    public static final String COMPARE_WITH_INVALID = "CompareWithInvalid";

    // RdmaEffective
    public static final String EFFECTIVE = "Effective";
    public static final String NOT_EFFECTIVE = "NotEffective";
    /** Unknown: not both transports have comparable numbers (yet). */
    public static final String NO_COMPARISON = "NoComparison";
    /** Unknown: a path run and the run it is compared with went over the same transport. */
    public static final String SAME_TRANSPORT = "SameTransport";

    public static final String PENDING = "Pending";
    public static final String PHASE_RUNNING = "Running";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";

    private AcceptanceReasons() {
    }
}
