package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.cluster.ClusterWrites;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.nodes.MarkingOptions;
import io.rdmastorage.operator.nodes.NodeMarkings;
import io.rdmastorage.operator.quarantine.DeviceQuarantine;
import io.rdmastorage.operator.quarantine.QuarantineNotices;
import io.rdmastorage.operator.verdict.VerdictChange;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a {@link ProfilePlan}: nodes are independent, so the changes of those that have any
 * run a few at a time ({@link WritePool}), each node's in order; then the plan's pod deletes, then
 * its pod creates. Every verdict write is followed by its Events and metrics. Returns what it wrote, and
 * calls nothing back: the reconciler aggregates from the answer.
 */
final class PlanExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(PlanExecutor.class);

    private final RdmaStorageProfile profile;
    private final String profileName;
    private final ProfileSettings settings;
    private final ClusterWrites writes;
    private final NodeMarkings markings;
    private final VerdictEvents events;
    private final OperatorMetrics metrics;
    private final DeviceQuarantine quarantine;
    private final QuarantineNotices notices;

    /**
     * @param quarantine the device quarantine when the profile asks for device taints; null otherwise
     */
    PlanExecutor(RdmaStorageProfile profile, ProfileSettings settings, ClusterWrites writes, NodeMarkings markings,
                 VerdictEvents events, OperatorMetrics metrics, DeviceQuarantine quarantine, QuarantineNotices notices) {
        this.profile = profile;
        this.profileName = profile.getMetadata().getName();
        this.settings = settings;
        this.writes = writes;
        this.markings = markings;
        this.events = events;
        this.metrics = metrics;
        this.quarantine = profile.getSpec().getDeviceTaints() == null ? null : quarantine;
        this.notices = notices;
    }

    /** @return every node's RdmaStorageNode as stored afterwards (forgotten nodes and nodes without one left out) */
    Map<String, RdmaStorageNode> carryOut(ProfilePlan plan) {
        Map<String, RdmaStorageNode> stored = new HashMap<>();
        for (ProfilePlan.NodeChange change : plan.nodes()) {
            if (change.isEmpty() && change.stored() != null) {
                stored.put(change.node(), change.stored());
            }
        }
        List<ProfilePlan.NodeChange> busy = plan.nodes().stream().filter(c -> !c.isEmpty()).toList();
        List<RdmaStorageNode> after = WritePool.map(busy, this::carryOut);
        for (int i = 0; i < busy.size(); i++) {
            if (after.get(i) != null) {
                stored.put(busy.get(i).node(), after.get(i));
            }
        }
        WritePool.map(plan.deletes(), this::delete);
        WritePool.map(plan.creates(), pod -> {
            writes.createPod(pod);
            return pod;
        });
        return stored;
    }

    /**
     * Carries out each node's change by itself, as a failed reconcile does ({@link FailedReconcile}):
     * one that fails is logged and does not stop the others.
     */
    void carryOutEach(List<ProfilePlan.NodeChange> changes) {
        for (ProfilePlan.NodeChange change : changes) {
            try {
                carryOut(change);
            } catch (RuntimeException e) {
                LOG.warn("profile {}: cannot write node {}'s verdict: {}", profileName, change.node(), e.toString());
            }
        }
    }

    private RdmaStorageNode carryOut(ProfilePlan.NodeChange change) {
        change.deletes().forEach(writes::deletePod);
        change.probeFailures().forEach(reason -> metrics.recordProbeFailure(profileName, reason));
        RdmaStorageNode stored = change.stored();
        if (change.discard() && stored != null) {
            writes.deleteVerdict(stored);
            stored = null;
        }
        boolean verdictChanged = false;
        for (ProfilePlan.VerdictWrite write : change.writes()) {
            stored = writes.writeVerdict(profile, change.node(), stored, write.status());
            if (write.probeDuration()) {
                metrics.recordProbeDuration(profileName, Duration.ofMillis(write.status().getProbeDurationMillis()));
            }
            List<VerdictChange> changes = events.recordChanges(stored, write.previous() == null ? null
                    : write.previous().getConditions(), write.status().getConditions());
            changes.forEach(c -> metrics.recordVerdictChange(profileName, c.type()));
            verdictChanged |= !changes.isEmpty();
            write.thenDelete().forEach(writes::deletePod);
        }
        RdmaStorageNode verdict = stored;
        if (change.forget() && stored != null) {
            writes.deleteVerdict(stored);
            stored = null;
        }
        ProfilePlan.Marking marking = change.marking();
        DeviceQuarantine.Outcome fenced = null;
        if (quarantine != null && (!change.writes().isEmpty() || marking != null || change.forget())) {
            // a forgotten node's rules all go: no verdict is no faulty device, and no check to wait for
            try {
                fenced = quarantine.converge(profileName, change.node(), profile.getSpec().getDeviceTaints(),
                        stored == null ? null : stored.getStatus());
                notices.tell(profileName, verdict, fenced, verdictChanged);
            } catch (KubernetesClientException e) {
                // never the verdict's reconcile failing for device taints: the node is marked as configured
                // (taintNotReady), and the node's next verdict write tries the rules again
                LOG.warn("profile {}: the device taints of node {} are not brought in line: {}", profileName,
                        change.node(), e.getMessage());
            }
        }
        if (marking != null && marking.remove()) {
            markings.remove(profileName, marking.node());
        } else if (marking != null) {
            markings.apply(profileName, nodeMarking(fenced), marking.node(), marking.ready());
        }
        return stored;
    }

    /** The profile's node markings; without the node's taint while the faulty devices are fenced instead. */
    private MarkingOptions nodeMarking(DeviceQuarantine.Outcome fenced) {
        MarkingOptions options = MarkingOptions.of(settings);
        return fenced != null && fenced.fencesInsteadOfNode() ? options.withoutTaint() : options;
    }

    private Pod delete(Pod pod) {
        writes.deletePod(pod);
        return pod;
    }
}
