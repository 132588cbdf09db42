package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.LatencyPlanner;
import io.rdmastorage.operator.latency.LatencyPod;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.probe.InvalidProbeSpecException;
import io.rdmastorage.operator.probe.ProbePods;
import io.rdmastorage.operator.probe.ProbeSpecConfigMap;
import io.rdmastorage.operator.probe.ProbeSpecDocument;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.Conditions;
import io.rdmastorage.operator.verdict.ProfileAggregation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an RdmaStorageProfile into probe pods, per-node verdicts and an aggregated status —
 * continuously, event-driven, never blocking on a node:
 * <ol>
 * <li>the probe spec goes to a ConfigMap that the probe pods mount (data, never a shell);</li>
 * <li>each matching node gets a plan ({@link RoundPlanner}): harvest finished probes, mark nodes
 * that cannot be probed, expire stale results, start a probe when due (at most
 * maxConcurrentProbes alive), forget nodes that left the selection;</li>
 * <li>node verdicts are written to RdmaStorageNodes (server-side apply), verdict changes become
 * Events and metrics, and opt-in node markings follow the verdict;</li>
 * <li>the profile's status is the small aggregate, and the next reconcile is scheduled for the
 * earliest due time, probe timeout or expiry.</li>
 * </ol>
 * All state is in the cluster (pods carry their round, verdicts the last harvested round), so a
 * restarted operator adopts running probes and creates no duplicates.
 */
@ControllerConfiguration(name = RdmaStorageProfileReconciler.NAME)
public class RdmaStorageProfileReconciler implements Reconciler<RdmaStorageProfile>, Cleaner<RdmaStorageProfile> {

    public static final String NAME = "rdmastorageprofile";
    private static final Logger LOG = LoggerFactory.getLogger(RdmaStorageProfileReconciler.class);
    private static final String NODES = "nodes";
    /** Wake at least this often: a cheap safety net for anything a missed event could leave waiting. */
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private final OperatorConfig config;
    private final OperatorMetrics metrics;
    private final Clock clock;

    public RdmaStorageProfileReconciler(OperatorConfig config, OperatorMetrics metrics, Clock clock) {
        this.config = config;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public List<EventSource<?, RdmaStorageProfile>> prepareEventSources(EventSourceContext<RdmaStorageProfile> context) {
        // A node concerns every profile whose selector matches it, before or after a label change:
        // map it to all profiles (they are few) and let each reconcile filter by its selector.
        SecondaryToPrimaryMapper<Node> allProfiles = node -> context.getPrimaryCache().list()
                .map(ResourceID::fromResource).collect(Collectors.toSet());
        var nodes = new InformerEventSource<>(InformerEventSourceConfiguration.from(Node.class, RdmaStorageProfile.class)
                .withName(NODES)
                .withSecondaryToPrimaryMapper(allProfiles)
                .withOnUpdateFilter((after, before) -> NodeSelection.relevantChange(before, after))
                .withItemStore(new LeanItemStore<>())
                .build(), context);
        var pods = new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, RdmaStorageProfile.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR + "," + Labels.COMPONENT + "=" + Labels.COMPONENT_NODE_PROBE)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .withItemStore(new LeanItemStore<>())
                .build(), context);
        var verdicts = new InformerEventSource<>(InformerEventSourceConfiguration.from(RdmaStorageNode.class,
                        RdmaStorageProfile.class)
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .withItemStore(new LeanItemStore<>())
                .build(), context);
        var specs = new InformerEventSource<>(InformerEventSourceConfiguration.from(ConfigMap.class, RdmaStorageProfile.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .build(), context);
        return List.of(nodes, pods, verdicts, specs);
    }

