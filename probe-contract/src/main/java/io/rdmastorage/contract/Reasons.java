package io.rdmastorage.contract;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;

import java.util.List;

/** Reasons every check may give when it cannot look or cannot tell; check-specific reasons live with their descriptor. */
public final class Reasons {

    public static final String TOOL_NOT_FOUND = "ToolNotFound";
    public static final String TOOL_TIMED_OUT = "ToolTimedOut";
    public static final String TOOL_FAILED = "ToolFailed";
    public static final String OUTPUT_UNPARSEABLE = "OutputUnparseable";
    public static final String CHECK_CRASHED = "CheckCrashed";
    /** A part of the host's file system the check reads (/sys, /proc, /etc) is not visible under the host root. */
    public static final String HOST_VIEW_MISSING = "HostViewMissing";
    /**
     * Two sources the verdict depends on contradict each other, and neither is known to be the
     * stronger: one name for every check that combines sources, declared by those checks.
     */
    public static final String SOURCES_DISAGREE = "SourcesDisagree";

    /** The reasons above, declared as every check's. */
    public static final List<Reason> COMMON = List.of(
            Reason.probe(TOOL_NOT_FOUND, Status.UNKNOWN, Status.FALSE,
                    "a host tool the check needs is not installed; False when the spec section requires what it proves", FIX_CONFIG),
            Reason.probe(TOOL_TIMED_OUT, Status.UNKNOWN, "a host tool ran past --tool-timeout (GPFS commands hang while mmfsd hangs)", INVESTIGATE_NODE),
            Reason.probe(TOOL_FAILED, Status.UNKNOWN, "a host tool could not start or exited with an error", INVESTIGATE_NODE),
            Reason.probe(OUTPUT_UNPARSEABLE, Status.UNKNOWN, "a host tool printed something node-probe cannot read: never a guess", NONE),
            Reason.probe(CHECK_CRASHED, Status.UNKNOWN, "a node-probe bug, reported instead of crashing the other checks", NONE),
            Reason.probe(HOST_VIEW_MISSING, Status.UNKNOWN, "the probe cannot see a part of the host's file system it reads "
                    + "(/sys or /proc absent or empty, /etc absent): mount the host's / with its submounts; nothing is fenced", NONE));

    private Reasons() {
    }
}
