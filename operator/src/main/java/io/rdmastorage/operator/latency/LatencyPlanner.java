package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.CheckTypes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides, from cached state only, the next step of one node's latency measurement (see
 * {@link LatencyPlan}). A round runs: server side on the first peer → (once it runs) client side
 * here → the client's report; when that says the peer could not be reached (or the server never
 * served), a second attempt against the next peer; then the verdict ({@link LatencyVerdicts}) and
 * the round's pods are deleted. Due, leftovers and expiry follow {@link Lifecycle} for the pair's kind
 * ({@link PairProbeKind}), as for the node's own probe: at once for a new node or spec, then every
 * interval. Pure, so every rule is unit-tested.
 */
public final class LatencyPlanner {

    /** The first peer and one other: enough to tell which side of a failed pair is at fault. */
    static final int MAX_ATTEMPTS = 2;
    /** Slots of maxConcurrentProbes a measurement under way holds: its server and its client. */
    public static final int PODS_PER_ROUND = 2;

    private LatencyPlanner() {
    }

    /**
     * @param measurable the node exists, matches, and can be probed now (Ready, schedulable)
     * @param status     its stored verdict; may be null
     * @param pods       the latency pods measuring this node (either side)
     * @param peers      its peers now, in the order to try them ({@link LatencyPairing})
     * @param liveNodes  the nodes in the cluster now
     */
    public static LatencyPlan plan(String node, boolean measurable, RdmaStorageNodeStatus status, List<LatencyPod> pods,
                                   List<Peer> peers, Set<String> liveNodes, long generation, ProfileSettings settings,
                                   Instant now) {
        LatencyResult measured = status == null ? null : status.getLatency();
        Optional<Condition> stored = status == null ? Optional.empty() : PairProbeKind.verbsLatency(status);
        PairProbeKind kind = new PairProbeKind(settings, generation);
        Lifecycle.Last last = kind.last(measured, stored);
        Lifecycle.Rounds<LatencyPod> rounds = Lifecycle.rounds(pods, LatencyPod::round, last.round());
        // a harvested round's leftovers (a restart between write and delete)
        List<Pod> deletes = new ArrayList<>(rounds.leftovers().stream().map(LatencyPod::pod).toList());
        if (!rounds.current().isEmpty()) {
            return inFlight(node, rounds.current(), peers, liveNodes, generation, settings, now, deletes);
        }
        Optional<LatencyVerdicts.Decision> expired = Lifecycle.toExpire(last, now)
                ? Optional.of(new LatencyVerdicts.Decision(LatencyVerdicts.expired(stored.orElseThrow(), measured,
                        settings.expiry(), now), measured))
                : Optional.empty();
        Instant wakeAt = Lifecycle.expiryToWakeFor(last, now).orElse(null);
        if (!measurable) {
            return new LatencyPlan(node, expired, Optional.empty(), Optional.empty(), deletes, 0,
                    Optional.ofNullable(wakeAt));
        }
        boolean saysNoPeer = stored.map(c -> Reasons.NO_PEER.equals(c.getReason())).orElse(false);
        if (!Lifecycle.isDue(last, kind.schedule(), now) && !(saysNoPeer && !peers.isEmpty())) {
            return new LatencyPlan(node, expired, Optional.empty(), Optional.empty(), deletes, 0,
                    Optional.of(Lifecycle.earliest(wakeAt, Lifecycle.dueAt(last, kind.schedule(), now).orElseThrow())));
        }
        if (peers.isEmpty()) {
            // written once per generation; a node joining reconciles the profile and finds a peer
            Optional<LatencyVerdicts.Decision> verdict = saysNoPeer && last.sameGeneration()
                    ? Optional.empty() : Optional.of(LatencyVerdicts.noPeer(node, last.round() + 1, generation, now));
            return new LatencyPlan(node, verdict, Optional.empty(), Optional.empty(), deletes, 0, Optional.empty());
        }
        return new LatencyPlan(node, expired,
                Optional.of(new LatencyPlan.ServerStart(node, peers.get(0), last.round() + 1, 1)), Optional.empty(),
                deletes, 0, Optional.ofNullable(wakeAt));
    }

