package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.rdmastorage.operator.api.LabelSelectorSchema;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.nodes.MarkingKey;
import io.rdmastorage.operator.nodes.NodeAvailability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Which nodes a profile covers, and which node updates can change that ({@link NodeAvailability} says whether one can be measured now). */
public final class NodeSelection {

    private NodeSelection() {
    }

    /** Kubernetes label-selector semantics: every matchLabels entry and every expression must hold; empty = all. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        Map<String, String> nodeLabels = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(nodeLabels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                if (!holds(r, nodeLabels)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean holds(LabelSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (Objects.requireNonNullElse(r.getOperator(), "")) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;   // the API server validates operators; an unknown one matches nothing
        };
    }

    /**
     * What in a stored selector breaks the rules of the CRD's selector schema
     * ({@link LabelSelectorSchema}): each as the API server would name it, field path first. An
     * object admitted before those rules existed keeps them broken until someone edits it; it must
     * not be planned from (an expression without operator would select nothing, and every node's
     * verdict be forgotten), and saying which field breaks which rule is what lets the admin fix it.
     *
     * @param field the selector's path, such as {@code spec.nodeSelector}
     * @return empty when the selector keeps every rule (an absent one does)
     */
    public static List<String> problems(LabelSelector selector, String field) {
        if (selector == null || selector.getMatchExpressions() == null) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        for (int i = 0; i < expressions.size(); i++) {
            LabelSelectorRequirement r = expressions.get(i);
            String at = field + ".matchExpressions[" + i + "]";
            if (r == null) {
                problems.add(at + ": Required value: an expression with key and operator");
                continue;
            }
            if (r.getKey() == null || r.getKey().isEmpty()) {
                problems.add(at + ".key: Required value");
            }
            String operator = r.getOperator();
            boolean listed = operator != null && OPERATORS.contains(operator);
            if (operator == null) {
                problems.add(at + ".operator: Required value: one of " + String.join(", ", OPERATORS));
            } else if (!listed) {
                problems.add(at + ".operator: Unsupported value: \"" + operator + "\": supported values: "
                        + String.join(", ", OPERATORS));
            }
            boolean needsValues = "In".equals(operator) || "NotIn".equals(operator);
            boolean hasValues = r.getValues() != null && !r.getValues().isEmpty();
            if (listed && needsValues != hasValues) {
                problems.add(at + ": values must be " + (needsValues ? "non-empty" : "empty") + " for operator "
                        + operator + " (rule: " + LabelSelectorSchema.VALUES_RULE + ")");
            }
        }
        return problems;
    }

    private static final List<String> OPERATORS = Arrays.stream(LabelSelectorSchema.Operator.values())
            .map(Enum::name).toList();

    /**
     * Whether a node update can change what profiles do with it: its labels (other than the
     * verdict labels we set ourselves, which would only echo our own writes), readiness, cordon.
     * Kubelet heartbeats change none of these and are ignored. Only the keys of existing
     * profiles ({@link MarkingKey#of}) are ours: a user's {@code rdmastorage.io/tier} may be what
     * a profile selects on.
     *
     * @param profiles the names of the profiles there are, whose marking keys this operator writes
     */
    public static boolean relevantChange(Node before, Node after, Set<String> profiles) {
        return !Objects.equals(foreignLabels(before, profiles), foreignLabels(after, profiles))
                || !NodeAvailability.whyNotMeasurable(before).equals(NodeAvailability.whyNotMeasurable(after));
    }

    /**
     * As {@link #relevantChange(Node, Node, Set)}, and also a change of our own verdict labels
     * that moves the node into or out of a profile's selection: a profile may select nodes by
     * another profile's verdict ({@code rdmastorage.io/gpfs: ready}), and the operator's own label
     * write is then the only event there is for it. A verdict label that no selector looks at stays
     * an echo and is ignored.
     *
     * @param profiles the profiles there are
     */
    public static boolean relevantToProfiles(Node before, Node after, Collection<RdmaStorageProfile> profiles) {
        Set<String> names = new HashSet<>();
        profiles.forEach(p -> names.add(p.getMetadata().getName()));
        // a selection can only move with the labels; heartbeats, most node updates, change none
        return relevantChange(before, after, names)
                || !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())
                        && profiles.stream().anyMatch(p -> selects(p, before) != selects(p, after));
    }

    /** Whether the profile selects the node, or the node is one of its latency reference nodes; false for a broken selector. */
    private static boolean selects(RdmaStorageProfile profile, Node node) {
        RdmaStorageProfileSpec spec = profile.getSpec();
        if (spec == null) {
            return false;
        }
        Map<String, String> labels = node.getMetadata().getLabels();
        LabelSelector reference = spec.getLatency() == null ? null : spec.getLatency().getReferenceNodeSelector();
        return matches(spec.getNodeSelector(), labels) || reference != null && matches(reference, labels);
    }

    private static Map<String, String> foreignLabels(Node node, Set<String> profiles) {
        Map<String, String> labels = node.getMetadata().getLabels();
        if (labels == null) {
            return Map.of();
        }
        Map<String, String> foreign = new HashMap<>(labels);
        foreign.keySet().removeIf(key -> key.startsWith(MarkingKey.PREFIX)
                && profiles.contains(key.substring(MarkingKey.PREFIX.length())));
        return foreign;
    }
}
