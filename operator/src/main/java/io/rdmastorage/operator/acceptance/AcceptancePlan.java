package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import java.time.Duration;
import java.util.List;

/**
 * What one reconcile does for an acceptance run, worked out by {@link AcceptancePlanner} and carried
 * out by {@link AcceptanceExecutor} in this order: deletes, applies, creates, then the step's
 * Events and metrics; the status is written last, by the reconciler, unless it is the same.
 *
 * @param status           the run's status to write; null: leave it
 * @param deletes          pods to delete (the run's, by name; deleting the pod stops the probe)
 * @param configMapDeletes ConfigMaps to delete, by name, in the operator's namespace
 * @param applies          ConfigMaps to apply: the spec before the pods, or the record at the end
 * @param creates          pods to create
 * @param step             what the run went through, for Events, metrics and gauges
 * @param message          the Event's message of a {@link Step#WAITING} or {@link Step#STARTED} step
 * @param wakeAfter        look again after this long; null: only on an event
 */
record AcceptancePlan(RdmaStorageAcceptanceStatus status, List<Pod> deletes, List<String> configMapDeletes,
                      List<ConfigMap> applies, List<Pod> creates, Step step, String message, Duration wakeAfter) {

    enum Step {
        /** Nothing to tell. */
        NONE,
        /** A run finished before: its gauges come back from its status (after a restart). */
        FINISHED_BEFORE,
        /** Waits for an earlier run on its node (an Event the first time). */
        WAITING,
        /** Started: an Event the first time. */
        STARTED,
        /** Ended now, Succeeded or Failed: its Events, its count and its gauges. */
        ENDED,
        /** The cleanup of what a run left on its node started or ended: an Event with the CleanedUp condition. */
        CLEANUP,
        /** Deleted: its gauges go. */
        DELETED
    }

    /** Nothing to write, nothing to wake for. */
    static final AcceptancePlan NONE = new AcceptancePlan(null, List.of(), List.of(), List.of(), List.of(), Step.NONE, null, null);

    static AcceptancePlan status(RdmaStorageAcceptanceStatus status, Step step, String message, Duration wakeAfter) {
        return new AcceptancePlan(status, List.of(), List.of(), List.of(), List.of(), step, message, wakeAfter);
    }
}
