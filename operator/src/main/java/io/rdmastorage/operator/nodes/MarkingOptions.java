package io.rdmastorage.operator.nodes;

import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.config.StartupTaint;

/**
 * Which node markings a profile asked for; each is opt-in. A marking that is switched off is
 * removed from the node on the next apply, so turning an option off cleans up after itself.
 *
 * @param label     label {@code rdmastorage.io/<profile>} = ready | not-ready | unknown
 * @param taint     taint {@code rdmastorage.io/<profile>=not-ready:NoSchedule} while the verdict is False
 * @param condition Node condition of type {@code rdmastorage.io/<profile>} mirroring the verdict
 * @param startup   the node's startup taint, lifted on True (put back on False when continuous); null for none
 */
public record MarkingOptions(boolean label, boolean taint, boolean condition, StartupTaint startup) {

    /** Nothing: applying it removes every marking of the profile. */
    public static final MarkingOptions NONE = new MarkingOptions(false, false, false);
    public static final MarkingOptions ALL = new MarkingOptions(true, true, true);

    /** Without a startup taint. */
    public MarkingOptions(boolean label, boolean taint, boolean condition) {
        this(label, taint, condition, null);
    }

    public static MarkingOptions of(ProfileSettings settings) {
        return new MarkingOptions(settings.nodeLabels(), settings.taintNotReady(), settings.nodeCondition(),
                settings.startupTaint());
    }

    /** The same without the node's own taint (its faulty devices are fenced instead). */
    public MarkingOptions withoutTaint() {
        return new MarkingOptions(label, false, condition, startup);
    }

    public boolean any() {
        return label || taint || condition || startup != null;
    }
}
