package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.verdict.NotProbed;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A run's nodes and whether they let it measure now: the nodes it measures on, whether they are
 * measurable ({@link NodeAvailability}, the same rule profiles follow), and which run measures
 * first where runs share a node. Only a started run, or one with changes to its node not undone,
 * holds its nodes: a run that waits for a cordoned, NotReady or busy node holds nothing, so it
 * never makes later runs wait behind it.
 */
final class AcceptanceNodes {

    /**
     * A run waiting for a cordoned or NotReady node, or measuring on one, looks at it again this
     * often: nodes send runs no events (a Node informer would cache every node a second time for a
     * few runs), and the pod on a node that went away changes only when the node controller evicts it.
     */
    static final Duration NODE_RETRY = Duration.ofSeconds(30);

    /** Of the runs on a node, the oldest (then by name) measures first. */
    private static final Comparator<RdmaStorageAcceptance> ORDER = Comparator
            .comparing((RdmaStorageAcceptance r) -> Objects.requireNonNullElse(r.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(r -> r.getMetadata().getName());

    /** The waits that hold nothing: the run's own nodes are not measurable (a run queued behind another holds its place). */
    private static final Set<String> WAITING_REASONS = Set.of(Reasons.Acceptance.NODE_UNSCHEDULABLE,
            Reasons.Acceptance.NODE_NOT_READY);

    private AcceptanceNodes() {
    }

    /** Why the run's nodes cannot give it a report or let it start now: one is gone, NotReady or cordoned. */
    record Trouble(String reason, String message) {
    }

    /** The nodes a run measures on: its node, and its target's others (the verbs target's peer). */
    static Set<String> of(RdmaStorageAcceptance run) {
        if (run.getSpec() == null || run.getSpec().getNodeName() == null) {
            return Set.of();
        }
        Set<String> nodes = new HashSet<>(AcceptanceTarget.of(run.getSpec()).map(AcceptanceTarget::otherNodes).orElse(Set.of()));
        nodes.add(run.getSpec().getNodeName());
        return Set.copyOf(nodes);
    }

    /** While the run measures: a node of it that is gone or NotReady, so no report can come. */
    static Optional<Trouble> lost(AcceptanceSnapshot snapshot) {
        for (String node : of(snapshot.run()).stream().sorted().toList()) {
            Node found = snapshot.nodes().get(node);
            if (found == null) {
                return Optional.of(new Trouble(Reasons.Acceptance.NODE_NOT_FOUND, "node " + node
                        + " was deleted while the run measured; its pods were deleted; create a new run on a node that exists"));
            }
            if (NodeAvailability.whyNotMeasurable(found).filter(NotProbed.NODE_NOT_READY::equals).isPresent()) {
                return Optional.of(new Trouble(Reasons.Acceptance.NODE_NOT_READY, "node " + node
                        + " turned NotReady while the run measured, so no report can come; its pods were deleted "
                        + "(the probe disconnects what it connected once its kubelet stops it). See `kubectl describe node "
                        + node + "`, then create a new run"));
            }
        }
        return Optional.empty();
    }

    /** Before the run starts: a node of it that is cordoned or NotReady, where it waits (Pending). */
    static Optional<Trouble> notMeasurable(AcceptanceSnapshot snapshot) {
        for (String node : of(snapshot.run()).stream().sorted().toList()) {
            Optional<NotProbed> why = NodeAvailability.whyNotMeasurable(snapshot.nodes().get(node));
            if (why.isPresent()) {
                return Optional.of(why.get() == NotProbed.NODE_UNSCHEDULABLE
                        ? new Trouble(Reasons.Acceptance.NODE_UNSCHEDULABLE, "node " + node + " is cordoned "
                                + "(spec.unschedulable; `kubectl uncordon " + node + "`)")
                        : new Trouble(Reasons.Acceptance.NODE_NOT_READY, "node " + node + " is NotReady (`kubectl describe node "
                                + node + "`)"));
            }
        }
        return Optional.empty();
    }

    /** The run that measures on one of this run's nodes before it, if another one does; empty when this run may start. */
    static Optional<RdmaStorageAcceptance> measuringBefore(AcceptanceSnapshot snapshot) {
        RdmaStorageAcceptance run = snapshot.run();
        Set<String> nodes = of(run);
        Optional<RdmaStorageAcceptance> first = snapshot.runs().stream()
                .filter(other -> of(other).stream().anyMatch(nodes::contains))
                .filter(other -> other.getMetadata().getDeletionTimestamp() == null)
                .filter(other -> other.getMetadata().getName().equals(run.getMetadata().getName()) || holdsItsNodes(other))
                .min(ORDER);
        return first.filter(other -> !other.getMetadata().getName().equals(run.getMetadata().getName()));
    }

    /**
     * Whether another run holds its nodes: started and not finished, not started and not kept from
     * starting by a cordoned or NotReady node (it starts, or queues, on its next reconcile: the
     * older of two new runs goes first), ended with changes to
     * its node not undone yet (its cleanup pod comes first), or with a status the operator did not
     * write (it is failed, and its pods stopped, by its own next reconcile; until then it holds them).
     */
    static boolean holdsItsNodes(RdmaStorageAcceptance other) {
        RdmaStorageAcceptanceStatus status = other.getStatus();
        if (!AcceptanceDigest.matches(other) && !AcceptanceDigest.legacyRecord(other)) {
            return true;
        }
        if (AcceptanceRunKind.harvested(status)) {
            return AcceptanceCleanupKind.due(other);
        }
        return status == null || !Reasons.Acceptance.PENDING.equals(status.getPhase()) || !waiting(status);
    }

    /** Whether a Pending run's Complete condition says its nodes keep it from starting (cordoned, NotReady). */
    private static boolean waiting(RdmaStorageAcceptanceStatus status) {
        return WAITING_REASONS.contains(AcceptanceStatuses.completeReason(status));
    }

    /** When a measuring run wakes: at its deadline, or sooner to see whether its node went NotReady or away. */
    static Duration lookAtTheNodeBy(Duration untilDeadline) {
        return untilDeadline.compareTo(NODE_RETRY) < 0 ? untilDeadline : NODE_RETRY;
    }
}
