package io.rdmastorage.contract;

import java.util.List;

/** Reasons every check may give when it cannot look; check-specific reasons live with their descriptor. */
public final class Reasons {

    public static final String TOOL_NOT_FOUND = "ToolNotFound";
    public static final String TOOL_TIMED_OUT = "ToolTimedOut";
    public static final String TOOL_FAILED = "ToolFailed";
    public static final String OUTPUT_UNPARSEABLE = "OutputUnparseable";
    public static final String CHECK_CRASHED = "CheckCrashed";

    /** The reasons above, declared as every check's. */
    public static final List<Reason> COMMON = List.of(
            Reason.probe(TOOL_NOT_FOUND, Status.UNKNOWN, Status.FALSE,
                    "a host tool the check needs is not installed; False when the spec section requires what it proves"),
            Reason.probe(TOOL_TIMED_OUT, Status.UNKNOWN, "a host tool ran past --tool-timeout (GPFS commands hang while mmfsd hangs)"),
            Reason.probe(TOOL_FAILED, Status.UNKNOWN, "a host tool could not start or exited with an error"),
            Reason.probe(OUTPUT_UNPARSEABLE, Status.UNKNOWN, "a host tool printed something node-probe cannot read: never a guess"),
            Reason.probe(CHECK_CRASHED, Status.UNKNOWN, "a node-probe bug, reported instead of crashing the other checks"));

    private Reasons() {
    }
}
