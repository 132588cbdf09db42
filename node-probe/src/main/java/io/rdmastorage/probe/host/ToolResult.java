package io.rdmastorage.probe.host;

import java.time.Duration;

/**
 * What running one host tool gave.
 *
 * @param tool      the tool's name ({@code mmfsadm})
 * @param command   the argv as shown to people, host path first
 * @param ending    whether it ran, and how it ended
 * @param exitCode  the exit status when it {@link Ending#EXITED}, otherwise -1
 */
public record ToolResult(String tool, String command, Ending ending, int exitCode, String stdout, String stderr,
                         Duration elapsed) {

    /** How running a tool ended: by its own exit, or before (not found, killed, not started). */
    public enum Ending {
        /** The process ran and exited by itself. */
        EXITED,
        /** Not found in any usual place under the host root. */
        NOT_FOUND,
        /** Killed after the tool timeout. */
        TIMED_OUT,
        /** Could not be started (permissions, bad interpreter, chroot refused). */
        START_FAILED
    }

    /** How {@link #problem()} ends for a tool that is not on the host. */
    public static final String NOT_FOUND_PROBLEM = " not found under the host root";

    public boolean succeeded() {
        return ending == Ending.EXITED && exitCode == 0;
    }

    public boolean ran() {
        return ending == Ending.EXITED;
    }

    /**
     * One line saying what went wrong, for messages: "mmfsadm not found", "gdscheck -p timed out
     * after 30s", "mmdiag --network exited 1: mmdiag: GPFS is down".
     */
    public String problem() {
        return switch (ending) {
            case NOT_FOUND -> tool + NOT_FOUND_PROBLEM;
            case TIMED_OUT -> "'" + command + "' timed out after " + elapsed.toSeconds() + "s";
            case START_FAILED -> "'" + command + "' could not be started: " + firstLine(stderr);
            case EXITED -> exitCode == 0
                    ? "'" + command + "' succeeded"
                    : "'" + command + "' exited " + exitCode + firstLineSuffix(stderr.isBlank() ? stdout : stderr);
        };
    }

    private static String firstLineSuffix(String text) {
        String line = firstLine(text);
        return line.isEmpty() ? "" : ": " + line;
    }

    private static String firstLine(String text) {
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                String s = line.strip();
                return s.length() > 160 ? s.substring(0, 160) + "…" : s;
            }
        }
        return "";
    }
}
