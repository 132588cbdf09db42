package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
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
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.Conditions;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbePod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One plan for the whole profile from one {@link ProfileSnapshot} and the clock: each node's
 * probe ({@link NodeProbePlanner}) and latency measurement ({@link LatencyPlanner}) decided, their
 * verdicts merged in memory into the writes that store them, and the measurements that are due
 * started within one {@link ProbeSlots} budget — the nodes' own probes first (the longest-waiting
 * first), then new latency rounds. Pure: no API calls, so "these objects and this clock give these
 * writes" is a plain unit test.
 */
final class ProfilePlanner {

    /** Wake at least this often: a cheap safety net for anything a missed event could leave waiting. */
    static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private final ProfileSnapshot snapshot;
    private final RdmaStorageProfile profile;
    private final ProfileSettings settings;
    private final OperatorConfig config;
    private final long generation;
    private final Instant now;
    private final ProbeSlots slots;
    private final Map<String, NodeDraft> drafts = new LinkedHashMap<>();
    private final List<Pod> deletes = new ArrayList<>();
    private final List<Pod> creates = new ArrayList<>();
    private Instant wakeAt;
    private int waiting;

    private ProfilePlanner(ProfileSnapshot snapshot, OperatorConfig config, Instant now) {
        this.snapshot = snapshot;
        this.profile = snapshot.profile();
        this.settings = snapshot.settings();
        this.config = config;
        this.generation = snapshot.generation();
        this.now = now;
        this.slots = new ProbeSlots(settings.maxConcurrentProbes());
        this.wakeAt = now.plus(MAX_WAIT);
    }

    static ProfilePlan plan(ProfileSnapshot snapshot, OperatorConfig config, Instant now) {
        return new ProfilePlanner(snapshot, config, now).plan();
    }

    private ProfilePlan plan() {
        List<ProbeCandidate> probes = planNodeProbes();
        List<LatencyPlan> latency = planLatency();
        startProbes(probes);
        startLatencyServers(latency);
        deletes.addAll(snapshot.strays());
        List<ProfilePlan.NodeChange> nodes = new ArrayList<>(drafts.size());
        drafts.values().forEach(d -> nodes.add(d.change()));
        return new ProfilePlan(nodes, deletes, creates, wakeAt, waiting);
    }

    // ---------------------------------------------------------------- the nodes' own probes

    private record ProbeCandidate(String node, NodeProbePlan.ProbeStart start) {
    }

    private List<ProbeCandidate> planNodeProbes() {
        List<ProbeCandidate> candidates = new ArrayList<>();
        for (String node : snapshot.concerned()) {
            List<Pod> pods = snapshot.probePods().getOrDefault(node, List.of());
            RdmaStorageNode stored = snapshot.storageNodes().get(node);
            NodeProbePlan plan = NodeProbePlanner.plan(node, snapshot.nodes().get(node), snapshot.matching().contains(node),
                    snapshot.whyNotProbeable(node), stored, pods, generation, settings, now);
            NodeDraft draft = new NodeDraft(node, stored);
            drafts.put(node, draft);
            draft.deletes.addAll(plan.stalePods());
            if (plan.forget()) {
                draft.forget = true;
                continue;
            }
            slots.hold(pods.size() - plan.harvests().size() - plan.stalePods().size());
            for (NodeProbePlan.Harvest harvest : plan.harvests()) {
                RdmaStorageNodeStatus next = harvested(draft, harvest);
                next.setProbeRound(harvest.round());
                draft.write(next, List.of(harvest.pod()));
            }
            plan.notProbed().ifPresent(why -> draft.write(NodeVerdicts.notProbed(profile.getSpec(), generation, node,
                    why, now), List.of()));
            if (plan.expire() && draft.status != null) {
                draft.write(NodeVerdicts.expire(draft.status, now, settings.expiry()), List.of());
            }
            plan.probe().ifPresent(start -> candidates.add(new ProbeCandidate(node, start)));
            plan.wakeAt().ifPresent(this::wakeBy);
        }
        return candidates;
    }