    private static Set<ResourceID> byProfileLabel(HasMetadata resource) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        String profile = labels == null ? null : labels.get(Labels.PROFILE);
        return profile == null ? Set.of() : Set.of(new ResourceID(profile));
    }

    @Override
    public UpdateControl<RdmaStorageProfile> reconcile(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        Instant now = clock.instant();
        String name = profile.getMetadata().getName();
        long generation = profile.getMetadata().getGeneration();
        ProfileSettings settings = ProfileSettings.of(profile.getSpec());
        ClusterWrites writes = new ClusterWrites(context.getClient());

        ProbeSpecDocument document;
        try {
            document = ProbeSpecDocument.of(profile.getSpec());
        } catch (InvalidProbeSpecException e) {
            // the CRD schema should have refused it; never let it reach a privileged pod
            return statusUpdate(profile, InvalidSpec.status(profile, e, now), now.plus(MAX_WAIT), now);
        }
        ensureSpecConfigMap(profile, document, context, writes);

        Map<String, Node> nodes = nodeCache(context);
        Map<String, RdmaStorageNode> verdicts = context.getSecondaryResourcesAsStream(RdmaStorageNode.class)
                .filter(v -> v.getSpec() != null && v.getSpec().getNodeName() != null)
                .collect(Collectors.toMap(v -> v.getSpec().getNodeName(), v -> v, (a, b) -> a));
        Map<String, List<Pod>> pods = new HashMap<>();
        List<LatencyPod> latencyPods = new ArrayList<>();
        List<Pod> strays = new ArrayList<>(); // latency pods whose marks do not read back: never harvested
        context.getSecondaryResourcesAsStream(Pod.class)
                .filter(p -> p.getSpec() != null && p.getSpec().getNodeName() != null)
                .forEach(p -> {
                    if (p.getMetadata().getLabels() != null && p.getMetadata().getLabels().containsKey(LatencyPods.ROLE)) {
                        LatencyPod.of(p).ifPresentOrElse(latencyPods::add, () -> strays.add(p));
                    } else {
                        pods.computeIfAbsent(p.getSpec().getNodeName(), n -> new ArrayList<>()).add(p);
                    }
                });

        Set<String> concerned = new TreeSet<>(verdicts.keySet());
        concerned.addAll(pods.keySet());
        List<String> matching = new ArrayList<>();
        for (Node node : nodes.values()) {
            if (NodeSelection.matches(profile.getSpec().getNodeSelector(), node.getMetadata().getLabels())) {
                matching.add(node.getMetadata().getName());
            }
        }
        concerned.addAll(matching);
        Set<String> matchingSet = Set.copyOf(matching);

        VerdictEvents events = new VerdictEvents(context.getClient());
        NodeWork work = new NodeWork(profile, settings, writes, new NodeMarkings(context.getClient()), events, metrics, now);
        Instant wakeAt = now.plus(MAX_WAIT);
        int alive = 0;
        List<Candidate> candidates = new ArrayList<>();
        List<NodePlan> plans = new ArrayList<>(concerned.size());
        for (String node : concerned) {
            List<Pod> nodePods = pods.getOrDefault(node, List.of());
            NodePlan plan = RoundPlanner.plan(node, nodes.get(node), matchingSet.contains(node), verdicts.get(node),
                    nodePods, generation, settings, now);
            plans.add(plan);
            if (!plan.forget()) {
                alive += nodePods.size() - plan.harvests().size() - plan.stalePods().size();
            }
            plan.probe().ifPresent(start -> candidates.add(new Candidate(node, start)));
            if (plan.wakeAt().isPresent() && plan.wakeAt().get().isBefore(wakeAt)) {
                wakeAt = plan.wakeAt().get();
            }
        }
        // nodes are independent: carry out their plans a few at a time
        List<Optional<RdmaStorageNode>> after = ConcurrentWrites.map(plans, plan -> Optional.ofNullable(
                work.carryOut(plan, nodes.get(plan.node()), verdicts.get(plan.node()))));
        Map<String, RdmaStorageNode> current = new HashMap<>();
        Set<String> measurable = new HashSet<>();
        for (int i = 0; i < plans.size(); i++) {
            NodePlan plan = plans.get(i);
            if (!plan.forget()) {
                after.get(i).ifPresent(v -> current.put(plan.node(), v));
                if (NodeSelection.whyNotProbeable(nodes.get(plan.node())).isEmpty()) {
                    measurable.add(plan.node());
                }
            }
        }

        // the longest-waiting nodes first (never probed before all), within the concurrency bound
        candidates.sort(Comparator.comparing((Candidate c) -> c.start().lastProbe(),
                Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(Candidate::node));
        // a latency measurement under way holds two slots (its server and its client)
        int latencyHeld = LatencyPlanner.PODS_PER_ROUND
                * (int) latencyPods.stream().map(LatencyPod::clientNode).distinct().count();
        int slots = Math.max(0, settings.maxConcurrentProbes() - alive - latencyHeld);
        ConcurrentWrites.map(candidates.subList(0, Math.min(slots, candidates.size())), c -> {
            writes.createPod(ProbePods.build(profile, c.node(), c.start().round(), config));
            return c;
        });
        if (candidates.size() > slots) {
            LOG.debug("profile {}: {} nodes wait for a probe slot ({} of {} in use)", name, candidates.size() - slots,
                    alive, settings.maxConcurrentProbes());
        }
        // latency pairs share the probe slots, after the nodes' own probes
        int latencySlots = slots - Math.min(slots, candidates.size()) + latencyHeld;
        Optional<Instant> latencyWake = new LatencyRounds(profile, settings, config, writes, work, now)
                .run(nodes, matchingSet, measurable, latencyPods, current, latencySlots);
        if (latencyWake.isPresent() && latencyWake.get().isBefore(wakeAt)) {
            wakeAt = latencyWake.get();
        }
        strays.forEach(writes::deletePod);

        List<ProfileAggregation.NodeVerdict> verdictsOfMatching = new ArrayList<>(matching.size());
        for (String node : matching) {
            RdmaStorageNode verdict = current.get(node);
            verdictsOfMatching.add(new ProfileAggregation.NodeVerdict(node, verdict == null ? null : verdict.getStatus()));
        }
        RdmaStorageProfileStatus status = ProfileAggregation.aggregateVerdicts(profile.getSpec(), generation,
                verdictsOfMatching, profile.getStatus(), now);
        metrics.updateProfile(name, status.getNodes(), OperatorMetrics.countChecks(current.values().stream()
                .map(RdmaStorageNode::getStatus).filter(Objects::nonNull).map(RdmaStorageNodeStatus::getConditions)
                .toList()));
        events.recordProfileChange(profile, profile.getStatus(), status);
        return statusUpdate(profile, status, wakeAt, now);
    }

    private record Candidate(String node, NodePlan.ProbeStart start) {
    }

    /** Patches the status only when it changed (a no-op patch is still an API request), then waits. */
    private static UpdateControl<RdmaStorageProfile> statusUpdate(RdmaStorageProfile profile, RdmaStorageProfileStatus status,
                                                                  Instant wakeAt, Instant now) {
        long delay = Math.max(1_000, Duration.between(now, wakeAt).toMillis());
        if (StatusComparison.same(profile.getStatus(), status)) {
            return UpdateControl.<RdmaStorageProfile>noUpdate().rescheduleAfter(delay);
        }
        // no resourceVersion: the status is ours alone and recomputed on every reconcile, so a
        // conflict (e.g. with our own finalizer patch) would only cost a retry
        RdmaStorageProfile patch = new RdmaStorageProfile();
        patch.setMetadata(new ObjectMetaBuilder().withName(profile.getMetadata().getName()).build());
        patch.setStatus(status);
        return UpdateControl.patchStatus(patch).rescheduleAfter(delay);
    }

    private void ensureSpecConfigMap(RdmaStorageProfile profile, ProbeSpecDocument document,
                                     Context<RdmaStorageProfile> context, ClusterWrites writes) {
        String wanted = ProbeSpecConfigMap.name(profile.getMetadata().getName());
        boolean current = context.getSecondaryResourcesAsStream(ConfigMap.class)
                .filter(cm -> wanted.equals(cm.getMetadata().getName()))
                .anyMatch(cm -> cm.getMetadata().getAnnotations() != null && document.sha256()
                        .equals(cm.getMetadata().getAnnotations().get(ProbeSpecConfigMap.SPEC_HASH_ANNOTATION)));
        if (!current) {
            writes.applySpecConfigMap(ProbeSpecConfigMap.build(profile, document, config));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Node> nodeCache(Context<RdmaStorageProfile> context) {
        InformerEventSource<Node, RdmaStorageProfile> source = (InformerEventSource<Node, RdmaStorageProfile>)
                context.eventSourceRetriever().getEventSourceFor(Node.class, NODES);
        return source.list().collect(Collectors.toMap(n -> n.getMetadata().getName(), n -> n, (a, b) -> a));
    }

    /**
     * Deleting a profile removes its probe pods, verdicts, spec ConfigMap and node markings. The
     * API server's garbage collector would remove owned objects too, but not the node markings;
     * doing it here also works where no garbage collector runs.
     */
    @Override
    public DeleteControl cleanup(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        String name = profile.getMetadata().getName();
        ClusterWrites writes = new ClusterWrites(context.getClient());
        NodeMarkings markings = new NodeMarkings(context.getClient());
        context.getSecondaryResourcesAsStream(Pod.class).forEach(writes::deletePod);
        context.getSecondaryResourcesAsStream(RdmaStorageNode.class).forEach(writes::deleteVerdict);
        for (Node node : nodeCache(context).values()) {
            if (NodeMarkings.carriesMarkings(name, node)) {
                markings.remove(name, node);
            }
        }
        context.getClient().configMaps().inNamespace(config.namespace()).withName(ProbeSpecConfigMap.name(name)).delete();
        metrics.removeProfile(name);
        LOG.info("profile {} deleted: its probe pods, verdicts and node markings are removed", name);
        return DeleteControl.defaultDelete();
    }

    /** The Ready condition of a verdict, for node markings. */
    static Condition ready(RdmaStorageNodeStatus status) {
        return status == null ? null : Conditions.find(status.getConditions(), CheckTypes.READY).orElse(null);
    }
}
