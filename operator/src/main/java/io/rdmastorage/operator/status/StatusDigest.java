package io.rdmastorage.operator.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.Sha256;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How the operator records what it wrote to a status, for every kind whose status it must not
 * trust once someone else edited it (a node's verdict, an acceptance run): a SHA-256 over the
 * parts the operator decides by, as JSON (strings quoted, so no two different lists give the same
 * text). What each kind puts in: {@code VerdictDigest}, {@code AcceptanceDigest}.
 */
public final class StatusDigest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatusDigest() {
    }

    public static String of(List<Object> parts) {
        try {
            return Sha256.hex(JSON.writeValueAsString(parts));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("strings and numbers always serialize", e);
        }
    }

    /** Each condition as a part: everything the API server stores of it. */
    public static List<Object> conditions(List<Condition> conditions) {
        List<Object> parts = new ArrayList<>();
        for (Condition c : conditions == null ? List.<Condition>of() : conditions) {
            parts.add(Arrays.asList(c.getType(), c.getStatus(), c.getReason(), c.getMessage(),
                    c.getObservedGeneration(), c.getLastTransitionTime()));
        }
        return parts;
    }
}
