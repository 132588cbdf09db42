package io.rdmastorage.probe.testing;

import io.rdmastorage.probe.host.ToolResult;
import java.time.Duration;

/** Tool runs as fact records for judge tests: what {@code ToolRunner} would have returned. */
public final class ToolResults {

    private ToolResults() {
    }

    /** Exited 0 with this output. */
    public static ToolResult printed(String command, String stdout) {
        return exited(command, 0, stdout, "");
    }

    public static ToolResult exited(String command, int exitCode, String stdout, String stderr) {
        return new ToolResult(tool(command), command, ToolResult.Ending.EXITED, exitCode, stdout, stderr, Duration.ofMillis(5));
    }

    public static ToolResult notFound(String command) {
        return new ToolResult(tool(command), command, ToolResult.Ending.NOT_FOUND, -1, "", "", Duration.ZERO);
    }

    public static ToolResult timedOut(String command) {
        return new ToolResult(tool(command), command, ToolResult.Ending.TIMED_OUT, -1, "", "", Duration.ofSeconds(30));
    }

    private static String tool(String command) {
        String first = command.split(" ")[0];
        return first.substring(first.lastIndexOf('/') + 1);
    }
}
