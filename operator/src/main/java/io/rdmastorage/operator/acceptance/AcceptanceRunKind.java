package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.measurement.MeasurementKind;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.util.Optional;

/**
 * An acceptance run as a kind of measurement, of one round only ({@link Lifecycle.Schedule#ONCE}):
 * due at once when the run is created, in flight while its pods measure (Running), harvested when
 * it ends Succeeded or Failed, and then never due again and never expired: its status is its record.
 * The run's status is where its result is stored; a run measures under the generation it was
 * created with, so a result is always of the same generation.
 */
final class AcceptanceRunKind implements MeasurementKind<RdmaStorageAcceptanceStatus> {

    static final AcceptanceRunKind KIND = new AcceptanceRunKind();
    /** The number of a run's one round. */
    static final long ROUND = 1;

    private AcceptanceRunKind() {
    }

    @Override
    public Lifecycle.Schedule schedule() {
        return Lifecycle.Schedule.ONCE;
    }

    /** Its one round once the run has ended, dated by its completion time; nothing before. */
    @Override
    public Lifecycle.Last last(RdmaStorageAcceptanceStatus status) {
        if (!finished(status)) {
            return Lifecycle.Last.NONE;
        }
        return new Lifecycle.Last(ROUND, status.getCompletionTime() == null ? Optional.empty()
                : Timestamps.parse(status.getCompletionTime()), Optional.empty(), true, false);
    }

    /** Whether the run's one round is harvested: it ended, Succeeded or Failed, and is never due again. */
    static boolean harvested(RdmaStorageAcceptanceStatus status) {
        return KIND.last(status).round() >= ROUND;
    }

    /** Whether the run has ended, Succeeded or Failed (a run without a status has not). */
    private static boolean finished(RdmaStorageAcceptanceStatus status) {
        return status != null && (Reasons.Acceptance.SUCCEEDED.equals(status.getPhase())
                || Reasons.Acceptance.FAILED.equals(status.getPhase()));
    }
}
