package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.FleetSpec;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.LatencyPlan;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.latency.PairProbePlanner;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.measurement.ProbeSlots;
import io.rdmastorage.operator.measurement.StatusComparison;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.CounterBaselineHandover;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.verdict.FleetDistribution;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbePod;
import io.rdmastorage.operator.verdict.ReportTrust;
import io.rdmastorage.operator.verdict.VerdictDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One plan for the whole profile from one {@link ProfileSnapshot} and the clock: each node's
 * probe ({@link NodeProbePlanner}) and latency pairs ({@link PairProbePlanner}) decided, their
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
    private PairProbePlanner pairs;
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
        FleetDistribution fleet = planFleet();
        startProbes(probes);
        startLatencyServers(latency);
        deletes.addAll(snapshot.strays());
        List<ProfilePlan.NodeChange> nodes = new ArrayList<>(drafts.size());
        drafts.values().forEach(d -> nodes.add(d.change()));
        return new ProfilePlan(nodes, deletes, creates, wakeAt, waiting, fleet);
    }

    // ---------------------------------------------------------------- the fleet comparison

    /**
     * The matching nodes' inventory facts as this plan leaves them (harvests included), compared:
     * each node's MatchesFleet goes into the write it gets anyway, and only a node whose MatchesFleet
     * (or Ready) changes without one gets a write of its own — a few minority nodes, not every node
     * every round. A node that left the selection is not a member, so its values are gone.
     */
    private FleetDistribution planFleet() {
        List<FleetDistribution.Member> members = new ArrayList<>(snapshot.matching().size());
        for (String node : snapshot.matching()) {
            RdmaStorageNodeStatus status = drafts.get(node).status;
            members.add(new FleetDistribution.Member(node, status == null ? Map.of() : status.getInventory()));
        }
        FleetDistribution fleet = FleetDistribution.of(members, Set.copyOf(FleetSpec.allowMixed(profile.getSpec())));
        for (String node : snapshot.matching()) {
            NodeDraft draft = drafts.get(node);
            if (draft.status == null || draft.forget) {
                continue;   // no verdict yet: MatchesFleet comes with its first one
            }
            Condition matches = fleet.matchesFleet(draft.status.getInventory(), generation, now);
            if (draft.writes.isEmpty() && says(draft.status, matches)) {
                continue;   // stored as it is, Ready worked out with it: the common case, without a comparison of whole statuses
            }
            draft.amend(NodeVerdicts.withFleet(profile.getSpec(), draft.stored == null ? null : draft.stored.getStatus(),
                    draft.status, matches, now));
        }
        return fleet;
    }

    // ---------------------------------------------------------------- the nodes' own probes

    private record ProbeCandidate(String node, NodeProbePlan.ProbeStart start) {
    }

    private List<ProbeCandidate> planNodeProbes() {
        List<ProbeCandidate> candidates = new ArrayList<>();
        for (String node : snapshot.concerned()) {
            List<Pod> pods = snapshot.probePods().getOrDefault(node, List.of());
            RdmaStorageNode stored = snapshot.storageNodes().get(node);
            // a status someone else wrote counts for nothing: planned from its replacement
            RdmaStorageNodeStatus edited = VerdictDigest.matches(stored) ? null
                    : NodeVerdicts.edited(profile.getSpec(), generation, stored.getStatus().getProbeRound(), now);
            NodeProbePlan plan = NodeProbePlanner.plan(node, snapshot.nodes().get(node), snapshot.matching().contains(node),
                    snapshot.whyNotProbeable(node), edited == null ? stored : withStatus(stored, edited), pods,
                    generation, settings, now);
            NodeDraft draft = new NodeDraft(node, stored);
            drafts.put(node, draft);
            draft.deletes.addAll(plan.stalePods());
            if (plan.forget()) {
                draft.forget = true;
                continue;
            }
            if (edited != null) {
                draft.discard();
                draft.write(edited, List.of());
            }
            slots.hold(pods.size() - plan.harvests().size() - plan.stalePods().size());
            for (NodeProbePlan.Harvest harvest : plan.harvests()) {
                RdmaStorageNodeStatus next = harvested(draft, harvest);
                next.setProbeRound(harvest.round());
                draft.write(next, List.of(harvest.pod()));
            }
            plan.notProbed().ifPresent(why -> draft.write(notProbed(draft.status, why, node), List.of()));
            if (plan.expire() && draft.status != null) {
                draft.write(NodeVerdicts.expire(draft.status, now, settings.expiry()), List.of());
            }
            plan.probe().ifPresent(start -> candidates.add(new ProbeCandidate(node, start)));
            plan.wakeAt().ifPresent(this::wakeBy);
        }
        return candidates;
    }

    private static RdmaStorageNode withStatus(RdmaStorageNode stored, RdmaStorageNodeStatus status) {
        RdmaStorageNode copy = new RdmaStorageNode();
        copy.setMetadata(stored.getMetadata());
        copy.setSpec(stored.getSpec());
        copy.setStatus(status);
        return copy;
    }

    private RdmaStorageNodeStatus harvested(NodeDraft draft, NodeProbePlan.Harvest harvest) {
        Pod pod = harvest.pod();
        ProbePod probePod = new ProbePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), draft.node);
        if (harvest.outcome() instanceof ProbeOutcome.Finished finished) {
            ReportTrust trust = ReportTrust.of(probePod, finished.exitCode(), null, finished.terminationMessage());
            if (trust instanceof ReportTrust.Untrusted untrusted) {
                // a report that cannot be trusted (missing, unparseable, another node's) is a failed probe too
                draft.probeFailures.add(untrusted.failure().reason());
            }
            return NodeVerdicts.fromTrust(profile.getSpec(), harvest.generation(), generation, probePod, trust,
                    finished.finishedAt());
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
                // the verdict as this plan leaves it holds the previous round's counters
                creates.add(ProbePodFactory.build(profile, c.node(), c.start().round(), config,
                        CounterBaselineHandover.of(profile.getSpec(), drafts.get(c.node()).status)));
            } else {
                waiting++;
            }
        }
    }

    // ---------------------------------------------------------------- latency pairs

    /** The pairs' plans ({@link PairProbePlanner}), each node's verdict folded into its draft. */
    private List<LatencyPlan> planLatency() {
        LatencyCheckSpec spec = profile.getSpec().getLatency();
        if (spec == null) {
            // the section was removed: its rounds under way end here
            snapshot.latencyPods().forEach(p -> deletes.add(p.pod()));
            return List.of();
        }
        pairs = new PairProbePlanner(profile, spec, snapshot.matching(), snapshot::probeable, snapshot.nodes(),
                snapshot.latencyPods(), NodeSelection::matches);
        PairProbePlanner.Rounds rounds = pairs.plan(node -> drafts.get(node).status, slots, config, generation, settings,
                now);
        deletes.addAll(rounds.deletes());
        creates.addAll(rounds.clients());
        for (LatencyPlan plan : rounds.plans()) {
            NodeDraft draft = drafts.get(plan.node());
            if (plan.verdict().isPresent()) {
                LatencyVerdicts.Decision v = plan.verdict().get();
                draft.write(LatencyVerdicts.withLatency(profile.getSpec(), draft.status, v.condition(), v.result(),
                        generation, now), plan.deletes());
            } else {
                draft.deletes.addAll(plan.deletes());
            }
            plan.wakeAt().ifPresent(this::wakeBy);
        }
        return rounds.plans();
    }

    private void startLatencyServers(List<LatencyPlan> plans) {
        if (pairs != null) {
            PairProbePlanner.Servers servers = pairs.startServers(plans, slots, config);
            creates.addAll(servers.creates());
            waiting += servers.waiting();
        }
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
        boolean discard;

        NodeDraft(String node, RdmaStorageNode stored) {
            this.node = node;
            this.stored = stored;
            this.status = stored == null ? null : stored.getStatus();
        }

        /** The stored verdict goes (deleted, then written anew): nothing of it is merged into what follows. */
        void discard() {
            discard = true;
            status = null;
        }

        /** Merges {@code next} over the verdict so far; a write only when that changes it (or there is none yet). */
        void write(RdmaStorageNodeStatus next, List<Pod> thenDelete) {
            RdmaStorageNodeStatus merged = NodeVerdicts.merge(status, next, now);
            boolean exists = stored != null && !discard || !writes.isEmpty();
            if (exists && StatusComparison.same(status, merged)) {
                deletes.addAll(thenDelete);
                return;
            }
            writes.add(new ProfilePlan.VerdictWrite(status, merged, List.copyOf(thenDelete),
                    merged.getProbeDurationMillis() != null && next.getLastProbeTime() != null));
            status = merged;
        }

        /**
         * {@code next} as the verdict to store, folded into this plan's last write for the node
         * (no request of its own), or a write of its own when there is none and it changes something.
         */
        void amend(RdmaStorageNodeStatus next) {
            if (StatusComparison.same(status, next)) {
                return;
            }
            if (writes.isEmpty()) {
                writes.add(new ProfilePlan.VerdictWrite(status, next, List.of(), false));
            } else {
                ProfilePlan.VerdictWrite last = writes.remove(writes.size() - 1);
                writes.add(new ProfilePlan.VerdictWrite(last.previous(), next, last.thenDelete(), last.probeDuration()));
            }
            status = next;
        }

        ProfilePlan.NodeChange change() {
            Node cached = snapshot.nodes().get(node);
            String profileName = profile.getMetadata().getName();
            ProfilePlan.Marking marking = null;
            if (cached != null && forget && NodeMarkings.carriesMarkings(profileName, cached)) {
                marking = new ProfilePlan.Marking(cached, null, true);
            } else if (!forget) {
                marking = ProfilePlan.Marking.following(settings, profileName, cached, status, now);
            }
            return new ProfilePlan.NodeChange(node, stored, deletes, writes, probeFailures, forget, discard, marking);
        }
    }

    /**
     * The verdict of a node that cannot be probed now; one an acceptance run holds keeps its last
     * probe's time, from which its markings expire as any result's do ({@link ProfilePlan.Marking#following}).
     */
    private RdmaStorageNodeStatus notProbed(RdmaStorageNodeStatus stored, NotProbed why, String node) {
        RdmaStorageNodeStatus status = NodeVerdicts.notProbed(profile.getSpec(), generation, node, why, now);
        if (why == NotProbed.ACCEPTANCE_RUN_IN_PROGRESS && stored != null) {
            status.setLastProbeTime(stored.getLastProbeTime());
        }
        return status;
    }

    /** Whether the status holds {@code c}'s type with its status, reason and message already. */
    private static boolean says(RdmaStorageNodeStatus status, Condition c) {
        return Conditions.find(status.getConditions(), c.getType())
                .filter(stored -> c.getStatus().equals(stored.getStatus()) && c.getReason().equals(stored.getReason())
                        && c.getMessage().equals(stored.getMessage()))
                .isPresent();
    }

    /** Whether the verdict only stands in for an edit it replaced ({@link ProfilePlan.Marking#replacesAnEdit}). */
    static boolean replacesAnEdit(RdmaStorageNodeStatus status) {
        return ProfilePlan.Marking.replacesAnEdit(status);
    }
}
