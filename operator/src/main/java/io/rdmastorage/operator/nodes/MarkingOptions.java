package io.rdmastorage.operator.nodes;

import io.rdmastorage.operator.config.ProfileSettings;

/**
 * Which node markings a profile asked for; each is opt-in. A marking that is switched off is
 * removed from the node on the next apply, so turning an option off cleans up after itself.
 *
 * @param label     label {@code rdmastorage.io/<profile>} = ready | not-ready | unknown
 * @param taint     taint {@code rdmastorage.io/<profile>=not-ready:NoSchedule} while the verdict is False
 * @param condition Node condition of type {@code rdmastorage.io/<profile>} mirroring the verdict
 */
public record MarkingOptions(boolean label, boolean taint, boolean condition) {

    /** Nothing: applying it removes every marking of the profile. */
    public static final MarkingOptions NONE = new MarkingOptions(false, false, false);
    public static final MarkingOptions ALL = new MarkingOptions(true, true, true);

    public static MarkingOptions of(ProfileSettings settings) {
        return new MarkingOptions(settings.nodeLabels(), settings.taintNotReady(), settings.nodeCondition());
    }

    public boolean any() {
        return label || taint || condition;
    }
}
