package io.rdmastorage.probe.check;

/** Reasons every check may give when it cannot look; check-specific reasons live with their check. */
public final class Reasons {

    public static final String TOOL_NOT_FOUND = "ToolNotFound";
    public static final String TOOL_TIMED_OUT = "ToolTimedOut";
    public static final String TOOL_FAILED = "ToolFailed";
    public static final String OUTPUT_UNPARSEABLE = "OutputUnparseable";
    public static final String CHECK_CRASHED = "CheckCrashed";

    private Reasons() {
    }
}
