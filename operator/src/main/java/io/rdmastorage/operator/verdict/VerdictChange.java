package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.status.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A condition whose status moved: what the reconciler emits an Event and counts a metric for.
 * Reason or message changes alone are not changes (they do not move lastTransitionTime either).
 *
 * @param previousStatus the status before; null when the condition is new (first verdict, new check) or was
 *                       only waiting for its first measurement
 */
public record VerdictChange(String type, String previousStatus, String status, String reason, String message) {

    /**
     * The conditions of {@code next} whose status differs from their namesake in {@code previous},
     * in {@code next}'s order. A condition that appears for the first time counts when it says
     * something (True or False): a new Unknown (not probed yet) is no news. Conditions that
     * disappear (a check removed from the profile) are not changes either.
     */
    public static List<VerdictChange> between(List<Condition> previous, List<Condition> next) {
        Map<String, Condition> before = Conditions.byType(previous);
        List<VerdictChange> changes = new ArrayList<>();
        if (next == null) {
            return changes;
        }
        for (Condition c : next) {
            if (c.getType() == null || c.getStatus() == null) {
                continue;
            }
            Condition old = before.get(c.getType());
            // a condition that was only waiting (not probed, not measured, no fleet yet) had no verdict:
            // what it turns to now is its first, not a recovery
            String oldStatus = old == null || waiting(old) ? null : old.getStatus();
            boolean changed = oldStatus == null ? !Conditions.UNKNOWN.equals(c.getStatus()) : !oldStatus.equals(c.getStatus());
            if (changed) {
                changes.add(new VerdictChange(c.getType(), oldStatus, c.getStatus(), c.getReason(), c.getMessage()));
            }
        }
        return changes;
    }

    private static boolean waiting(Condition c) {
        return Conditions.UNKNOWN.equals(c.getStatus()) && UnknownCause.of(c.getReason()) == UnknownCause.AWAITING;
    }

    /** Node statuses; either may be null (no status yet). */
    public static List<VerdictChange> between(RdmaStorageNodeStatus previous, RdmaStorageNodeStatus next) {
        return between(previous == null ? null : previous.getConditions(), next == null ? null : next.getConditions());
    }

    /** Profile statuses; either may be null. */
    public static List<VerdictChange> between(RdmaStorageProfileStatus previous, RdmaStorageProfileStatus next) {
        return between(previous == null ? null : previous.getConditions(), next == null ? null : next.getConditions());
    }

    /** Good news (→ True): a Normal event; anything else is a Warning. */
    public boolean toTrue() {
        return Conditions.TRUE.equals(status);
    }

    public boolean isFirst() {
        return previousStatus == null;
    }

    /** {@code GpfsVerbs True → False (TcpFallback): <message>}, for an Event's note. */
    public String describe() {
        return type + " " + (previousStatus == null ? "" : previousStatus + " → ") + status + " (" + reason + "): "
                + message;
    }
}
