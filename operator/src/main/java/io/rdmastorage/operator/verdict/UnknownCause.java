package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.operator.status.Reasons;
import java.util.List;

/**
 * Why nodes are Unknown, as far as a profile's aggregate tells it: each cause has its own profile
 * reason, so a reader (Argo CD's health check, an alert) decides on the reason alone and never on
 * the wording of the message. Declared from the mildest to the worst; several unknown nodes give
 * the worst of their causes.
 */
public enum UnknownCause {

    /** Only NotReady, cordoned or acceptance-run nodes: verification is paused there until they are back. */
    PAUSED(Reasons.NODES_PAUSED),
    /** Nodes waiting for their first probe or verbs latency measurement: this ends by itself. */
    AWAITING(Reasons.NODES_AWAITING),
    /** Any other reason: a probe that went wrong, a result that expired, a probe that cannot tell. */
    TROUBLE(Reasons.NODES_UNKNOWN);

    private final String reason;

    UnknownCause(String reason) {
        this.reason = reason;
    }

    /** The profile condition's reason for nodes Unknown for this cause. */
    public String reason() {
        return reason;
    }

    /** The cause one node reason (of a check condition) stands for. */
    public static UnknownCause of(String reason) {
        if (Reasons.AWAITING_PROBE.equals(reason) || Reasons.AWAITING_MEASUREMENT.equals(reason)
                // MatchesFleet (with fleet.required) waiting for a second node's or this node's inventory facts
                || Reasons.FLEET_TOO_SMALL.equals(reason) || Reasons.INVENTORY_NOT_REPORTED.equals(reason)
                // RdmaPortErrors' first round (or first after a reboot): the next round has its baseline
                || RdmaPortErrors.NO_COUNTER_BASELINE.equals(reason)) {
            return AWAITING;
        }
        if (Reasons.NODE_NOT_READY.equals(reason) || Reasons.NODE_UNSCHEDULABLE.equals(reason)
                || Reasons.ACCEPTANCE_RUN_IN_PROGRESS.equals(reason)) {
            return PAUSED;
        }
        return TROUBLE;
    }

    /** The worst cause among a node's Unknown check conditions; none to tell by is trouble. */
    public static UnknownCause of(List<Condition> unknown) {
        UnknownCause worst = null;
        for (Condition c : unknown) {
            UnknownCause cause = of(c.getReason());
            worst = worst == null ? cause : worst.worse(cause);
        }
        return worst == null ? TROUBLE : worst;
    }

    public UnknownCause worse(UnknownCause other) {
        return other == null || compareTo(other) >= 0 ? this : other;
    }
}
