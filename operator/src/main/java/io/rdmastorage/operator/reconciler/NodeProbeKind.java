package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.VerdictKind;
import io.rdmastorage.operator.verdict.VerdictPart;
import java.time.Instant;
import java.util.Optional;

/**
 * The node's own probe as a kind of measurement: one probe pod on the node per round, numbered by
 * {@code probeRound} and dated by {@code lastProbeTime} in the verdict, whose node-probe part it
 * writes; a round every interval, a result that counts for 3 × interval.
 *
 * @param generation the generation the result is judged against (the profile's when planning, the
 *                   verdict's own when a failed reconcile expires it)
 */
record NodeProbeKind(ProfileSettings settings, long generation) implements VerdictKind {

    @Override
    public VerdictPart part() {
        return VerdictPart.NODE_PROBE;
    }

    @Override
    public Lifecycle.Last last(RdmaStorageNodeStatus status) {
        if (status == null) {
            return Lifecycle.Last.NONE;
        }
        // a verdict an acceptance run holds keeps its last probe's time for its markings' expiry
        // (ProfilePlan.Marking), but measured nothing itself: the node is due once the hold ends
        boolean held = ProfilePlan.Marking.heldForAcceptance(status);
        return new Lifecycle.Last(status.getProbeRound() == null ? 0 : status.getProbeRound(),
                status.getLastProbeTime() == null || held ? Optional.empty() : Timestamps.parse(status.getLastProbeTime()),
                held ? Optional.empty() : NodeVerdicts.expiresAt(status, settings.expiry()),
                status.getObservedGeneration() != null && status.getObservedGeneration() == generation,
                saysExpired(status));
    }

    @Override
    public RdmaStorageNodeStatus expire(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus status, Instant now) {
        return NodeVerdicts.expire(status, now, settings.expiry());
    }

    /** Whether the node probe's own conditions say ResultExpired already (another kind's expiry is its own). */
    private boolean saysExpired(RdmaStorageNodeStatus status) {
        return says(status, Reasons.RESULT_EXPIRED, generation) && status.getConditions().stream()
                .anyMatch(c -> Reasons.RESULT_EXPIRED.equals(c.getReason()) && part().owns(c.getType()));
    }

    /**
     * Whether the stored verdict already carries this reason for this generation, so writing it
     * again would change nothing (a spec change must still rewrite it: the checks may differ).
     */
    static boolean says(RdmaStorageNodeStatus status, String reason, long generation) {
        if (status == null || status.getConditions() == null || status.getObservedGeneration() == null
                || status.getObservedGeneration() != generation) {
            return false;
        }
        return status.getConditions().stream().anyMatch(c -> reason.equals(c.getReason()));
    }
}
