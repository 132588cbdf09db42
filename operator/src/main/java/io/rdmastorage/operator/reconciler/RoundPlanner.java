package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomes;
import io.rdmastorage.operator.probe.ProbePods;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import io.rdmastorage.operator.verdict.Reasons;
import io.rdmastorage.operator.verdict.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides, from cached state only, what a reconcile does for one node of a profile (see
 * {@link NodePlan}). Pure: no API calls, no clock of its own, so every rule here is unit-tested.
 */
final class RoundPlanner {

    private RoundPlanner() {
    }

    /**
     * @param node     the Node from the informer cache; null when it is gone
     * @param matches  whether the profile's selector selects it
     * @param verdict  its RdmaStorageNode for this profile, if any
     * @param pods     this profile's probe pods on this node
     */
    static NodePlan plan(String nodeName, Node node, boolean matches, RdmaStorageNode verdict, List<Pod> pods,
                         long generation, ProfileSettings settings, Instant now) {
        if (node == null || !matches) {
            return new NodePlan(nodeName, List.of(), List.copyOf(pods), Optional.empty(), false, Optional.empty(),
                    true, Optional.empty());
        }
        RdmaStorageNodeStatus status = verdict == null ? null : verdict.getStatus();
        long harvestedRound = status == null || status.getProbeRound() == null ? 0 : status.getProbeRound();
        long highestRound = harvestedRound;
        List<NodePlan.Harvest> harvests = new ArrayList<>();
        List<Pod> stale = new ArrayList<>();
        Instant wakeAt = null;
        boolean inFlight = false;
        List<Pod> byRound = new ArrayList<>(pods);
        byRound.sort(Comparator.comparingLong(RoundPlanner::round));
        for (Pod pod : byRound) {
            long round = round(pod);
            highestRound = Math.max(highestRound, round);
            if (round <= harvestedRound) {
                stale.add(pod);
                continue;
            }
            ProbeOutcome outcome = ProbeOutcomes.of(pod, now, settings.probeTimeout());
            if (outcome instanceof ProbeOutcome.InProgress inProgress) {
                inFlight = true;
                wakeAt = earliest(wakeAt, inProgress.timesOutAt());
            } else {
                harvests.add(new NodePlan.Harvest(pod, round, podGeneration(pod, generation), outcome));
            }
        }

        Optional<NotProbed> notProbed = NodeSelection.whyNotProbeable(node);
        Optional<NotProbed> markNotProbed = notProbed.filter(why -> harvests.isEmpty() && !alreadySays(status, why.reason(), generation));

        boolean expire = false;
        Optional<NodePlan.ProbeStart> probe = Optional.empty();
        if (notProbed.isEmpty() && harvests.isEmpty() && !inFlight) {
            Optional<Instant> lastProbe = lastProbe(status);
            boolean specChanged = status == null || status.getObservedGeneration() == null
                    || status.getObservedGeneration() != generation;
            Instant due = lastProbe.map(t -> t.plus(settings.interval())).orElse(now);
            if (specChanged || !due.isAfter(now)) {
                probe = Optional.of(new NodePlan.ProbeStart(highestRound + 1, lastProbe.orElse(null)));
            } else {
                wakeAt = earliest(wakeAt, due);
            }
            boolean expired = status != null && NodeVerdicts.isExpired(status, now, settings.expiry());
            expire = expired && !alreadySays(status, Reasons.RESULT_EXPIRED, generation);
            // an expiry already passed (and written) is nothing to wake for: a past wakeAt would
            // have the reconciler poll every second while the node waits for a probe slot
            if (!expired && status != null) {
                wakeAt = earliest(wakeAt, NodeVerdicts.expiresAt(status, settings.expiry()).orElse(null));
            }
        }
        return new NodePlan(nodeName, harvests, stale, markNotProbed, expire, probe, false, Optional.ofNullable(wakeAt));
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
                : pod.getMetadata().getAnnotations().get(ProbePods.PROFILE_GENERATION_ANNOTATION);
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static Optional<Instant> lastProbe(RdmaStorageNodeStatus status) {
        return status == null || status.getLastProbeTime() == null ? Optional.empty()
                : Timestamps.parse(status.getLastProbeTime());
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

    private static Instant earliest(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }
}
