package io.rdmastorage.probe.check;

/** Reasons every check may give when it cannot look or cannot tell; check-specific reasons live with their check. */
public final class Reasons {

    public static final String TOOL_NOT_FOUND = "ToolNotFound";
    public static final String TOOL_TIMED_OUT = "ToolTimedOut";
    public static final String TOOL_FAILED = "ToolFailed";
    public static final String OUTPUT_UNPARSEABLE = "OutputUnparseable";
    public static final String CHECK_CRASHED = "CheckCrashed";
    /** A part of the host's file system the check reads (/sys, /proc, /etc) is not visible under the host root. */
    public static final String HOST_VIEW_MISSING = "HostViewMissing";
    /** Two sources the verdict depends on contradict each other, and neither is known to be the stronger. */
    public static final String SOURCES_DISAGREE = "SourcesDisagree";

    private Reasons() {
    }
}
