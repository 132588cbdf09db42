package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.measurement.MeasurementKind;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.util.Optional;
import java.util.Set;

/**
 * The write-ahead cleanup of a run as a kind of measurement, of one round only
 * ({@link Lifecycle.Schedule#ONCE}), stored in the run's status beside the run's own: due once a
 * run has ended with changes to its node not undone ({@code status.pendingCleanup}), in flight
 * while its cleanup pod runs, harvested when its CleanedUp condition says CleanedUp or
 * CleanupFailed, and then never due again, whatever the status says afterwards. A cleanup is never
 * due on a status the operator did not write: a digest that does not match, or a run failed
 * {@code StatusEdited}, is reported and nothing is done on the node for it.
 */
final class AcceptanceCleanupKind implements MeasurementKind<RdmaStorageAcceptanceStatus> {

    static final AcceptanceCleanupKind KIND = new AcceptanceCleanupKind();
    /** The number of a cleanup's one round: each of its pods is of it. */
    static final long ROUND = 1;
    /** The CleanedUp reasons that end a cleanup. */
    private static final Set<String> ENDED = Set.of(Reasons.Acceptance.CLEANED_UP, Reasons.Acceptance.CLEANUP_FAILED);

    private AcceptanceCleanupKind() {
    }

    @Override
    public Lifecycle.Schedule schedule() {
        return Lifecycle.Schedule.ONCE;
    }

    /** Its one round once CleanedUp says it ended, dated by that condition; nothing before. */
    @Override
    public Lifecycle.Last last(RdmaStorageAcceptanceStatus status) {
        Optional<Condition> ended = status == null ? Optional.empty()
                : Conditions.find(status.getConditions(), Reasons.Acceptance.CLEANED_UP).filter(c -> ENDED.contains(c.getReason()));
        return ended.map(c -> new Lifecycle.Last(ROUND, Timestamps.parse(c.getLastTransitionTime()), Optional.empty(), true,
                false)).orElse(Lifecycle.Last.NONE);
    }

    /** Whether the run's cleanup is due now: it ended, and its status records changes not undone that the operator vouches for. */
    static boolean due(RdmaStorageAcceptance run) {
        return AcceptanceRunKind.harvested(run.getStatus()) && changesToUndo(run);
    }

    /**
     * Whether the run's status records changes to its node that no cleanup has ended, in a status
     * the operator wrote: what a deleted run waits for, and what holds its node.
     */
    static boolean changesToUndo(RdmaStorageAcceptance run) {
        RdmaStorageAcceptanceStatus status = run.getStatus();
        return status != null && status.getPendingCleanup() != null && trusted(run)
                && !harvested(status);
    }

    /** Whether a cleanup of the run has ended (its one round harvested): it is never due again. */
    static boolean harvested(RdmaStorageAcceptanceStatus status) {
        return KIND.last(status).round() >= ROUND;
    }

    /** Whether the operator wrote the run's status and acts on it: its digest matches, and it did not end it for an edit. */
    static boolean trusted(RdmaStorageAcceptance run) {
        return AcceptanceDigest.matches(run)
                && !Reasons.Acceptance.STATUS_EDITED.equals(AcceptanceStatuses.completeReason(run.getStatus()));
    }
}
