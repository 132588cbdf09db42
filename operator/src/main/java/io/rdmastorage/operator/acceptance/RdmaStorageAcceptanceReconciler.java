package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.HasMetadata;
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
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.events.EventWriter;
import io.rdmastorage.operator.measurement.StatusPatch;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.cluster.ClusterWrites;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Carries one RdmaStorageAcceptance through Pending → Running → Succeeded or Failed, like a Job,
 * in the shape the profile reconciler has: <b>observe</b> (one {@link AcceptanceSnapshot}),
 * <b>plan</b> (one {@link AcceptancePlan} from {@link AcceptancePlanner}, pure: the rules are
 * there), <b>write</b> ({@link AcceptanceExecutor}), then the status, stamped with its
 * {@link AcceptanceDigest}, through the one status writer profiles use too ({@link StatusPatch}:
 * patched only when it differs). Deleting the run deletes its
 * pod and ConfigMaps (also where no garbage collector runs).
 */
// not generation-aware: an edit of the status alone (no new generation) must reach the reconcile, which
// checks it against its digest; the operator's own status writes cost one reconcile that changes nothing
@ControllerConfiguration(name = RdmaStorageAcceptanceReconciler.NAME, generationAwareEventProcessing = false)
public class RdmaStorageAcceptanceReconciler implements Reconciler<RdmaStorageAcceptance>, Cleaner<RdmaStorageAcceptance> {

    public static final String NAME = "rdmastorageacceptance";

    private final OperatorConfig config;
    private final OperatorMetrics metrics;
    private final AcceptanceGauges gauges;
    private final Clock clock;

    public RdmaStorageAcceptanceReconciler(OperatorConfig config, OperatorMetrics metrics, Clock clock) {
        this.config = config;
        this.metrics = metrics;
        this.gauges = new AcceptanceGauges(metrics);
        this.clock = clock;
        metrics.registerAcceptanceRuns(AcceptanceTarget.NAMES);
    }

    @Override
    public List<EventSource<?, RdmaStorageAcceptance>> prepareEventSources(EventSourceContext<RdmaStorageAcceptance> context) {
        var pods = new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, RdmaStorageAcceptance.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR + "," + Labels.COMPONENT + "=" + AcceptancePods.COMPONENT)
                .withSecondaryToPrimaryMapper(RdmaStorageAcceptanceReconciler::byRunLabel)
                .build(), context);
        return List.of(pods);
    }

    private static Set<ResourceID> byRunLabel(HasMetadata resource) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        String run = labels == null ? null : labels.get(RdmaStorageAcceptance.RUN_LABEL);
        return run == null ? Set.of() : Set.of(new ResourceID(run));
    }

    @Override
    public UpdateControl<RdmaStorageAcceptance> reconcile(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context) {
        AcceptanceSnapshot snapshot = AcceptanceSnapshot.read(run, context, config.namespace());
        AcceptancePlan plan = plan(snapshot, config, clock.instant());
        executor(context).carryOut(run, plan);
        return StatusPatch.update(run, AcceptanceDigest.stamp(run, plan.status()), RdmaStorageAcceptance::new, plan.wakeAfter());
    }

    /** The run's plan: its cleanup's, a kind of its own entered when the run needs cleaning, or else the run's. */
    static AcceptancePlan plan(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        return AcceptanceCleanupKind.due(snapshot.run()) ? AcceptanceCleanupPlanner.plan(snapshot, config, now)
                : AcceptancePlanner.plan(snapshot, config, now);
    }

    /**
     * A deleted run goes once nothing it changed on its node is left to undo
     * ({@link AcceptanceCleanupPlanner#deleting}); until then its cleanup runs, and its status says how.
     */
    @Override
    public DeleteControl cleanup(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context) {
        AcceptanceSnapshot snapshot = AcceptanceSnapshot.read(run, context, config.namespace());
        AcceptancePlan plan = AcceptanceCleanupPlanner.deleting(snapshot, config, clock.instant());
        executor(context).carryOut(run, plan);
        if (plan.step() == AcceptancePlan.Step.DELETED) {
            return DeleteControl.defaultDelete();
        }
        if (plan.status() != null && AcceptanceCleanupKind.harvested(plan.status())) {
            // the cleanup just ended (its Event says how): go now, or a cache that still shows the
            // record would start a second cleanup pod
            executor(context).carryOut(run, AcceptanceCleanupPlanner.deleted(run, config));
            return DeleteControl.defaultDelete();
        }
        StatusPatch.write(context.getClient(), run, AcceptanceDigest.stamp(run, plan.status()), RdmaStorageAcceptance::new,
                context.getControllerConfiguration().fieldManager());
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(StatusPatch.atLeastMinWait(
                plan.wakeAfter() == null ? AcceptancePlanner.WAIT_RETRY : plan.wakeAfter()));
    }

    private AcceptanceExecutor executor(Context<RdmaStorageAcceptance> context) {
        return new AcceptanceExecutor(new ClusterWrites(context.getClient()),
                new AcceptanceEvents(new EventWriter(context.getClient())), metrics, gauges, config.namespace());
    }
}
