package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.verdict.MeasurementKind;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides, from cached state only, what a reconcile does with one node's own probe (see
 * {@link NodeProbePlan}), by the rules of {@link Lifecycle} every kind of measurement shares.
 * Pure: no API calls, no clock of its own, so every rule here is unit-tested.
 */
final class NodeProbePlanner {

    private NodeProbePlanner() {
    }

    /**
     * @param node     the Node from the informer cache; null when it is gone
     * @param matches  whether the profile's selector selects it
     * @param verdict  its RdmaStorageNode for this profile, if any
     * @param pods     this profile's probe pods on this node
     */
    static NodeProbePlan plan(String nodeName, Node node, boolean matches, RdmaStorageNode verdict, List<Pod> pods,
                         long generation, ProfileSettings settings, Instant now) {
        return plan(nodeName, node, matches, node == null ? Optional.empty() : NodeSelection.whyNotProbeable(node),
                verdict, pods, generation, settings, now);
    }

    /** @param notProbeable why the node cannot be probed now ({@link NodeSelection#whyNotProbeable}) */
    static NodeProbePlan plan(String nodeName, Node node, boolean matches, Optional<NotProbed> notProbeable,
                         RdmaStorageNode verdict, List<Pod> pods, long generation, ProfileSettings settings,
                         Instant now) {
        if (node == null || !matches) {
            return new NodeProbePlan(nodeName, List.of(), List.copyOf(pods), Optional.empty(), false, Optional.empty(),
                    true, Optional.empty());
        }
        RdmaStorageNodeStatus status = verdict == null ? null : verdict.getStatus();
        Lifecycle.Last last = last(status, generation, settings);
        List<Pod> byRound = new ArrayList<>(pods);
        byRound.sort(Comparator.comparingLong(NodeProbePlanner::round));
        Lifecycle.Rounds<Pod> rounds = Lifecycle.rounds(byRound, NodeProbePlanner::round, last.round());
        List<NodeProbePlan.Harvest> harvests = new ArrayList<>();
        Instant wakeAt = null;
        boolean inFlight = false;
        for (Pod pod : rounds.current()) {
            ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, settings.nodeProbeTimeout());
            if (outcome instanceof ProbeOutcome.InProgress inProgress) {
                inFlight = true;
                wakeAt = Lifecycle.earliest(wakeAt, inProgress.timesOutAt());
            } else {
                harvests.add(new NodeProbePlan.Harvest(pod, round(pod), podGeneration(pod, generation), outcome));
            }
        }

        Optional<NotProbed> markNotProbed = notProbeable.filter(why -> harvests.isEmpty()
                && !alreadySays(status, why.reason(), generation));

        boolean expire = false;
        Optional<NodeProbePlan.ProbeStart> probe = Optional.empty();
        if (notProbeable.isEmpty() && harvests.isEmpty() && !inFlight) {
            if (Lifecycle.isDue(last, settings.interval(), now)) {
                probe = Optional.of(new NodeProbePlan.ProbeStart(rounds.highest() + 1, last.measuredAt().orElse(null)));
            } else {
                wakeAt = Lifecycle.earliest(wakeAt, Lifecycle.dueAt(last, settings.interval(), now));
            }
            expire = Lifecycle.toExpire(last, now);
            wakeAt = Lifecycle.earliest(wakeAt, Lifecycle.expiryToWakeFor(last, now).orElse(null));
        }
        return new NodeProbePlan(nodeName, harvests, rounds.leftovers(), markNotProbed, expire, probe, false,
                Optional.ofNullable(wakeAt));
    }

    /** The node probe's last harvested result, as the lifecycle reads it. */
    static Lifecycle.Last last(RdmaStorageNodeStatus status, long generation, ProfileSettings settings) {
        if (status == null) {
            return Lifecycle.Last.NONE;
        }
        return new Lifecycle.Last(status.getProbeRound() == null ? 0 : status.getProbeRound(),
                status.getLastProbeTime() == null ? Optional.empty() : Timestamps.parse(status.getLastProbeTime()),
                NodeVerdicts.expiresAt(status, settings.expiry()),
                status.getObservedGeneration() != null && status.getObservedGeneration() == generation,
                saysExpired(status, generation));
    }

    /** The probe round of a pod, from its label; a pod without one sorts first and counts as harvested. */
    static long round(Pod pod) {
        String value = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(Labels.ROUND);
        try {
            return value == null ? 0 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long podGeneration(Pod pod, long fallback) {
        String value = pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(ProbePodFactory.PROFILE_GENERATION_ANNOTATION);
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Whether the node probe's own conditions say ResultExpired already (another kind's expiry is its own). */
    private static boolean saysExpired(RdmaStorageNodeStatus status, long generation) {
        return alreadySays(status, Reasons.RESULT_EXPIRED, generation) && status.getConditions().stream()
                .anyMatch(c -> Reasons.RESULT_EXPIRED.equals(c.getReason())
                        && MeasurementKind.NODE_PROBE.types().contains(c.getType()));
    }

    /**
     * Whether the stored verdict already carries this reason for this generation, so writing it
     * again would change nothing (a spec change must still rewrite it: the checks may differ).
     */
    private static boolean alreadySays(RdmaStorageNodeStatus status, String reason, long generation) {
        if (status == null || status.getConditions() == null || status.getObservedGeneration() == null
                || status.getObservedGeneration() != generation) {
            return false;
        }
        return status.getConditions().stream().anyMatch(c -> reason.equals(c.getReason()));
    }
}
