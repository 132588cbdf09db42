package io.rdmastorage.operator.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Map;

/**
 * One copy of the texts that thousands of cached objects hold alike: a healthy fleet's verdicts
 * carry the same condition messages, reasons and facts on every node, and its Nodes the same
 * label values (architecture, instance type, zone, GPU product). The JSON parser makes a string
 * per field of each object; {@link String#intern()} keeps one per distinct text. The JVM's table of
 * interned strings holds them weakly: a text that no cached object holds any more is collected.
 * Only for values kept for long and read, never written to: the replacement is equal, not the same.
 */
public final class SharedTexts {

    private SharedTexts() {
    }

    public static String of(String text) {
        return text == null ? null : text.intern();
    }

    /** Replaces each value of {@code map} by its shared copy (the keys are the parser's own shared names). */
    public static <M extends Map<String, String>> M values(M map) {
        if (map != null) {
            map.replaceAll((key, value) -> of(value));
        }
        return map;
    }

    public static void conditions(List<Condition> conditions) {
        if (conditions == null) {
            return;
        }
        for (Condition c : conditions) {
            c.setType(of(c.getType()));
            c.setStatus(of(c.getStatus()));
            c.setReason(of(c.getReason()));
            c.setMessage(of(c.getMessage()));
            c.setLastTransitionTime(of(c.getLastTransitionTime()));
        }
    }

    /** {@code json} with every text in it shared: objects and arrays changed in place, a text replaced. */
    public static JsonNode json(JsonNode json) {
        if (json instanceof TextNode text) {
            return TextNode.valueOf(of(text.textValue()));
        }
        if (json instanceof ObjectNode object) {
            object.properties().forEach(field -> field.setValue(json(field.getValue())));
        } else if (json instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, json(array.get(i)));
            }
        }
        return json;
    }
}
