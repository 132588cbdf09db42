package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.LatencyPairing;
import io.rdmastorage.operator.latency.LatencyPlan;
import io.rdmastorage.operator.latency.LatencyPlanner;
import io.rdmastorage.operator.latency.LatencyPod;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.latency.Peer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latency part of a reconcile: pairs the measurable nodes ({@link LatencyPairing}), plans each
 * node's measurement ({@link LatencyPlanner}) and carries the plans out: verdicts through
 * {@link NodeWork}, pod deletes, client pods for servers that run, and server pods for new rounds
 * within the probe slots the node's own probes left, one free pair of ports per serving node.
 */
final class LatencyRounds {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyRounds.class);

    private final RdmaStorageProfile profile;
    private final ProfileSettings settings;
    private final OperatorConfig config;
    private final ClusterWrites writes;
    private final NodeWork work;
    private final Instant now;

    LatencyRounds(RdmaStorageProfile profile, ProfileSettings settings, OperatorConfig config, ClusterWrites writes,
                  NodeWork work, Instant now) {
        this.profile = profile;
        this.settings = settings;
        this.config = config;
        this.writes = writes;
        this.work = work;
        this.now = now;
    }

    /**
     * @param nodes      the Node cache by name
     * @param matching   the nodes the profile selects
     * @param measurable those of them that can be probed now
     * @param pods       the profile's latency pods
     * @param stored     verdicts by node; updated with what is written
     * @param freeSlots  probe slots (maxConcurrentProbes) the node's own probes left
     * @return when to look again without an event, if ever
     */
    Optional<Instant> run(Map<String, Node> nodes, Set<String> matching, Set<String> measurable,
                          List<LatencyPod> pods, Map<String, RdmaStorageNode> stored, int freeSlots) {
        LatencyCheckSpec spec = profile.getSpec().getLatency();
        if (spec == null) {
            // the section was removed: its rounds under way end here
            ConcurrentWrites.map(pods, p -> delete(p.pod()));
            return Optional.empty();
        }
        LatencyPairing pairing = pairing(spec, nodes, measurable);
        Map<String, List<LatencyPod>> byClient = new HashMap<>();
        List<Pod> orphans = new ArrayList<>();
        for (LatencyPod p : pods) {
            if (matching.contains(p.clientNode())) {
                byClient.computeIfAbsent(p.clientNode(), n -> new ArrayList<>()).add(p);
            } else {
                orphans.add(p.pod()); // its node left the profile: its measurement is moot
            }
        }
        long generation = profile.getMetadata().getGeneration();
        List<LatencyPlan> plans = new ArrayList<>(matching.size());
        for (String node : matching) {
            plans.add(LatencyPlanner.plan(node, measurable.contains(node),
                    stored.get(node) == null ? null : stored.get(node).getStatus(),
                    byClient.getOrDefault(node, List.of()), pairing.peersOf(node), nodes.keySet(), generation, settings,
                    now));
        }
        ConcurrentWrites.map(orphans, this::delete);
        List<RdmaStorageNode> written = ConcurrentWrites.map(plans, plan -> carryOut(plan, nodes.get(plan.node()),
                stored.get(plan.node())));
        for (int i = 0; i < plans.size(); i++) {
            if (written.get(i) != null) {
                stored.put(plans.get(i).node(), written.get(i));
            }
        }
        startServers(plans, pods, freeSlots);
        return plans.stream().map(LatencyPlan::wakeAt).flatMap(Optional::stream).min(Comparator.naturalOrder());
    }

    /** A plan's writes but the new server pods; returns the verdict as stored afterwards. */
    private RdmaStorageNode carryOut(LatencyPlan plan, Node node, RdmaStorageNode stored) {
        plan.deletes().forEach(this::delete);
        plan.startClient().ifPresent(server -> writes.createPod(LatencyPods.client(profile, server, config)));
        if (plan.verdict().isEmpty()) {
            return stored;
        }
        LatencyVerdicts.Verdict v = plan.verdict().get();
        return work.recordLatency(plan.node(), node, stored, v.condition(), v.result());
    }

    /**
     * Second attempts always start (their round holds its slots already); new rounds start within
     * the free slots, two each, the longest-waiting nodes first, each server on a free pair of ports.
     */
    private void startServers(List<LatencyPlan> plans, List<LatencyPod> pods, int freeSlots) {
        int slots = freeSlots - plans.stream().mapToInt(LatencyPlan::inFlight).sum();
        Set<Pod> deleted = new HashSet<>();
        plans.forEach(p -> deleted.addAll(p.deletes()));
        Map<String, List<Integer>> ports = new HashMap<>(LatencyPods.portsInUse(pods.stream()
                .filter(p -> !deleted.contains(p.pod())).toList()));
        List<LatencyPlan.ServerStart> starts = plans.stream().map(LatencyPlan::startServer).flatMap(Optional::stream)
                .sorted(Comparator.comparingInt((LatencyPlan.ServerStart s) -> -s.attempt())
                        .thenComparingLong(LatencyPlan.ServerStart::round)
                        .thenComparing(LatencyPlan.ServerStart::client))
                .toList();
        List<Pod> servers = new ArrayList<>();
        int waiting = 0;
        for (LatencyPlan.ServerStart start : starts) {
            boolean newRound = start.attempt() == 1;
            List<Integer> used = ports.computeIfAbsent(start.peer().node(), n -> new ArrayList<>());
            int port = LatencyPods.freePort(used);
            if (newRound && slots < LatencyPlanner.PODS_PER_ROUND || port < 0) {
                waiting++;
                continue;
            }
            if (newRound) {
                slots -= LatencyPlanner.PODS_PER_ROUND;
            }
            used.add(port);
            servers.add(LatencyPods.server(profile, start.client(), start.peer(), start.round(), start.attempt(), port,
                    config));
        }
        ConcurrentWrites.map(servers, pod -> {
            writes.createPod(pod);
            return pod;
        });
        if (waiting > 0) {
            LOG.debug("profile {}: {} latency measurements wait for a probe slot or a free port",
                    profile.getMetadata().getName(), waiting);
        }
    }

    /** Ring over the measurable nodes, or the reference nodes that can serve now. */
    private static LatencyPairing pairing(LatencyCheckSpec spec, Map<String, Node> nodes, Set<String> measurable) {
        List<String> clients = List.copyOf(measurable);
        if (spec.getReferenceNodeSelector() == null) {
            List<Peer> servers = measurable.stream().map(nodes::get)
                    .flatMap(n -> Peer.of(n, spec.getAddressType()).stream()).toList();
            return LatencyPairing.ring(clients, servers);
        }
        List<Peer> references = nodes.values().stream()
                .filter(n -> NodeSelection.matches(spec.getReferenceNodeSelector(), n.getMetadata().getLabels()))
                .filter(n -> NodeSelection.whyNotProbeable(n).isEmpty())
                .flatMap(n -> Peer.of(n, spec.getAddressType()).stream())
                .toList();
        return LatencyPairing.references(clients, references);
    }

    private Void delete(Pod pod) {
        writes.deletePod(pod);
        return null;
    }
}
