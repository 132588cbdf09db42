package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an acceptance run's status is made of, for the run's planner and its cleanup's alike: the
 * fields every status carries, the Complete and RdmaEffective conditions, and a finished status
 * carried over as it stands.
 */
final class AcceptanceStatuses {

    private AcceptanceStatuses() {
    }

    /** A new status in {@code phase}: the generation, the TARGET column, the transports as they stood. */
    static RdmaStorageAcceptanceStatus base(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String phase) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setObservedGeneration(run.getMetadata().getGeneration());
        status.setPhase(phase);
        status.setTarget(target(run));
        status.setTransports(previous.getTransports() == null ? new ArrayList<>() : previous.getTransports());
        return status;
    }

    /** {@code previous} as it stands in a new object (conditions and pendingCleanup to be set by the caller). */
    static RdmaStorageAcceptanceStatus carriedOver(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous) {
        RdmaStorageAcceptanceStatus status = base(run, previous, previous.getPhase());
        status.setStartTime(previous.getStartTime());
        status.setCompletionTime(previous.getCompletionTime());
        status.setPodName(previous.getPodName());
        status.setReport(previous.getReport());
        status.setRatios(previous.getRatios());
        status.setPendingCleanup(previous.getPendingCleanup());
        return status;
    }

    /** What kubectl's TARGET column shows ({@link AcceptanceTarget#column}). */
    static String target(RdmaStorageAcceptance run) {
        return AcceptanceTarget.of(run.getSpec()).map(AcceptanceTarget::column).orElse(null);
    }

    /** Complete as given; RdmaEffective from the judgement, or Unknown while there is none (saying so when the run {@code ended}). */
    static List<Condition> conditions(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                      String completeStatus, String completeReason, String completeMessage,
                                      RdmaEffectiveness.Ruling ruling, boolean ended, Instant now) {
        long generation = generation(run);
        Condition complete = Conditions.of(Reasons.Acceptance.COMPLETE, completeStatus, completeReason, completeMessage,
                generation, now);
        Condition effective = ruling == null
                ? Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON,
                        "no measurement yet" + (ended && completeStatus.equals(Conditions.FALSE) ? " (the run ended " + completeReason + ")" : ""), generation, now)
                : Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, ruling.status(), ruling.reason(), ruling.message(),
                        generation, now);
        return Conditions.merge(previous.getConditions(), List.of(complete, effective), now, generation);
    }

    static long generation(RdmaStorageAcceptance run) {
        return run.getMetadata().getGeneration() == null ? 0 : run.getMetadata().getGeneration();
    }

    /** When the run started, as its status says; {@code now} when it says nothing readable. */
    static Instant startedAt(RdmaStorageAcceptanceStatus previous, Instant now) {
        return previous.getStartTime() == null ? now : Timestamps.parse(previous.getStartTime()).orElse(now);
    }

    /** The reason of the run's Complete condition; null without one. */
    static String completeReason(RdmaStorageAcceptanceStatus status) {
        return status == null ? null : Conditions.find(status.getConditions(), Reasons.Acceptance.COMPLETE)
                .map(Condition::getReason).orElse(null);
    }
}
