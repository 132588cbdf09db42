package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.cluster.LeanItemStore;
import io.rdmastorage.operator.cluster.CachedVerdict;
import io.rdmastorage.operator.cluster.ClusterWrites;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.rdmastorage.operator.acceptance.AcceptanceTransportHolds;
import io.rdmastorage.operator.api.FleetSpec;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.measurement.StatusPatch;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.metrics.VerdictCounts;
import io.rdmastorage.operator.metrics.StorageRailCounts;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.events.EventWriter;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.quarantine.DeviceQuarantine;
import io.rdmastorage.operator.quarantine.QuarantineNotices;
import io.rdmastorage.operator.probe.InvalidProbeSpecException;
import io.rdmastorage.operator.probe.ProbeSpecConfigMap;
import io.rdmastorage.operator.probe.ProbeSpecDocument;
import io.rdmastorage.operator.verdict.FleetDistribution;
import io.rdmastorage.operator.verdict.ProfileAggregation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an RdmaStorageProfile into probe pods, per-node verdicts and an aggregated status —
 * continuously, event-driven, never blocking on a node:
 * <ol>
 * <li>the probe spec goes to a ConfigMap that the probe pods mount (data, never a shell);</li>
 * <li><b>observe</b>: one {@link ProfileSnapshot} of the nodes, verdicts and probe pods;</li>
 * <li><b>plan</b>: one {@link ProfilePlan} for the whole profile ({@link ProfilePlanner}): harvest
 * finished probes and latency rounds, mark nodes that cannot be probed, expire stale results, start
 * the measurements that are due within one slot budget (maxConcurrentProbes), forget nodes that
 * left the selection;</li>
 * <li><b>write</b>: {@link PlanExecutor} writes the verdicts to RdmaStorageNodes (server-side
 * apply), verdict changes become Events and metrics, opt-in node markings follow the verdict, pods
 * are deleted and created;</li>
 * <li><b>aggregate</b>: the profile's status is the small aggregate, and the next reconcile is
 * scheduled for the earliest due time, probe timeout or expiry.</li>
 * </ol>
 * All state is in the cluster (pods carry their round, verdicts the last harvested round), so a
 * restarted operator adopts running probes and creates no duplicates.
 */
@ControllerConfiguration(name = RdmaStorageProfileReconciler.NAME)
public class RdmaStorageProfileReconciler implements Reconciler<RdmaStorageProfile>, Cleaner<RdmaStorageProfile> {

    public static final String NAME = "rdmastorageprofile";
    private static final Logger LOG = LoggerFactory.getLogger(RdmaStorageProfileReconciler.class);
    private static final String NODES = "nodes";
    private static final String ACCEPTANCE_RUNS = "acceptance-runs";
    /**
     * Objects per page when the node, pod and verdict informers list (at start, and after a watch
     * expired): an answer is parsed whole, managedFields and images included, before the cache
     * trims one object of it. 10,000 Nodes in one answer took more than a 256 MiB heap; a page
     * of 500 takes a few MiB, and costs the API server one request more per 500 objects.
     */
    static final long LIST_PAGE = 500;

    private final OperatorConfig config;
    private final OperatorMetrics metrics;
    private final Clock clock;
    /** One for the operator's life: it remembers which DeviceTaintRule API the server serves. */
    private final AtomicReference<DeviceQuarantine> quarantine = new AtomicReference<>();

