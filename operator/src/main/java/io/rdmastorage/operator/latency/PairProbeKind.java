package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.VerdictKind;
import io.rdmastorage.operator.verdict.VerdictPart;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The latency pair as a kind of measurement: a server pod on a peer and a client pod on the node
 * per round ({@link LatencyPlanner}), numbered and dated by {@code status.latency}, whose
 * VerbsLatency part of the verdict it writes; a round every interval, a result that counts for
 * 3 × interval.
 *
 * @param generation the generation the result is judged against (the profile's when planning, the
 *                   verdict's own when a failed reconcile expires it)
 */
public record PairProbeKind(ProfileSettings settings, long generation) implements VerdictKind {

    @Override
    public VerdictPart part() {
        return VerdictPart.PAIR_PROBE;
    }

    @Override
    public Lifecycle.Last last(RdmaStorageNodeStatus status) {
        return status == null ? Lifecycle.Last.NONE : last(status.getLatency(), verbsLatency(status));
    }

    /**
     * The last latency round's result, as the lifecycle reads it: {@code status.latency} dates it, and
     * there is something to expire only while the VerbsLatency condition it explains is stored.
     */
    Lifecycle.Last last(LatencyResult measured, Optional<Condition> stored) {
        if (measured == null) {
            return Lifecycle.Last.NONE;
        }
        Optional<Instant> measuredAt = Timestamps.parse(measured.getMeasuredAt());
        return new Lifecycle.Last(measured.getRound() == null ? 0 : measured.getRound(), measuredAt,
                stored.isPresent() ? measuredAt.flatMap(schedule()::expiresAt) : Optional.empty(),
                Objects.equals(measured.getObservedGeneration(), generation),
                stored.map(c -> Reasons.RESULT_EXPIRED.equals(c.getReason())).orElse(false));
    }

    /** The stored VerbsLatency turned Unknown ResultExpired, the numbers kept, the other parts as they are. */
    @Override
    public RdmaStorageNodeStatus expire(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus status, Instant now) {
        Condition expired = LatencyVerdicts.expired(verbsLatency(status).orElseThrow(), status.getLatency(),
                settings.expiry(), now);
        return NodeVerdicts.merge(status, LatencyVerdicts.withLatency(spec, status, expired, status.getLatency(), generation,
                now), now);
    }

    static Optional<Condition> verbsLatency(RdmaStorageNodeStatus status) {
        return Conditions.find(status.getConditions(), CheckType.VERBS_LATENCY.conditionType());
    }
}
