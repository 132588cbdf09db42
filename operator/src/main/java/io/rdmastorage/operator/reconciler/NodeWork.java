package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbePod;
import java.time.Duration;
import java.time.Instant;

/**
 * Carries out one node's {@link NodePlan}: verdict writes (each followed by its Events and
 * metrics), pod deletions and node markings. Returns the verdict the node has afterwards.
 */
final class NodeWork {

    private final RdmaStorageProfile profile;
    private final String profileName;
    private final long generation;
    private final ProfileSettings settings;
    private final ClusterWrites writes;
    private final NodeMarkings markings;
    private final VerdictEvents events;
    private final OperatorMetrics metrics;
    private final Instant now;

    NodeWork(RdmaStorageProfile profile, ProfileSettings settings, ClusterWrites writes, NodeMarkings markings,
             VerdictEvents events, OperatorMetrics metrics, Instant now) {
        this.profile = profile;
        this.profileName = profile.getMetadata().getName();
        this.generation = profile.getMetadata().getGeneration();
        this.settings = settings;
        this.writes = writes;
        this.markings = markings;
        this.events = events;
        this.metrics = metrics;
        this.now = now;
    }

    /**
     * @param node    the Node from the cache (null when gone)
     * @param verdict its stored verdict, if any
     * @return the verdict as stored afterwards; null when there is none
     */
    RdmaStorageNode carryOut(NodePlan plan, Node node, RdmaStorageNode verdict) {
        if (plan.forget()) {
            plan.stalePods().forEach(writes::deletePod);
            if (verdict != null) {
                writes.deleteVerdict(verdict);
            }
            if (node != null && NodeMarkings.carriesMarkings(profileName, node)) {
                markings.remove(profileName, node);
            }
            return null;
        }
        plan.stalePods().forEach(writes::deletePod);
        RdmaStorageNode stored = verdict;
        for (NodePlan.Harvest harvest : plan.harvests()) {
            RdmaStorageNodeStatus next = verdictOf(harvest, plan.node());
            next.setProbeRound(harvest.round());
            stored = write(plan.node(), stored, next);
            writes.deletePod(harvest.pod());
        }
        if (plan.notProbed().isPresent()) {
            stored = write(plan.node(), stored,
                    NodeVerdicts.notProbed(profile.getSpec(), generation, plan.node(), plan.notProbed().get(), now));
        }
        if (plan.expire() && stored != null && stored.getStatus() != null) {
            stored = write(plan.node(), stored, NodeVerdicts.expire(stored.getStatus(), now, settings.expiry()));
        }
        mark(node, stored);
        return stored;
    }

    /**
     * Writes a latency round's VerbsLatency over the stored verdict (the node's own checks stay),
     * and the node markings that follow from the new Ready. Returns the verdict as stored afterwards.
     */
    RdmaStorageNode recordLatency(String nodeName, Node node, RdmaStorageNode stored, Condition verbsLatency,
                                  LatencyResult result) {
        RdmaStorageNodeStatus next = NodeVerdicts.withLatency(profile.getSpec(), stored == null ? null : stored.getStatus(),
                verbsLatency, result, generation, now);
        RdmaStorageNode written = write(nodeName, stored, next);
        mark(node, written);
        return written;
    }

    /** Opt-in node markings follow the verdict's Ready (and are removed when opted out). */
    private void mark(Node node, RdmaStorageNode stored) {
        RdmaStorageNodeStatus status = stored == null ? null : stored.getStatus();
        if (node != null && (settings.nodeLabels() || settings.taintNotReady() || settings.nodeCondition()
                || NodeMarkings.carriesMarkings(profileName, node))) {
            markings.apply(profileName, settings, node, RdmaStorageProfileReconciler.ready(status));
        }
    }

    private RdmaStorageNodeStatus verdictOf(NodePlan.Harvest harvest, String node) {
        Pod pod = harvest.pod();
        ProbePod probePod = new ProbePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), node);
        ProbeOutcome outcome = harvest.outcome();
        if (outcome instanceof ProbeOutcome.Finished finished) {
            return NodeVerdicts.fromTermination(profile.getSpec(), harvest.generation(), probePod, finished.exitCode(),
                    null, finished.terminationMessage(), finished.finishedAt());
        }
        ProbeFailure failure = ProbeFailure.of(probePod, outcome, settings.probeTimeout());
        metrics.recordProbeFailure(profileName, failure.reason());
        return NodeVerdicts.fromFailure(profile.getSpec(), harvest.generation(), probePod, failure, now);
    }

    /** Merges over the stored verdict, writes it when it changed, and reports the changes. */
    private RdmaStorageNode write(String node, RdmaStorageNode stored, RdmaStorageNodeStatus next) {
        RdmaStorageNodeStatus previous = stored == null ? null : stored.getStatus();
        RdmaStorageNodeStatus merged = NodeVerdicts.merge(previous, next, now);
        if (stored != null && StatusComparison.same(previous, merged)) {
            return stored;
        }
        RdmaStorageNode written = writes.writeVerdict(profile, node, stored, merged);
        if (merged.getProbeDurationMillis() != null && next.getLastProbeTime() != null) {
            metrics.recordProbeDuration(profileName, Duration.ofMillis(merged.getProbeDurationMillis()));
        }
        events.recordChanges(written, previous == null ? null : previous.getConditions(), merged.getConditions())
                .forEach(change -> metrics.recordVerdictChange(profileName, change.type()));
        return written;
    }
}
