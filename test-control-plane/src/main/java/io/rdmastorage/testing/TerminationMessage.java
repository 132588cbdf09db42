package io.rdmastorage.testing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code state.terminated.message} a kubelet reports for a container, with its limits: the
 * last 4096 bytes of the termination-message file; with {@code FallbackToLogsOnError}, a failed
 * container that wrote no message gets the last 80 lines of its log, at most 2048 bytes.
 */
public final class TerminationMessage {

    public static final int MAX_FILE_BYTES = 4096;
    public static final int MAX_LOG_BYTES = 2048;
    public static final int MAX_LOG_LINES = 80;
    public static final String FALLBACK_TO_LOGS_ON_ERROR = "FallbackToLogsOnError";

    private TerminationMessage() {
    }

    public static String of(byte[] file, String policy, int exitCode, byte[] log) {
        byte[] message = tail(file, MAX_FILE_BYTES);
        if (message.length == 0 && exitCode != 0 && FALLBACK_TO_LOGS_ON_ERROR.equals(policy)) {
            message = tail(lastLines(log, MAX_LOG_LINES), MAX_LOG_BYTES);
        }
        return new String(message, StandardCharsets.UTF_8);
    }

    static byte[] tail(byte[] bytes, int max) {
        return bytes.length <= max ? bytes : Arrays.copyOfRange(bytes, bytes.length - max, bytes.length);
    }

    static byte[] lastLines(byte[] log, int lines) {
        int end = log.length;
        // a trailing newline ends the last line rather than starting an empty one
        int i = end > 0 && log[end - 1] == '\n' ? end - 2 : end - 1;
        int seen = 0;
        for (; i >= 0; i--) {
            if (log[i] == '\n' && ++seen == lines) {
                break;
            }
        }
        return Arrays.copyOfRange(log, i + 1, end);
    }
}