    public RdmaStorageProfileReconciler(OperatorConfig config, OperatorMetrics metrics, Clock clock) {
        this.config = config;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public List<EventSource<?, RdmaStorageProfile>> prepareEventSources(EventSourceContext<RdmaStorageProfile> context) {
        // A node concerns every profile whose selector matches it, before or after a label change:
        // map it to all profiles (they are few) and let each reconcile filter by its selector. Our
        // own verdict labels count only where they move the node into or out of a selection (a
        // profile selecting by another's verdict); otherwise they would only echo our writes.
        var nodes = new InformerEventSource<>(InformerEventSourceConfiguration.from(Node.class, RdmaStorageProfile.class)
                .withName(NODES)
                .withSecondaryToPrimaryMapper(node -> everyProfile(context))
                .withOnUpdateFilter((after, before) -> NodeSelection.relevantToProfiles(before, after,
                        context.getPrimaryCache().list().toList()))
                .withItemStore(new LeanItemStore<>(CachedNode::trim))
                .withInformerListLimit(LIST_PAGE)
                .build(), context);
        var pods = new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, RdmaStorageProfile.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR + "," + Labels.COMPONENT + "=" + Labels.COMPONENT_NODE_PROBE)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .withItemStore(new LeanItemStore<>(CachedProbePod::trim))
                .withInformerListLimit(LIST_PAGE)
                .build(), context);
        var verdicts = new InformerEventSource<>(InformerEventSourceConfiguration.from(RdmaStorageNode.class,
                        RdmaStorageProfile.class)
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .withItemStore(new LeanItemStore<>(CachedVerdict::trim))
                .withInformerListLimit(LIST_PAGE)
                .build(), context);
        var specs = new InformerEventSource<>(InformerEventSourceConfiguration.from(ConfigMap.class, RdmaStorageProfile.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR)
                .withSecondaryToPrimaryMapper(RdmaStorageProfileReconciler::byProfileLabel)
                .build(), context);
        // an acceptance run that takes or gives back a node's transport changes whether it is probed
        var runs = new InformerEventSource<>(InformerEventSourceConfiguration.from(RdmaStorageAcceptance.class,
                        RdmaStorageProfile.class)
                .withName(ACCEPTANCE_RUNS)
                .withSecondaryToPrimaryMapper(run -> everyProfile(context))
                .withOnAddFilter(run -> AcceptanceTransportHolds.heldNode(run).isPresent())
                .withOnUpdateFilter((after, before) -> !AcceptanceTransportHolds.heldNode(after)
                        .equals(AcceptanceTransportHolds.heldNode(before)))
                .withOnDeleteFilter((run, unknownState) -> AcceptanceTransportHolds.heldNode(run).isPresent())
                .build(), context);
        return List.of(nodes, pods, verdicts, specs, runs);
    }

    private static Set<ResourceID> everyProfile(EventSourceContext<RdmaStorageProfile> context) {
        return context.getPrimaryCache().list().map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    private static Set<ResourceID> byProfileLabel(HasMetadata resource) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        String profile = labels == null ? null : labels.get(Labels.PROFILE);
        return profile == null ? Set.of() : Set.of(new ResourceID(profile));
    }

    /** Observe, plan, write, aggregate (DESIGN.md, "Operator behaviour that users rely on"). */
    @Override
    public UpdateControl<RdmaStorageProfile> reconcile(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        Instant now = clock.instant();
        List<String> broken = FailedReconcile.brokenRules(profile.getSpec());
        if (!broken.isEmpty()) {
            // admitted before its CRD had the rule: say which, keep verdicts expiring, never throw
            // (a retry could not help, only an edit can)
            String why = FailedReconcile.brokenRulesMessage(broken);
            LOG.warn("profile {}: {}", profile.getMetadata().getName(), why);
            Instant wakeAt = keepUpWhileFailing(profile, context, now);
            return StatusPatch.update(profile, FailedReconcile.status(profile, why, now), RdmaStorageProfile::new,
                    Duration.between(now, wakeAt));
        }
        ClusterWrites writes = writes(profile, context);
        ProbeSpecDocument document;
        try {
            document = ProbeSpecDocument.of(profile.getSpec());
        } catch (InvalidProbeSpecException e) {
            // the CRD schema should have refused it; never let it reach a privileged pod
            return StatusPatch.update(profile, InvalidSpec.status(profile, e, now), RdmaStorageProfile::new,
                    ProfilePlanner.MAX_WAIT);
        }
        ensureSpecConfigMap(profile, document, context, writes);

        // observe
        ProfileSnapshot snapshot = ProfileSnapshot.of(profile, nodeCache(context).toList(),
                context.getSecondaryResources(RdmaStorageNode.class), context.getSecondaryResources(Pod.class),
                context.getSecondaryResources(RdmaStorageAcceptance.class));
        // plan
        ProfilePlan plan = ProfilePlanner.plan(snapshot, config, now);
        if (plan.waiting() > 0) {
            LOG.debug("profile {}: {} measurements wait for a probe slot or a free port (maxConcurrentProbes {})",
                    profile.getMetadata().getName(), plan.waiting(), snapshot.settings().maxConcurrentProbes());
        }
        // write
        VerdictEvents events = new VerdictEvents(context.getClient());
        Map<String, RdmaStorageNode> stored = executor(profile, snapshot.settings(), writes, events, context).carryOut(plan);
        if (profile.getSpec().getDeviceTaints() == null && specChanged(profile)) {
            removeDeviceTaints(profile, context);   // deviceTaints switched off: its rules go
        }

        // aggregate
        RdmaStorageProfileStatus status = aggregate(snapshot, stored, plan.fleet(), now);
        writeStatus(profile, status, context);
        // only once the status is stored: a write that failed is retried, and would say it again
        events.recordProfileChange(profile, profile.getStatus(), status);
        return UpdateControl.<RdmaStorageProfile>noUpdate()
                .rescheduleAfter(StatusPatch.atLeastMinWait(Duration.between(now, plan.wakeAt())));
    }

    /**
     * Writes the profile's status, and puts the profile as written into JOSDK's temporary cache of
     * profiles until the informer delivers it (JOSDK 5 does not keep the answer of a status patch
     * it made itself). Without it, a reconcile set off while this one ran (by a probe pod deleted
     * here, say) starts from the status before this write, finds the same transition of Ready
     * again, and says it in a second Event.
     */
    private static void writeStatus(RdmaStorageProfile profile, RdmaStorageProfileStatus status,
                                    Context<RdmaStorageProfile> context) {
        StatusPatch.write(context.getClient(), profile, status, RdmaStorageProfile::new,
                        context.getControllerConfiguration().fieldManager())
                .ifPresent(written -> context.eventSourceRetriever().getControllerEventSource()
                        .handleRecentResourceUpdate(ResourceID.fromResource(profile), written, profile));
    }

    /**
     * A reconcile that failed: the failure becomes the profile's Ready and expired verdicts are
     * written ({@link FailedReconcile}); JOSDK retries as configured. After its last retry the
     * profile is woken for the next expiry, or it would wait for an event that may never come.
     */
    @Override
    public ErrorStatusUpdateControl<RdmaStorageProfile> updateErrorStatus(RdmaStorageProfile profile,
                                                                         Context<RdmaStorageProfile> context,
                                                                         Exception e) {
        if (FailedReconcile.interrupted(e)) {
            return ErrorStatusUpdateControl.noStatusUpdate();   // stopping: the next leader reconciles
        }
        Instant now = clock.instant();
        LOG.warn("profile {}: reconcile failed: {}", profile.getMetadata().getName(), e.toString());
        Instant wakeAt = keepUpWhileFailing(profile, context, now);
        ErrorStatusUpdateControl<RdmaStorageProfile> control = StatusPatch.afterFailure(profile,
                FailedReconcile.status(profile, e, now), RdmaStorageProfile::new);
        boolean retriesLeft = context.getRetryInfo().map(r -> !r.isLastAttempt()).orElse(false);
        return retriesLeft ? control : control.rescheduleAfter(StatusPatch.atLeastMinWait(Duration.between(now, wakeAt)));
    }

    /**
     * What is still done while a profile cannot be reconciled ({@link FailedReconcile#expireStale}):
     * verdicts past their expiry are written as expired, their markings following. Returns when to
     * look again: the next expiry, or {@link ProfilePlanner#MAX_WAIT} from now.
     */
    private Instant keepUpWhileFailing(RdmaStorageProfile profile, Context<RdmaStorageProfile> context, Instant now) {
        Map<String, Node> nodes = nodeCache(context).collect(Collectors.toMap(n -> n.getMetadata().getName(),
                n -> n, (a, b) -> a));
        FailedReconcile.Expiry expiry = FailedReconcile.expireStale(profile,
                context.getSecondaryResources(RdmaStorageNode.class), nodes, now);
        executor(profile, expiry.settings(), writes(profile, context), new VerdictEvents(context.getClient()), context)
                .carryOutEach(expiry.changes());
        return expiry.wakeAt().orElse(now.plus(ProfilePlanner.MAX_WAIT));
    }

    private PlanExecutor executor(RdmaStorageProfile profile, ProfileSettings settings, ClusterWrites writes,
                                  VerdictEvents events, Context<RdmaStorageProfile> context) {
        return new PlanExecutor(profile, settings, writes, new NodeMarkings(context.getClient()), events, metrics,
                quarantine(context), new QuarantineNotices(new EventWriter(context.getClient()), metrics.registry()));
    }

    /**
     * Best effort: a profile's verdicts never wait for its device taints (an API server restarting,
     * a discovery that failed); the rules are listed again at the profile's next spec change, and
     * all of them go with the profile.
     */
    private void removeDeviceTaints(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        try {
            quarantine(context).removeAll(profile.getMetadata().getName());
        } catch (KubernetesClientException e) {
            LOG.warn("profile {}: its device taints are not removed yet: {}", profile.getMetadata().getName(), e.getMessage());
        }
    }

    private DeviceQuarantine quarantine(Context<RdmaStorageProfile> context) {
        return quarantine.updateAndGet(q -> q != null ? q : new DeviceQuarantine(context.getClient()));
    }

    /** Whether the spec changed since the status was written (a change of options, not a new round). */
    private static boolean specChanged(RdmaStorageProfile profile) {
        Long observed = profile.getStatus() == null ? null : profile.getStatus().getObservedGeneration();
        return observed == null || !observed.equals(profile.getMetadata().getGeneration());
    }

    /** The profile's status from its matching nodes' verdicts as stored now, and the metrics that follow it. */
    private RdmaStorageProfileStatus aggregate(ProfileSnapshot snapshot, Map<String, RdmaStorageNode> stored,
                                               FleetDistribution fleet, Instant now) {
        RdmaStorageProfile profile = snapshot.profile();
        List<ProfileAggregation.Member> verdicts = new ArrayList<>(snapshot.matching().size());
        for (String node : snapshot.matching()) {
            RdmaStorageNode verdict = stored.get(node);
            verdicts.add(new ProfileAggregation.Member(node, verdict == null ? null : verdict.getStatus()));
        }
        RdmaStorageProfileStatus status = ProfileAggregation.aggregateVerdicts(profile.getSpec(), snapshot.generation(),
                verdicts, fleet, profile.getStatus(), now);
        List<List<Condition>> conditions = stored.values().stream().map(RdmaStorageNode::getStatus).filter(Objects::nonNull)
                .map(RdmaStorageNodeStatus::getConditions).toList();
        String name = profile.getMetadata().getName();
        metrics.updateProfile(name, status.getNodes(), VerdictCounts.countChecks(conditions));
        metrics.updateCheckReasons(name, VerdictCounts.countCheckReasons(conditions));
        Map<String, RdmaStorageNodeStatus> byNode = new HashMap<>();
        stored.forEach((node, verdict) -> byNode.put(node, verdict == null ? null : verdict.getStatus()));
        metrics.updateVerbsLatency(name, LatencyVerdicts.counting(byNode));
        metrics.updateRecommendedActions(name, VerdictCounts.recommendedActions(byNode));
        metrics.updateFleet(name, fleet.distinctValues(), Set.copyOf(FleetSpec.allowMixed(profile.getSpec())));
        List<RdmaStorageNodeStatus> statuses = stored.values().stream().map(RdmaStorageNode::getStatus)
                .filter(Objects::nonNull).toList();
        metrics.updateTraffic(name, VerdictCounts.storageTraffic(statuses));
        metrics.updateRails(name, StorageRailCounts.of(statuses));
        return status;
    }

    private void ensureSpecConfigMap(RdmaStorageProfile profile, ProbeSpecDocument document,
                                     Context<RdmaStorageProfile> context, ClusterWrites writes) {
        String wanted = ProbeSpecConfigMap.name(profile.getMetadata().getName());
        boolean current = context.getSecondaryResourcesAsStream(ConfigMap.class)
                .filter(cm -> wanted.equals(cm.getMetadata().getName()))
                .anyMatch(cm -> cm.getMetadata().getAnnotations() != null && document.sha256()
                        .equals(cm.getMetadata().getAnnotations().get(ProbeSpecConfigMap.SPEC_HASH_ANNOTATION)));
        if (!current) {
            writes.applyConfigMap(ProbeSpecConfigMap.build(profile, document, config));
        }
    }

    /** The writes of one reconcile, each verdict written visible to the next reconcile at once. */
    @SuppressWarnings("unchecked")
    private static ClusterWrites writes(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        InformerEventSource<RdmaStorageNode, RdmaStorageProfile> verdicts = (InformerEventSource<RdmaStorageNode,
                RdmaStorageProfile>) context.eventSourceRetriever().getEventSourceFor(RdmaStorageNode.class);
        return new ClusterWrites(context.getClient(), verdicts, ResourceID.fromResource(profile));
    }

    @SuppressWarnings("unchecked")
    private static Stream<Node> nodeCache(Context<RdmaStorageProfile> context) {
        InformerEventSource<Node, RdmaStorageProfile> source = (InformerEventSource<Node, RdmaStorageProfile>)
                context.eventSourceRetriever().getEventSourceFor(Node.class, NODES);
        return source.list();
    }

    /**
     * Deleting a profile removes its probe pods, verdicts, spec ConfigMap and node markings. The
     * API server's garbage collector would remove owned objects too, but not the node markings;
     * doing it here also works where no garbage collector runs. The finalizer goes last, by
     * {@link ClusterWrites#removeFinalizer}: a patch of that one entry, which the API server takes
     * even from a profile stored before a rule its spec breaks, and whose retry (JOSDK's, of the
     * whole cleanup) reads the informer's cache, not the API server.
     */
    @Override
    public DeleteControl cleanup(RdmaStorageProfile profile, Context<RdmaStorageProfile> context) {
        String name = profile.getMetadata().getName();
        ClusterWrites writes = new ClusterWrites(context.getClient());
        NodeMarkings markings = new NodeMarkings(context.getClient());
        context.getSecondaryResourcesAsStream(Pod.class).forEach(writes::deletePod);
        context.getSecondaryResourcesAsStream(RdmaStorageNode.class).forEach(writes::deleteVerdict);
        for (Node node : nodeCache(context).toList()) {
            if (NodeMarkings.carriesMarkings(name, node)) {
                markings.remove(name, node);
            }
        }
        quarantine(context).removeAll(name);
        writes.deleteConfigMap(config.namespace(), ProbeSpecConfigMap.name(name));
        metrics.removeProfile(name);
        LOG.info("profile {} deleted: its probe pods, verdicts, node markings and device taints are removed", name);
        writes.removeFinalizer(profile, context.getControllerConfiguration().getFinalizerName());
        return DeleteControl.noFinalizerRemoval();
    }
}
