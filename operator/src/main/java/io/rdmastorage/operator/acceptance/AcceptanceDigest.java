package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.status.StatusDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operator's record of what it wrote to a run's status, as {@code VerdictDigest} is for a
 * node's verdict: a SHA-256 over the run's name and UID and the parts of its status its lifecycle
 * decides by (phase, start and completion time, pod, record, every condition, the changes to its
 * node not undone yet), in
 * {@code status.digest}. A status someone else wrote (a {@code phase: Succeeded} that would orphan
 * the pod and free the node for a second run, a future {@code startTime} that would keep a run
 * Running for a pod that is gone, a status copied from an earlier run of the same name) no longer
 * matches, and the run is failed safely ({@code StatusEdited}: its pods deleted, the node freed).
 * The transports' figures are left out: nothing is decided by them, and their numbers need not come
 * back from the API server byte for byte. This catches edits, not forgery: whoever may write a
 * run's status may recompute the digest.
 */
final class AcceptanceDigest {

    private AcceptanceDigest() {
    }

    static String of(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        List<Object> parts = new ArrayList<>(Arrays.asList(run.getMetadata().getName(), run.getMetadata().getUid(),
                status.getObservedGeneration(), status.getPhase(), status.getStartTime(), status.getCompletionTime(),
                status.getPodName(), status.getReport()));
        parts.addAll(StatusDigest.conditions(status.getConditions()));
        if (status.getPendingCleanup() != null) {
            // only where there is one: the digests of runs without it stay as they were
            parts.add(status.getPendingCleanup().toString());
        }
        return StatusDigest.of(parts);
    }

    /** {@code status} with its digest, as the operator writes it to {@code run}; null stays null. */
    static RdmaStorageAcceptanceStatus stamp(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        if (status != null) {
            status.setDigest(of(run, status));
        }
        return status;
    }

    /** Whether the run's status is as the operator wrote it; a run without a status has nothing to distrust. */
    static boolean matches(RdmaStorageAcceptance run) {
        RdmaStorageAcceptanceStatus status = run.getStatus();
        return status == null || status.getPhase() == null && status.getDigest() == null
                || status.getDigest() != null && status.getDigest().equals(of(run, status));
    }

    /**
     * A finished status without a digest: the record of an operator before the digest existed. It
     * is trusted only while no pod of the run is alive (a forged end would have left one behind).
     */
    static boolean legacyRecord(RdmaStorageAcceptance run) {
        return run.getStatus() != null && run.getStatus().getDigest() == null && AcceptanceRunKind.harvested(run.getStatus());
    }
}
