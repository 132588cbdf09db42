package io.rdmastorage.operator.nodes;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.rdmastorage.operator.config.StartupTaint;

/**
 * What one profile wants on one node, derived from the node's verdict (its {@code Ready}
 * condition) and the profile's options. Pure: no clock, no API.
 *
 * @param key             {@code rdmastorage.io/<profile>}: label key, taint key and condition type
 * @param labelValue      the label's value, or null for no label
 * @param taint           the taint, or null for no taint
 * @param conditionStatus the Node condition's status (True/False/Unknown), or null for no condition
 * @param reason          the condition's reason (CamelCase), may be null
 * @param message         the condition's message, may be null
 * @param startup         what becomes of the node's startup taint; null to leave it as it is
 */
public record DesiredMarkings(String key, String labelValue, Taint taint,
                              String conditionStatus, String reason, String message, Startup startup) {

    /**
     * The node's startup taint of {@code key}: lifted (every taint of the key removed), or put back
     * as {@code put} when the node has none of that key.
     */
    public record Startup(String key, Taint put) {
        boolean lift() {
            return put == null;
        }
    }

    public static final String READY = "ready";
    public static final String NOT_READY = "not-ready";
    public static final String UNKNOWN = "unknown";
    public static final String TAINT_EFFECT = "NoSchedule";
    /** Node objects are read by every kubelet and scheduler: keep our share of them small. */
    public static final int MAX_MESSAGE_LENGTH = 1024;

    static final String NO_VERDICT_REASON = "NoVerdict";

    /**
     * @param verdict the node's {@code Ready} condition for this profile; null when the node has no
     *                verdict yet (treated as Unknown)
     */
    public static DesiredMarkings of(String profile, MarkingOptions options, Condition verdict) {
        String key = MarkingKey.of(profile);
        String status = normalisedStatus(verdict);
        String reason = verdict == null ? NO_VERDICT_REASON : verdict.getReason();
        String message = verdict == null ? "no probe result yet" : truncate(verdict.getMessage());

        String label = options.label() ? switch (status) {
            case "True" -> READY;
            case "False" -> NOT_READY;
            default -> UNKNOWN;
        } : null;
        // Only a verdict of False fences a node. Unknown means "could not tell" (not probed yet,
        // node NotReady or cordoned, probe timed out, result expired): fencing on that would taint
        // every node at start-up and every node the operator merely lost sight of.
        Taint taint = options.taint() && "False".equals(status)
                ? new TaintBuilder().withKey(key).withValue(NOT_READY).withEffect(TAINT_EFFECT).build()
                : null;
        return new DesiredMarkings(key, label, taint,
                options.condition() ? status : null,
                options.condition() ? reason : null,
                options.condition() ? message : null,
                startup(options.startup(), status));
    }

    /** True lifts the startup taint; False puts it back in a continuous gate; Unknown proves nothing either way. */
    private static Startup startup(StartupTaint gate, String status) {
        if (gate == null) {
            return null;
        }
        if ("True".equals(status)) {
            return new Startup(gate.key(), null);
        }
        return gate.continuous() && "False".equals(status)
                ? new Startup(gate.key(), new TaintBuilder().withKey(gate.key()).withValue(NOT_READY)
                        .withEffect(StartupTaint.EFFECT).build())
                : null;
    }

    /** The markings of nothing: what {@code remove} converges to (a startup taint is left as it is). */
    public static DesiredMarkings none(String profile) {
        return new DesiredMarkings(MarkingKey.of(profile), null, null, null, null, null, null);
    }

    private static String normalisedStatus(Condition verdict) {
        if (verdict == null) {
            return "Unknown";
        }
        String s = verdict.getStatus();
        return "True".equals(s) || "False".equals(s) ? s : "Unknown";
    }

    private static String truncate(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_LENGTH) {
            return message;
        }
        int end = MAX_MESSAGE_LENGTH - 3;
        if (Character.isHighSurrogate(message.charAt(end - 1))) {
            end--; // never split a surrogate pair
        }
        return message.substring(0, end) + "...";
    }
}
