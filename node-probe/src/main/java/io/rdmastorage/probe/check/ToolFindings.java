package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ToolResult;

/**
 * Turns a tool that could not answer into a finding, the same way for every check: Unknown when
 * we only wanted to look, False when the spec requires what the tool would have proven. The
 * command goes into the finding's details.
 */
public final class ToolFindings {

    private ToolFindings() {
    }

    /**
     * @param required  the spec section requires this tool's answer
     * @param fix       what an administrator should do, ending the message
     */
    public static Finding cannotTell(ToolResult result, boolean required, String fix) {
        String reason = switch (result.ending()) {
            case NOT_FOUND -> Reasons.TOOL_NOT_FOUND;
            case TIMED_OUT -> Reasons.TOOL_TIMED_OUT;
            case START_FAILED, EXITED -> Reasons.TOOL_FAILED;
        };
        Status status = required && result.ending() == ToolResult.Ending.NOT_FOUND ? Status.FALSE : Status.UNKNOWN;
        return Finding.of(status, reason, result.problem() + ". " + fix).withDetail("command", result.command());
    }

    /** The tool ran but printed something we do not understand: never guess, say so. */
    public static Finding unparseable(ToolResult result, String expected) {
        return Finding.of(Status.UNKNOWN, Reasons.OUTPUT_UNPARSEABLE,
                        "'" + result.command() + "' printed output that is not " + expected
                                + "; run it by hand and report the output if the tool is healthy")
                .withDetail("command", result.command())
                .withDetail("outputHead", head(result.stdout()));
    }

    private static String head(String output) {
        String s = output.strip();
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
