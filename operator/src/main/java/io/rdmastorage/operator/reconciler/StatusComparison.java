package io.rdmastorage.operator.reconciler;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Whether two statuses would be written the same: compared as the JSON the API server would
 * receive, because the model classes have no equals and a write that changes nothing still costs
 * a request (and, for profiles, a watch event to every client).
 */
final class StatusComparison {

    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private StatusComparison() {
    }

    static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        try {
            return JSON.valueToTree(a).equals(JSON.valueToTree(b));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
