package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.nodes.MarkingOptions;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.FleetDistribution;
import java.time.Instant;
import java.util.List;

/**
 * Every write one reconcile makes for a profile, decided by {@link ProfilePlanner} from one
 * {@link ProfileSnapshot} and the clock; {@link PlanExecutor} carries it out. Each node's changes
 * come first (its writes in order), then the pods of no node's plan are deleted, then new pods
 * are created: a harvest is stored before its pod goes, and the slots of deleted pods are free
 * before new pods take them.
 *
 * @param nodes   what each concerned node gets
 * @param deletes pods to delete that belong to no node's plan (strays, a removed latency section, orphans)
 * @param creates probe pods to create (node probes, latency servers and clients), within the slot budget
 * @param wakeAt  when to reconcile again without any event
 * @param waiting measurements that are due but wait for a probe slot (or a free port)
 * @param fleet   the matching nodes' inventory facts compared, as the writes leave them (for the profile's status)
 */
record ProfilePlan(List<NodeChange> nodes, List<Pod> deletes, List<Pod> creates, Instant wakeAt, int waiting,
                   FleetDistribution fleet) {

    /**
     * One node's changes, in order: {@code deletes}, then each of {@code writes}, then its markings.
     *
     * @param stored        its RdmaStorageNode as the snapshot holds it; null when none
     * @param deletes       pods that go without a write (leftovers of harvested rounds, a forgotten node's pods)
     * @param writes        verdict writes, each over the status the one before it stored
     * @param probeFailures the reasons of probe pods that gave no report (for the metric)
     * @param forget        the node left the profile: its RdmaStorageNode is deleted
     * @param discard       its RdmaStorageNode's status was edited by someone else: the object is deleted
     *                      before {@code writes} create it anew (so no field of the edit survives)
     * @param marking       its markings to converge; null when it gets none
     */
    record NodeChange(String node, RdmaStorageNode stored, List<Pod> deletes, List<VerdictWrite> writes,
                      List<String> probeFailures, boolean forget, boolean discard, Marking marking) {

        /** Nothing to write or record: the node stays as stored. */
        boolean isEmpty() {
            return deletes.isEmpty() && writes.isEmpty() && probeFailures.isEmpty() && !forget && !discard
                    && marking == null;
        }
    }

    /**
     * One verdict write: {@code status} over {@code previous} (null when the node has none yet).
     *
     * @param thenDelete    the pods whose result it stores, deleted once it is written
     * @param probeDuration whether it holds a new probe duration (for the metric)
     */
    record VerdictWrite(RdmaStorageNodeStatus previous, RdmaStorageNodeStatus status, List<Pod> thenDelete,
                        boolean probeDuration) {
    }

    /**
     * The node's markings brought in line with its verdict's Ready, or removed.
     *
     * @param node  the Node as the cache holds it
     * @param ready the verdict's Ready condition; null when it has none (or for a removal)
     */
    record Marking(Node node, Condition ready, boolean remove) {

        /**
         * The markings that follow {@code status}'s Ready on {@code node}; null when the node gets
         * none: it is not in the cache, the profile marks nothing there, the verdict only stands in
         * for an edit it replaced (the node keeps the markings the operator's own last verdict set),
         * or an acceptance run holds the node and the last result before it has not expired (after
         * that, the markings follow Unknown, as any expired result's do).
         */
        static Marking following(ProfileSettings settings, String profile, Node node, RdmaStorageNodeStatus status,
                                 Instant now) {
            boolean keptForTheRun = heldForAcceptance(status)
                    && NodeVerdicts.expiresAt(status, settings.expiry()).map(at -> !now.isAfter(at)).orElse(false);
            return node != null && !replacesAnEdit(status) && !keptForTheRun && marks(settings, profile, node)
                    ? new Marking(node, ready(status), false) : null;
        }

        /** Whether the profile sets or has set markings on the node. */
        static boolean marks(ProfileSettings settings, String profile, Node node) {
            return MarkingOptions.of(settings).any()
                    || NodeMarkings.carriesMarkings(profile, node);
        }

        /**
         * Whether the verdict only stands in for an edit it replaced, until the probe that follows
         * decides: meanwhile the node keeps the markings the operator last set from a verdict it wrote
         * (an edit must not lift a taint either).
         */
        static boolean replacesAnEdit(RdmaStorageNodeStatus status) {
            Condition ready = ready(status);
            return ready != null && Reasons.VERDICT_EDITED.equals(ready.getReason());
        }

        /**
         * Whether the verdict says an acceptance run holds the node: its markings stay as the last
         * verdict before the run set them, so a measurement the admin asked for neither fences the
         * node nor lets a workload that selects ready nodes lose it.
         */
        static boolean heldForAcceptance(RdmaStorageNodeStatus status) {
            Condition ready = ready(status);
            return ready != null && Reasons.ACCEPTANCE_RUN_IN_PROGRESS.equals(ready.getReason());
        }

        /** The Ready condition of a verdict, for node markings. */
        static Condition ready(RdmaStorageNodeStatus status) {
            return status == null ? null : Conditions.find(status.getConditions(), CheckTypes.READY).orElse(null);
        }
    }
}
