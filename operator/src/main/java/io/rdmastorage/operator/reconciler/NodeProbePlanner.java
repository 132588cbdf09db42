package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.nodes.NodeAvailability;
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
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides, from cached state only, what a reconcile does with one node's own probe (see
 * {@link NodeProbePlan}), by the rules of {@link Lifecycle} every kind of measurement shares, for the
 * node probe's kind ({@link NodeProbeKind}).
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
        return plan(nodeName, node, matches, node == null ? Optional.empty() : NodeAvailability.whyNotMeasurable(node),
                verdict, pods, generation, settings, now);
    }

    /** @param notProbeable why the node cannot be probed now ({@link NodeAvailability#whyNotMeasurable}) */
    static NodeProbePlan plan(String nodeName, Node node, boolean matches, Optional<NotProbed> notProbeable,
                         RdmaStorageNode verdict, List<Pod> pods, long generation, ProfileSettings settings,
                         Instant now) {
        if (node == null || !matches) {
            return new NodeProbePlan(nodeName, List.of(), List.copyOf(pods), Optional.empty(), false, Optional.empty(),
                    true, Optional.empty());
        }
        RdmaStorageNodeStatus status = verdict == null ? null : verdict.getStatus();
        if (notProbeable.filter(NotProbed.ACCEPTANCE_RUN_IN_PROGRESS::equals).isPresent()) {
            // a report from now on may describe the run's connection, not the node's: none is harvested. The
            // markings the last result set stay until that result expires, as any result's do: wake for it
            Optional<NotProbed> mark = notProbeable.filter(why -> !NodeProbeKind.says(status, why.reason(), generation));
            Optional<Instant> expiry = NodeVerdicts.expiresAt(status, settings.expiry()).filter(now::isBefore);
            return new NodeProbePlan(nodeName, List.of(), List.copyOf(pods), mark, false, Optional.empty(), false, expiry);
        }
        NodeProbeKind kind = new NodeProbeKind(settings, generation);
        Lifecycle.Last last = kind.last(status);
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
                && !NodeProbeKind.says(status, why.reason(), generation));

        boolean expire = false;
        Optional<NodeProbePlan.ProbeStart> probe = Optional.empty();
        if (notProbeable.isEmpty() && harvests.isEmpty() && !inFlight) {
            if (Lifecycle.isDue(last, kind.schedule(), now)) {
                probe = Optional.of(new NodeProbePlan.ProbeStart(rounds.highest() + 1, last.measuredAt().orElse(null)));
            } else {
                wakeAt = Lifecycle.earliest(wakeAt, Lifecycle.dueAt(last, kind.schedule(), now).orElse(null));
            }
            expire = Lifecycle.toExpire(last, now);
            wakeAt = Lifecycle.earliest(wakeAt, Lifecycle.expiryToWakeFor(last, now).orElse(null));
        }
        return new NodeProbePlan(nodeName, harvests, rounds.leftovers(), markNotProbed, expire, probe, false,
                Optional.ofNullable(wakeAt));
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
}
