package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.verdict.NotProbed;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one reconcile does for one node of a profile, decided by {@link NodeProbePlanner} from the
 * cached state alone; {@link ProfilePlanner} turns it into writes.
 *
 * @param harvests   finished (or failed, or timed-out) probe pods whose result becomes the node's verdict
 * @param stalePods  pods whose round was already harvested (an operator restart between the status
 *                   write and the delete), or that ran while an acceptance run held the node:
 *                   deleted without a (second) harvest
 * @param notProbed  the node matches but cannot be probed now; its verdict says why
 * @param expire     its last result is older than 3 × interval and must turn Unknown
 * @param probe      the round to start, when the node is due and nothing is in flight
 * @param forget     the node no longer matches (or is gone): delete its verdict, pods and markings
 * @param wakeAt     when this node needs a look again without any event (next due time, a probe's
 *                   timeout, an expiry), if ever
 */
record NodeProbePlan(String node, List<Harvest> harvests, List<Pod> stalePods, Optional<NotProbed> notProbed, boolean expire,
                Optional<ProbeStart> probe, boolean forget, Optional<Instant> wakeAt) {

    record Harvest(Pod pod, long round, long generation, ProbeOutcome outcome) {
    }

    /** @param lastProbe when the node was last probed (null = never): the longest-waiting go first */
    record ProbeStart(long round, Instant lastProbe) {
    }
}
