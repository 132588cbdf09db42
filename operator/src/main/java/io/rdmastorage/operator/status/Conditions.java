package io.rdmastorage.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Conditions as the Kubernetes API conventions want them: {@code lastTransitionTime} moves only
 * when {@code status} moves (GitOps tools diff status; a message or reason update is not a
 * transition), and each condition says which generation it describes.
 */
public final class Conditions {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    private Conditions() {
    }

    public static Condition of(String type, String status, String reason, String message, long observedGeneration,
                               Instant at) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withObservedGeneration(observedGeneration)
                .withLastTransitionTime(Timestamps.format(at))
                .build();
    }

    /**
     * {@code c} as Unknown {@link Reasons#RESULT_EXPIRED} with {@code message}: its result is too old to
     * count. A condition that was Unknown already keeps its {@code lastTransitionTime}.
     */
    public static Condition expired(Condition c, String message, Instant now) {
        boolean moves = !UNKNOWN.equals(c.getStatus()) || c.getLastTransitionTime() == null;
        return new ConditionBuilder(c)
                .withStatus(UNKNOWN)
                .withReason(Reasons.RESULT_EXPIRED)
                .withMessage(message)
                .withLastTransitionTime(moves ? Timestamps.format(now) : c.getLastTransitionTime())
                .build();
    }

    /**
     * The conditions of {@code next}, in its order, each with {@code observedGeneration} set and with
     * the {@code lastTransitionTime} of its {@code previous} namesake when the status is the same;
     * {@code now} when the status changed or the type is new. Types only in {@code previous} are
     * dropped (their check left the profile). Neither list is modified.
     *
     * @param previous the conditions now stored; null when there are none
     */
    public static List<Condition> merge(List<Condition> previous, List<Condition> next, Instant now,
                                        long observedGeneration) {
        Map<String, Condition> before = byType(previous);
        String nowText = Timestamps.format(now);
        List<Condition> merged = new ArrayList<>(next.size());
        for (Condition c : next) {
            Condition old = before.get(c.getType());
            boolean unchanged = old != null && old.getStatus() != null && old.getStatus().equals(c.getStatus())
                    && old.getLastTransitionTime() != null;
            merged.add(new ConditionBuilder(c)
                    .withObservedGeneration(observedGeneration)
                    .withLastTransitionTime(unchanged ? old.getLastTransitionTime() : nowText)
                    .build());
        }
        return merged;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        if (conditions != null) {
            for (Condition c : conditions) {
                if (type.equals(c.getType())) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /** The status of the condition of that type; Unknown when there is none or it is not True/False. */
    public static String statusOf(List<Condition> conditions, String type) {
        return find(conditions, type).map(Condition::getStatus).map(Conditions::normalised).orElse(UNKNOWN);
    }

    /** True or False as they are; anything else (null, a typo in a hand-edited status) is Unknown. */
    public static String normalised(String status) {
        return TRUE.equals(status) || FALSE.equals(status) ? status : UNKNOWN;
    }

    public static Map<String, Condition> byType(List<Condition> conditions) {
        Map<String, Condition> map = new HashMap<>();
        if (conditions != null) {
            for (Condition c : conditions) {
                if (c.getType() != null) {
                    map.putIfAbsent(c.getType(), c);
                }
            }
        }
        return map;
    }
}
