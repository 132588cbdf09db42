package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.cluster.ClusterWrites;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an {@link AcceptancePlan} through the writes every measurement kind shares
 * ({@link ClusterWrites}): deletes, applies, creates, then the step's Events, metrics and gauges.
 * The status is not written here: the reconciler returns it to JOSDK, unless it is the same.
 */
final class AcceptanceExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptanceExecutor.class);

    private final ClusterWrites writes;
    private final AcceptanceEvents events;
    private final OperatorMetrics metrics;
    private final AcceptanceGauges gauges;
    private final String namespace;

    AcceptanceExecutor(ClusterWrites writes, AcceptanceEvents events, OperatorMetrics metrics, AcceptanceGauges gauges,
                       String namespace) {
        this.writes = writes;
        this.events = events;
        this.metrics = metrics;
        this.gauges = gauges;
        this.namespace = namespace;
    }

    void carryOut(RdmaStorageAcceptance run, AcceptancePlan plan) {
        plan.deletes().forEach(writes::deletePod);
        plan.configMapDeletes().forEach(name -> writes.deleteConfigMap(namespace, name));
        plan.applies().forEach(writes::applyConfigMap);
        plan.creates().forEach(writes::createPod);
        String name = run.getMetadata().getName();
        switch (plan.step()) {
            case NONE -> { }
            case FINISHED_BEFORE -> gauges.show(run, run.getStatus());   // after a restart, from the runs' statuses
            case WAITING -> events.waiting(run, plan.message());
            case STARTED -> {
                LOG.info("acceptance run {} started on node {}", name, run.getSpec().getNodeName());
                events.started(run, plan.message());
            }
            case ENDED -> ended(run, plan.status());
            case CLEANUP -> events.cleanup(run, plan.status());
            case DELETED -> {
                gauges.forget(run);
                LOG.info("acceptance run {} deleted: its pod and ConfigMaps are removed", name);
            }
        }
    }

    /** The run's end: its Events, its count, and the node's ratio gauges. */
    private void ended(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        Condition complete = Conditions.byType(status.getConditions()).get(Reasons.Acceptance.COMPLETE);
        Condition effective = Conditions.byType(status.getConditions()).get(Reasons.Acceptance.RDMA_EFFECTIVE);
        LOG.info("acceptance run {} on {}: {} ({}: {}), RdmaEffective {}", run.getMetadata().getName(),
                run.getSpec() == null ? null : run.getSpec().getNodeName(), status.getPhase(), complete.getReason(),
                complete.getMessage(), effective.getStatus());
        events.ended(run, status);
        metrics.recordAcceptanceRun(AcceptanceTarget.name(run.getSpec()), status.getPhase(), effective.getStatus());
        gauges.show(run, status);
    }
}
