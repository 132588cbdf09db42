package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether one node is Ready for one profile, worked out from its check conditions: True only when
 * every judged type (every check the profile asks for) is True; False when any is False; else Unknown. A
 * judged type without a condition counts as Unknown ({@link Reasons#AWAITING_PROBE}: the node has not
 * been probed for that section yet, e.g. just after it was added to the profile). The node's own
 * {@code Ready} condition and the profile's aggregation both come from here, so they always agree.
 *
 * @param judged  the types that decide
 * @param falses  the judged conditions that are False, in judged order
 * @param unknown the judged conditions that are Unknown, in judged order
 */
public record NodeReadiness(String status, List<String> judged, List<Condition> falses, List<Condition> unknown) {

    public static NodeReadiness of(List<String> judged, List<Condition> conditions) {
        Map<String, Condition> byType = Conditions.byType(conditions);
        List<Condition> falses = new ArrayList<>(0);
        List<Condition> unknown = new ArrayList<>(0);
        for (String type : judged) {
            Condition c = byType.get(type);
            String status = c == null ? Conditions.UNKNOWN : Conditions.normalised(c.getStatus());
            if (status.equals(Conditions.FALSE)) {
                falses.add(c);
            } else if (status.equals(Conditions.UNKNOWN)) {
                unknown.add(c != null ? c : new Condition(null, "not probed yet for this check", null,
                        Reasons.AWAITING_PROBE, Conditions.UNKNOWN, type));
            }
        }
        String status = judged.isEmpty() || !unknown.isEmpty() && falses.isEmpty() ? Conditions.UNKNOWN
                : !falses.isEmpty() ? Conditions.FALSE : Conditions.TRUE;
        return new NodeReadiness(status, judged, falses, unknown);
    }

    /**
     * The node's {@code Ready} condition. Its message names the checks that are not True with their
     * reasons ({@code GpfsVerbs: TcpFallback; NvmeofRdma: TransportTcp}); when every check is Unknown
     * for one reason (a probe that timed out, a node not probed), Ready takes that reason and message.
     */
    public Condition readyCondition(long generation, Instant at) {
        if (judged.isEmpty()) {
            return Conditions.of(CheckTypes.READY, Conditions.UNKNOWN, Reasons.NO_CHECKS_CONFIGURED,
                    "the profile has no check section (rdma, gpfs, nvmeof, gds, latency, ceph): there is nothing "
                            + "to verify; add one to its spec", generation, at);
        }
        return switch (status) {
            case Conditions.TRUE -> Conditions.of(CheckTypes.READY, Conditions.TRUE, Reasons.ALL_CHECKS_PASSED,
                    String.join(", ", judged) + ": all True", generation, at);
            case Conditions.FALSE -> Conditions.of(CheckTypes.READY, Conditions.FALSE, Reasons.CHECKS_FAILED,
                    listing(true), generation, at);
            default -> sharedUnknown(generation, at);
        };
    }

    /**
     * What is wrong, for a profile's message: the False checks with their reasons, or for an Unknown
     * node the one reason all its Unknown checks share ({@code ProbeTimedOut}) or each with its own.
     */
    public String summary() {
        if (status.equals(Conditions.FALSE)) {
            List<String> parts = new ArrayList<>(falses.size());
            for (Condition c : falses) {
                parts.add(c.getType() + ": " + c.getReason());
            }
            return String.join("; ", parts);
        }
        if (judged.isEmpty()) {
            return Reasons.NO_CHECKS_CONFIGURED;
        }
        String shared = sharedReason();
        return shared != null ? shared : listing(false);
    }

    private Condition sharedUnknown(long generation, Instant at) {
        String reason = sharedReason();
        if (reason == null) {
            return Conditions.of(CheckTypes.READY, Conditions.UNKNOWN, Reasons.CHECKS_UNKNOWN, listing(false),
                    generation, at);
        }
        List<Condition> telling = telling();
        String message = telling.get(0).getMessage();
        for (Condition c : telling) {
            if (message == null || !message.equals(c.getMessage())) {
                message = listing(false);
                break;
            }
        }
        return Conditions.of(CheckTypes.READY, Conditions.UNKNOWN, reason, message, generation, at);
    }

    /**
     * Why the node is Unknown, for its profile's reason: told by the same checks as its Ready
     * reason, so a cordoned node's latency placeholder does not make it look merely waiting.
     */
    public UnknownCause unknownCause() {
        return UnknownCause.of(telling());
    }

    /** The reason every Unknown check shares, when the node is Unknown; null when they differ. */
    private String sharedReason() {
        List<Condition> telling = telling();
        if (telling.isEmpty()) {
            return null;
        }
        String reason = telling.get(0).getReason();
        for (Condition c : telling) {
            if (reason == null || !reason.equals(c.getReason())) {
                return null;
            }
        }
        return reason;
    }

    /**
     * The Unknown checks that say why the node is Unknown: a check that only awaits the first
     * measurement of its kind ({@link Reasons#AWAITING_MEASUREMENT}, the placeholder of a measurement
     * that follows the node's own probe) does not hide a shared reason such as ProbeTimedOut of all
     * the others, nor does a MatchesFleet that waits for inventory facts.
     */
    private List<Condition> telling() {
        List<Condition> others = unknown.stream()
                .filter(c -> !Reasons.AWAITING_MEASUREMENT.equals(c.getReason()) && !fleetAwaiting(c)).toList();
        return others.isEmpty() ? unknown : others;
    }

    /** A MatchesFleet that only waits for inventory facts (its own or a second node's): no reason of its own. */
    private static boolean fleetAwaiting(Condition c) {
        return FleetDistribution.MATCHES_FLEET.equals(c.getType()) && (Reasons.FLEET_TOO_SMALL.equals(c.getReason())
                || Reasons.INVENTORY_NOT_REPORTED.equals(c.getReason()));
    }

    /** {@code GpfsVerbs: TcpFallback; NvmeofRdma: TransportTcp}; Unknown ones marked when next to False ones. */
    private String listing(boolean markUnknown) {
        List<String> parts = new ArrayList<>(falses.size() + unknown.size());
        for (Condition c : falses) {
            parts.add(c.getType() + ": " + c.getReason());
        }
        for (Condition c : unknown) {
            parts.add(c.getType() + ": " + c.getReason() + (markUnknown && !falses.isEmpty() ? " (Unknown)" : ""));
        }
        return String.join("; ", parts);
    }
}
