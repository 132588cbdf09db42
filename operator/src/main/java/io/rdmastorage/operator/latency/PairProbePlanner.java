package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.ProbeSlots;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A profile's latency pairs planned together from one reconcile's view: who measures against whom
 * ({@link LatencyPairing}), each matching node's next step ({@link LatencyPlanner}), and then the
 * server sides to start, within the profile's {@link ProbeSlots} and each on a free pair of ports.
 * The profile's plan folds each node's verdict into the write that node gets. Pure.
 *
 * @param spec      the profile's latency section
 * @param matching  the nodes the profile selects
 * @param probeable whether a node in the cluster can be probed now (Ready, schedulable)
 * @param nodes     the nodes in the cluster, by name
 * @param pods      the profile's latency pods, either side
 * @param selects   whether a label selector selects a node's labels (the reference nodes)
 */
public record PairProbePlanner(RdmaStorageProfile profile, LatencyCheckSpec spec, Set<String> matching,
                               Predicate<String> probeable, Map<String, Node> nodes, List<LatencyPod> pods,
                               BiPredicate<LabelSelector, Map<String, String>> selects) {

    /** What the pairs do in one reconcile before any server starts. */
    public record Rounds(List<LatencyPlan> plans, List<Pod> deletes, List<Pod> clients) {
    }

    /** What starting the new rounds' servers came to. */
    public record Servers(List<Pod> creates, int waiting) {
    }

    /**
     * Each matching node's plan (its pods counted in {@code slots}), the clients whose servers run,
     * and the pods of nodes that left the profile: their measurement is moot.
     *
     * @param verdictOf a matching node's verdict as the plan leaves it so far (null: none)
     */
    public Rounds plan(Function<String, RdmaStorageNodeStatus> verdictOf, ProbeSlots slots, OperatorConfig config,
                       long generation, ProfileSettings settings, Instant now) {
        LatencyPairing pairing = pairing();
        Map<String, List<LatencyPod>> byClient = new HashMap<>();
        List<Pod> deletes = new ArrayList<>();
        for (LatencyPod p : pods) {
            if (matching.contains(p.clientNode())) {
                byClient.computeIfAbsent(p.clientNode(), n -> new ArrayList<>()).add(p);
            } else {
                deletes.add(p.pod());
            }
        }
        List<LatencyPlan> plans = new ArrayList<>(matching.size());
        List<Pod> clients = new ArrayList<>();
        for (String node : matching) {
            LatencyPlan plan = LatencyPlanner.plan(node, measurable(node), verdictOf.apply(node),
                    byClient.getOrDefault(node, List.of()), pairing.peersOf(node), nodes.keySet(), generation, settings, now);
            plans.add(plan);
            slots.hold(plan.inFlight());
            plan.startClient().ifPresent(server -> clients.add(LatencyPods.client(profile, server, config)));
        }
        return new Rounds(plans, deletes, clients);
    }

    /**
     * Second attempts always start (their round holds its slots already); new rounds start within
     * the free slots, the longest-waiting nodes first, each server on a free pair of ports.
     */
    public Servers startServers(List<LatencyPlan> plans, ProbeSlots slots, OperatorConfig config) {
        Set<Pod> deleted = new HashSet<>();
        plans.forEach(p -> deleted.addAll(p.deletes()));
        Map<String, List<Integer>> ports = new HashMap<>(LatencyPods.portsInUse(pods.stream()
                .filter(p -> !deleted.contains(p.pod())).toList()));
        List<LatencyPlan.ServerStart> starts = plans.stream().map(LatencyPlan::startServer)
                .flatMap(Optional::stream)
                .sorted(Comparator.comparingInt((LatencyPlan.ServerStart s) -> -s.attempt())
                        .thenComparingLong(LatencyPlan.ServerStart::round)
                        .thenComparing(LatencyPlan.ServerStart::client))
                .toList();
        List<Pod> creates = new ArrayList<>();
        int waiting = 0;
        for (LatencyPlan.ServerStart start : starts) {
            List<Integer> used = ports.computeIfAbsent(start.peer().node(), n -> new ArrayList<>());
            int port = LatencyPods.freePort(used);
            boolean newRound = start.attempt() == 1;
            if (port < 0 || newRound && !slots.take(LatencyPlanner.PODS_PER_ROUND)) {
                waiting++;
                continue;
            }
            used.add(port);
            creates.add(LatencyPods.server(profile, start.client(), start.peer(), start.round(), start.attempt(), port,
                    config));
        }
        return new Servers(creates, waiting);
    }

    /** A node that is selected and can be probed now: it can take part in a measurement. */
    private boolean measurable(String node) {
        return matching.contains(node) && probeable.test(node);
    }

    /** Ring over the measurable nodes, or the reference nodes that can serve now. */
    private LatencyPairing pairing() {
        List<String> clients = matching.stream().filter(this::measurable).toList();
        if (spec.getReferenceNodeSelector() == null) {
            List<Peer> servers = clients.stream().map(nodes::get)
                    .flatMap(n -> Peer.of(n, spec.getAddressType()).stream()).toList();
            return LatencyPairing.ring(clients, servers);
        }
        List<Peer> references = nodes.values().stream()
                .filter(n -> selects.test(spec.getReferenceNodeSelector(), n.getMetadata().getLabels()))
                .filter(n -> probeable.test(n.getMetadata().getName()))
                .flatMap(n -> Peer.of(n, spec.getAddressType()).stream())
                .toList();
        return LatencyPairing.references(clients, references);
    }
}
