package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one reconcile does for one node's latency measurement, decided by {@link LatencyPlanner}
 * from the cached state alone; the profile's plan (the reconciler package) turns it into writes.
 *
 * @param verdict     the VerbsLatency to write: a finished round's, NoPeer, or the stored one turned
 *                    Unknown ResultExpired when it is older than 3 × interval
 * @param startServer a server side to create (the first peer of a new round, or the second peer)
 * @param startClient the running server side whose client to create now
 * @param deletes     pods of finished or stale rounds
 * @param inFlight    pods of this node's round alive after the plan (for maxConcurrentProbes),
 *                    counting a client not yet created
 * @param wakeAt      when to look again without an event, if ever
 */
public record LatencyPlan(String node, Optional<LatencyVerdicts.Decision> verdict,
                          Optional<ServerStart> startServer, Optional<LatencyPod> startClient, List<Pod> deletes,
                          int inFlight, Optional<Instant> wakeAt) {

    /** @param round the node's latency round; @param attempt 1 or 2 */
    public record ServerStart(String client, Peer peer, long round, int attempt) {
    }
}