    /** A round under way: wait, start its client, try the second peer, or decide. */
    private static LatencyPlan inFlight(String node, List<LatencyPod> pods, List<Peer> peers, Set<String> liveNodes,
                                        long generation, ProfileSettings settings, Instant now, List<Pod> deletes) {
        long round = pods.stream().mapToLong(LatencyPod::round).max().orElseThrow();
        List<LatencyPod> roundPods = pods.stream().filter(p -> p.round() == round)
                .sorted(Comparator.comparingInt(LatencyPod::attempt)).toList();
        pods.stream().filter(p -> p.round() != round).forEach(p -> deletes.add(p.pod()));
        int attempts = roundPods.get(roundPods.size() - 1).attempt();
        List<LatencyAttempt> results = new ArrayList<>(attempts);
        for (int attempt = 1; attempt <= attempts; attempt++) {
            int a = attempt;
            Optional<LatencyPod> server = roundPods.stream().filter(p -> p.attempt() == a && p.isServer()).findFirst();
            Optional<LatencyPod> client = roundPods.stream().filter(p -> p.attempt() == a && !p.isServer()).findFirst();
            if (server.isEmpty() && client.isEmpty()) {
                continue; // someone deleted an earlier attempt's pods: it has nothing to say
            }
            Step step = step(server, client, liveNodes, settings, now);
            if (step.result() == null) {
                // only the last attempt can still be under way
                return new LatencyPlan(node, Optional.empty(), Optional.empty(), step.startClient(), deletes,
                        PODS_PER_ROUND, Optional.ofNullable(step.wakeAt()));
            }
            results.add(step.result());
        }
        LatencyAttempt lastResult = results.get(results.size() - 1); // the last attempt has pods: it set `attempts`
        if (lastResult.peerSideInDoubt() && attempts < MAX_ATTEMPTS) {
            List<String> tried = results.stream().map(r -> r.peer().node()).toList();
            Optional<Peer> next = peers.stream().filter(p -> !tried.contains(p.node())).findFirst();
            if (next.isPresent()) {
                return new LatencyPlan(node, Optional.empty(),
                        Optional.of(new LatencyPlan.ServerStart(node, next.get(), round, attempts + 1)), Optional.empty(),
                        deletes, PODS_PER_ROUND, Optional.empty());
            }
        }
        roundPods.forEach(p -> deletes.add(p.pod()));
        return new LatencyPlan(node, Optional.of(LatencyVerdicts.decide(results, round, generation, now)),
                Optional.empty(), Optional.empty(), deletes, 0, Optional.empty());
    }

    /** Where one attempt stands: a result, or still under way (maybe with its client to start). */
    private record Step(LatencyAttempt result, Optional<LatencyPod> startClient, Instant wakeAt) {
    }

    private static Step step(Optional<LatencyPod> server, Optional<LatencyPod> client, Set<String> liveNodes,
                             ProfileSettings settings, Instant now) {
        if (client.isPresent()) {
            ProbeOutcome outcome = ProbeOutcomeReader.of(client.get().pod(), now, settings.probeTimeout());
            if (outcome instanceof ProbeOutcome.InProgress inProgress) {
                return new Step(null, Optional.empty(), inProgress.timesOutAt());
            }
            return new Step(LatencyVerdicts.fromClient(client.get(), outcome, settings.probeTimeout()), Optional.empty(),
                    null);
        }
        LatencyPod s = server.orElseThrow();
        if (!liveNodes.contains(s.runsOn())) {
            return new Step(LatencyVerdicts.serverNodeGone(s), Optional.empty(), null);
        }
        ProbeOutcome outcome = ProbeOutcomeReader.of(s.pod(), now, settings.probeTimeout());
        if (outcome instanceof ProbeOutcome.InProgress inProgress) {
            return new Step(null, LatencyPods.serving(s.pod()) ? Optional.of(s) : Optional.empty(),
                    inProgress.timesOutAt());
        }
        return new Step(LatencyVerdicts.fromServer(s, outcome, settings.probeTimeout()), Optional.empty(), null);
    }
}
