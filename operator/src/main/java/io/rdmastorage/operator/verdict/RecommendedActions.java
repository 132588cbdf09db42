package io.rdmastorage.operator.verdict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.RecommendedAction;
import io.rdmastorage.contract.Status;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each check's condition of a verdict asks someone to do about the node: the
 * {@link RecommendedAction} its reason declares with its status, from the check's descriptor (its
 * own and the common reasons) or, for a reason the operator writes on any check, from
 * {@link Reasons#ON_CHECKS}. Written into {@code status.details[<type>].recommendedAction} beside
 * the probe's facts, so that remediation tools read one field instead of parsing reasons, and
 * counted by the {@code rdmastorage_node_recommended_action} metric. Derived from the conditions
 * alone: a verdict gets it again whenever its conditions are set, so it never disagrees with them.
 */
public final class RecommendedActions {

    /** The key of the action in a check's details. */
    public static final String FIELD = "recommendedAction";

    private RecommendedActions() {
    }

    /**
     * The action of a check's condition. A reason this operator does not declare with that status
     * (a newer probe's) recommends {@link RecommendedAction#INVESTIGATE_NODE} unless it is True: it
     * says something is wrong, not what.
     */
    public static RecommendedAction of(String type, String status, String reason) {
        Status s = Status.ofWire(Conditions.normalised(status)).orElseThrow();
        return declared(type, reason).map(r -> r.actions().get(s))
                .orElse(s == Status.TRUE ? RecommendedAction.NONE : RecommendedAction.INVESTIGATE_NODE);
    }

    /** Whether {@code c} is a check's condition (not Ready, not MatchesFleet): only those recommend an action. */
    public static boolean recommends(Condition c) {
        return c.getType() != null && CheckType.ofConditionType(c.getType()).isPresent();
    }

    /**
     * {@code details} with the action of each check's condition among {@code conditions} in its
     * entry (an entry of its own where the probe gave no facts), and none left in the entries of
     * types without a check's condition. Neither argument is modified; entries that already say
     * the right action are kept as they are.
     *
     * @param details the verdict's details; may be null
     */
    public static Map<String, JsonNode> inDetails(List<Condition> conditions, Map<String, JsonNode> details) {
        Map<String, JsonNode> result = new LinkedHashMap<>();
        if (details != null) {
            details.forEach((type, facts) -> result.put(type, withoutAction(facts)));
        }
        for (Condition c : conditions) {
            if (recommends(c)) {
                String action = of(c.getType(), c.getStatus(), c.getReason()).wire();
                JsonNode facts = details == null ? null : details.get(c.getType());
                result.put(c.getType(), facts != null && action.equals(facts.path(FIELD).textValue()) ? facts
                        : withAction(facts, action));
            }
        }
        result.values().removeIf(facts -> facts == null || facts.isObject() && facts.isEmpty());
        return result;
    }

    private static Optional<Reason> declared(String type, String reason) {
        Optional<Reason> declared = CheckType.ofConditionType(type).flatMap(t -> t.descriptor().reason(reason));
        return declared.isPresent() ? declared : Reasons.ON_CHECKS.stream().filter(r -> r.name().equals(reason)).findFirst();
    }

    private static JsonNode withAction(JsonNode facts, String action) {
        ObjectNode copy = facts instanceof ObjectNode object ? object.deepCopy() : JsonNodeFactory.instance.objectNode();
        copy.put(FIELD, action);
        return copy;
    }

    private static JsonNode withoutAction(JsonNode facts) {
        if (facts instanceof ObjectNode object && object.has(FIELD)) {
            ObjectNode copy = object.deepCopy();
            copy.remove(FIELD);
            return copy;
        }
        return facts;
    }
}
