package io.rdmastorage.operator.measurement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Whether two statuses would be written the same: compared as the JSON the API server would
 * receive, because the model classes have no equals and a write that changes nothing still costs
 * a request (and, for profiles, a watch event to every client). A verdict's {@code digest} is left
 * out: it is worked out from the rest when written, so a status built anew has none yet. Every
 * measurement kind's status write asks it first (profiles, verdicts, acceptance runs).
 */
public final class StatusComparison {

    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private StatusComparison() {
    }

    public static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        try {
            return withoutDigest(JSON.valueToTree(a)).equals(withoutDigest(JSON.valueToTree(b)));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static JsonNode withoutDigest(JsonNode tree) {
        if (tree instanceof ObjectNode object) {
            object.remove("digest");
        }
        return tree;
    }
}
