package io.rdmastorage.operator.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.acceptance.CleanupSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the cleanup pod (node-probe {@code acceptance-cleanup}) reported in its termination message
 * ({@link CleanupSchema}), read without trust as {@link AcceptanceResult} reads the run's: anything
 * that is not such a document gives nothing, and texts are cleaned.
 *
 * @param complete     everything the run's journal recorded is undone (or was gone already)
 * @param disconnected controllers it disconnected
 * @param removed      files it removed
 * @param gone         what was recorded but already gone
 * @param problems     what it could not undo, each with the command to finish by hand
 */
record AcceptanceCleanupResult(boolean complete, List<String> disconnected, List<String> removed, List<String> gone,
                               List<String> problems) {

    static Optional<AcceptanceCleanupResult> parse(String terminationMessage) {
        JsonNode doc = AcceptanceResult.object(terminationMessage).orElse(null);
        if (doc == null || !CleanupSchema.KIND.equals(doc.path(CleanupSchema.F_KIND).asText())
                || !doc.path(CleanupSchema.F_COMPLETE).isBoolean()) {
            return Optional.empty();
        }
        return Optional.of(new AcceptanceCleanupResult(doc.get(CleanupSchema.F_COMPLETE).asBoolean(),
                texts(doc, CleanupSchema.F_DISCONNECTED), texts(doc, CleanupSchema.F_REMOVED), texts(doc, CleanupSchema.F_GONE),
                texts(doc, CleanupSchema.F_PROBLEMS)));
    }

    /** What it did, in words, for the condition and the Event. */
    String summary() {
        List<String> parts = new ArrayList<>();
        if (!disconnected.isEmpty()) {
            parts.add("disconnected " + String.join(", ", disconnected));
        }
        if (!removed.isEmpty()) {
            parts.add("removed " + String.join(", ", removed));
        }
        parts.addAll(gone);
        parts.addAll(problems);
        return parts.isEmpty() ? "nothing was left to undo" : String.join("; ", parts);
    }

    private static List<String> texts(JsonNode doc, String field) {
        List<String> texts = new ArrayList<>();
        doc.path(field).forEach(n -> texts.add(AcceptanceResult.text(n)));
        return texts;
    }
}
