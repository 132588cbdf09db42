package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.events.EventWriter;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;

/**
 * The Events of an acceptance run's lifecycle, as the Job controller records its own: Normal when
 * it waits for its node, starts and completes; a Warning with the Complete reason when it fails
 * (TimedOut, ProbeFailed, Incomplete, CompareWithInvalid, ...), and a Warning NotEffective when it
 * measured that RDMA is not worth it. One event per transition, written with {@link EventWriter}
 * (best effort, in namespace default as for every cluster-scoped object).
 */
final class AcceptanceEvents {

    static final String WAITING = Reasons.Acceptance.WAITING_FOR_NODE;
    static final String STARTED = "Started";
    static final String COMPLETED = "Completed";

    private final EventWriter events;

    AcceptanceEvents(EventWriter events) {
        this.events = events;
    }

    void waiting(RdmaStorageAcceptance run, String message) {
        events.record(run, "Normal", WAITING, message);
    }

    void started(RdmaStorageAcceptance run, String message) {
        events.record(run, "Normal", STARTED, message);
    }

    /** The cleanup of what the run left on its node: Normal while it runs and once done, a Warning CleanupFailed. */
    void cleanup(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        Condition cleaned = Conditions.byType(status.getConditions()).get(Reasons.Acceptance.CLEANED_UP);
        events.record(run, Reasons.Acceptance.CLEANUP_FAILED.equals(cleaned.getReason()) ? "Warning" : "Normal",
                cleaned.getReason(), cleaned.getMessage());
    }

    /** The run ended with {@code status}: Completed or the failure, and NotEffective when RDMA was measured not to be worth it. */
    void ended(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        Condition complete = Conditions.byType(status.getConditions()).get(Reasons.Acceptance.COMPLETE);
        Condition effective = Conditions.byType(status.getConditions()).get(Reasons.Acceptance.RDMA_EFFECTIVE);
        if (Reasons.Acceptance.SUCCEEDED.equals(status.getPhase())) {
            events.record(run, "Normal", COMPLETED, "RdmaEffective " + effective.getStatus() + " (" + effective.getReason()
                    + "): " + effective.getMessage() + "; the record: ConfigMap " + status.getReport());
        } else {
            events.record(run, "Warning", complete.getReason(), complete.getMessage());
        }
        if (Conditions.FALSE.equals(effective.getStatus())) {
            events.record(run, "Warning", effective.getReason(), effective.getMessage());
        }
    }
}
