package io.rdmastorage.operator.events;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One condition of one node whose status moved, e.g. GpfsVerbs True → False.
 *
 * @param type    the condition type (Ready, RdmaDevices, GpfsVerbs, ...)
 * @param from    the previous status, null when the condition is new
 * @param to      the new status: True, False or Unknown
 * @param reason  the new condition's reason
 * @param message the new condition's message
 */
public record VerdictChange(String type, String from, String to, String reason, String message) {

    /** Whether the change is good news (→ True): a Normal event; anything else is a Warning. */
    public boolean toTrue() {
        return "True".equals(to);
    }

    /**
     * The status changes from one set of conditions to the next, in the order of {@code after}.
     * A condition that appears for the first time counts when it says something (True or False);
     * a new Unknown (not probed yet) is no news. Reason or message changes without a status change
     * are not verdict changes, and conditions that disappear (a check removed from the profile)
     * are not either.
     */
    public static List<VerdictChange> between(List<Condition> before, List<Condition> after) {
        Map<String, Condition> previous = before == null ? Map.of() : before.stream()
                .filter(c -> c.getType() != null)
                .collect(Collectors.toMap(Condition::getType, Function.identity(), (a, b) -> a));
        List<VerdictChange> changes = new ArrayList<>();
        if (after == null) {
            return changes;
        }
        for (Condition now : after) {
            if (now.getType() == null || now.getStatus() == null) {
                continue;
            }
            Condition then = previous.get(now.getType());
            boolean changed = then == null
                    ? !"Unknown".equals(now.getStatus())
                    : !now.getStatus().equals(then.getStatus());
            if (changed) {
                changes.add(new VerdictChange(now.getType(), then == null ? null : then.getStatus(),
                        now.getStatus(), now.getReason(), now.getMessage()));
            }
        }
        return changes;
    }
}