    private RdmaStorageNodeStatus harvested(NodeDraft draft, NodeProbePlan.Harvest harvest) {
        Pod pod = harvest.pod();
        ProbePod probePod = new ProbePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), draft.node);
        if (harvest.outcome() instanceof ProbeOutcome.Finished finished) {
            return NodeVerdicts.fromTermination(profile.getSpec(), harvest.generation(), probePod, finished.exitCode(),
                    null, finished.terminationMessage(), finished.finishedAt());
        }
        ProbeFailure failure = ProbeFailure.of(probePod, harvest.outcome(), settings.nodeProbeTimeout());
        draft.probeFailures.add(failure.reason());
        return NodeVerdicts.fromFailure(profile.getSpec(), harvest.generation(), probePod, failure, now);
    }

    /** The longest-waiting nodes first (never probed before all), within the slots left. */
    private void startProbes(List<ProbeCandidate> candidates) {
        candidates.sort(Comparator.comparing((ProbeCandidate c) -> c.start().lastProbe(),
                Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(ProbeCandidate::node));
        for (ProbeCandidate c : candidates) {
            if (slots.take(1)) {
                creates.add(ProbePodFactory.build(profile, c.node(), c.start().round(), config));
            } else {
                waiting++;
            }
        }
    }

    // ---------------------------------------------------------------- latency pairs

    private List<LatencyPlan> planLatency() {
        LatencyCheckSpec spec = profile.getSpec().getLatency();
        if (spec == null) {
            // the section was removed: its rounds under way end here
            snapshot.latencyPods().forEach(p -> deletes.add(p.pod()));
            return List.of();
        }
        LatencyPairing pairing = pairing(spec);
        Map<String, List<LatencyPod>> byClient = new HashMap<>();
        for (LatencyPod p : snapshot.latencyPods()) {
            if (snapshot.matching().contains(p.clientNode())) {
                byClient.computeIfAbsent(p.clientNode(), n -> new ArrayList<>()).add(p);
            } else {
                deletes.add(p.pod()); // its node left the profile: its measurement is moot
            }
        }
        List<LatencyPlan> plans = new ArrayList<>(snapshot.matching().size());
        for (String node : snapshot.matching()) {
            NodeDraft draft = drafts.get(node);
            LatencyPlan plan = LatencyPlanner.plan(node, snapshot.measurable(node), draft.status,
                    byClient.getOrDefault(node, List.of()), pairing.peersOf(node), snapshot.nodes().keySet(), generation,
                    settings, now);
            plans.add(plan);
            slots.hold(plan.inFlight());
            plan.startClient().ifPresent(server -> creates.add(LatencyPods.client(profile, server, config)));
            if (plan.verdict().isPresent()) {
                LatencyVerdicts.Part v = plan.verdict().get();
                draft.write(NodeVerdicts.withLatency(profile.getSpec(), draft.status, v.condition(), v.result(),
                        generation, now), plan.deletes());
            } else {
                draft.deletes.addAll(plan.deletes());
            }
            plan.wakeAt().ifPresent(this::wakeBy);
        }
        return plans;
    }

    /**
     * Second attempts always start (their round holds its slots already); new rounds start within
     * the free slots, the longest-waiting nodes first, each server on a free pair of ports.
     */
    private void startLatencyServers(List<LatencyPlan> plans) {
        Set<Pod> deleted = new HashSet<>();
        plans.forEach(p -> deleted.addAll(p.deletes()));
        Map<String, List<Integer>> ports = new HashMap<>(LatencyPods.portsInUse(snapshot.latencyPods().stream()
                .filter(p -> !deleted.contains(p.pod())).toList()));
        List<LatencyPlan.ServerStart> starts = plans.stream().map(LatencyPlan::startServer)
                .flatMap(java.util.Optional::stream)
                .sorted(Comparator.comparingInt((LatencyPlan.ServerStart s) -> -s.attempt())
                        .thenComparingLong(LatencyPlan.ServerStart::round)
                        .thenComparing(LatencyPlan.ServerStart::client))
                .toList();
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
    }

    /** Ring over the measurable nodes, or the reference nodes that can serve now. */
    private LatencyPairing pairing(LatencyCheckSpec spec) {
        List<String> clients = snapshot.matching().stream().filter(snapshot::measurable).toList();
        if (spec.getReferenceNodeSelector() == null) {
            List<Peer> servers = clients.stream().map(snapshot.nodes()::get)
                    .flatMap(n -> Peer.of(n, spec.getAddressType()).stream()).toList();
            return LatencyPairing.ring(clients, servers);
        }
        List<Peer> references = snapshot.nodes().values().stream()
                .filter(n -> NodeSelection.matches(spec.getReferenceNodeSelector(), n.getMetadata().getLabels()))
                .filter(n -> snapshot.probeable(n.getMetadata().getName()))
                .flatMap(n -> Peer.of(n, spec.getAddressType()).stream())
                .toList();
        return LatencyPairing.references(clients, references);
    }

    private void wakeBy(Instant at) {
        wakeAt = Lifecycle.earliest(wakeAt, at);
    }

    // ---------------------------------------------------------------- one node's changes

    /** A node's changes as the plan builds them: its verdict as it will be after each write. */
    private final class NodeDraft {

        final String node;
        final RdmaStorageNode stored;
        final List<Pod> deletes = new ArrayList<>();
        final List<ProfilePlan.VerdictWrite> writes = new ArrayList<>();
        final List<String> probeFailures = new ArrayList<>();
        RdmaStorageNodeStatus status;
        boolean forget;

        NodeDraft(String node, RdmaStorageNode stored) {
            this.node = node;
            this.stored = stored;
            this.status = stored == null ? null : stored.getStatus();
        }

        /** Merges {@code next} over the verdict so far; a write only when that changes it (or there is none yet). */
        void write(RdmaStorageNodeStatus next, List<Pod> thenDelete) {
            RdmaStorageNodeStatus merged = NodeVerdicts.merge(status, next, now);
            boolean exists = stored != null || !writes.isEmpty();
            if (exists && StatusComparison.same(status, merged)) {
                deletes.addAll(thenDelete);
                return;
            }
            writes.add(new ProfilePlan.VerdictWrite(status, merged, List.copyOf(thenDelete),
                    merged.getProbeDurationMillis() != null && next.getLastProbeTime() != null));
            status = merged;
        }

        ProfilePlan.NodeChange change() {
            Node cached = snapshot.nodes().get(node);
            String profileName = profile.getMetadata().getName();
            ProfilePlan.Marking marking = null;
            if (cached != null && forget && NodeMarkings.carriesMarkings(profileName, cached)) {
                marking = new ProfilePlan.Marking(cached, null, true);
            } else if (cached != null && !forget && marks(settings, profileName, cached)) {
                marking = new ProfilePlan.Marking(cached, ready(status), false);
            }
            return new ProfilePlan.NodeChange(node, stored, deletes, writes, probeFailures, forget, marking);
        }
    }

    /** Whether the node's markings for this profile need attention: an option is on, or it carries some. */
    static boolean marks(ProfileSettings settings, String profile, Node node) {
        return settings.nodeLabels() || settings.taintNotReady() || settings.nodeCondition()
                || NodeMarkings.carriesMarkings(profile, node);
    }

    /** The Ready condition of a verdict, for node markings. */
    static Condition ready(RdmaStorageNodeStatus status) {
        return status == null ? null : Conditions.find(status.getConditions(), CheckTypes.READY).orElse(null);
    }
}
