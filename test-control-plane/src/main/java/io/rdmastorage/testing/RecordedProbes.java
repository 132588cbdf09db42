package io.rdmastorage.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * An opt-in shortcut for benchmarks ({@link SimulatedCluster.Builder#recordedProbes}): node-probe
 * really runs once per recording key (host root, arguments with the node's name and the pod's
 * scratch directory left out, and the spec file's content), and every later probe container with
 * the same key gets that run's exit code and termination message, with the report's {@code node}
 * and {@code startedAt} set to its own node and time. A thousand nodes sharing one fixture host
 * then cost one probe run, not a thousand; what the operator receives has the same shape and size.
 */
final class RecordedProbes {

    /** One probe container's result, as its kubelet reports it. */
    record Recorded(int exitCode, String message) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, FutureTask<Recorded>> recordings = new ConcurrentHashMap<>();

    /**
     * The recording for {@code key}, running {@code probe} to make it if there is none yet; callers
     * with the same key wait for the one run. A run that failed is forgotten and this caller's
     * container runs the probe itself.
     */
    Recorded answer(String key, Callable<Recorded> probe) throws Exception {
        FutureTask<Recorded> task = new FutureTask<>(probe);
        FutureTask<Recorded> existing = recordings.putIfAbsent(key, task);
        if (existing == null) {
            task.run();
            existing = task;
        }
        try {
            return existing.get();
        } catch (ExecutionException e) {
            recordings.remove(key, existing);
            return probe.call();
        }
    }

    /**
     * {@code message} as node {@code node}'s own report started at {@code startedAt}; a message that
     * is not a JSON report with a {@code node} field (a failure's log, say) is returned as it is.
     */
    static String forNode(String message, String node, Instant startedAt) {
        if (message == null || message.isEmpty() || message.charAt(0) != '{') {
            return message;
        }
        try {
            JsonNode tree = JSON.readTree(message);
            if (!(tree instanceof ObjectNode report) || !report.path("node").isTextual()) {
                return message;
            }
            report.put("node", node);
            if (report.has("startedAt")) {
                report.put("startedAt", startedAt.truncatedTo(ChronoUnit.SECONDS).toString());
            }
            return JSON.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            return message;
        }
    }
}
