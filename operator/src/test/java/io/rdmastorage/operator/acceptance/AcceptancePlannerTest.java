package io.rdmastorage.operator.acceptance;

import static io.rdmastorage.operator.acceptance.AcceptanceFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptanceTransport;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.api.AcceptanceWorkloadSpec;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The acceptance planner in memory, as ProfilePlannerTest is for profiles: given this run, these
 * pods, these nodes and this clock, these writes. The same rules through the real API server are in
 * AcceptanceLifecycleTest, VerbsAcceptanceLifecycleTest and AcceptancePathLifecycleTest.
 */
class AcceptancePlannerTest {

    @Test
    void aNewRunOnAnExistingNodeAppliesItsSpecThenCreatesItsPod() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");

        AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));

        assertThat(plan.applies()).extracting(c -> c.getMetadata().getName()).containsExactly("rsa-gpu-07-nvmeof-spec");
        assertThat(plan.creates()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));
        assertThat(plan.deletes()).isEmpty();
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.PHASE_RUNNING);
        assertThat(plan.status().getStartTime()).isEqualTo(Timestamps.format(NOW));
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.RUNNING);
        assertThat(effective(plan).getStatus()).isEqualTo(Conditions.UNKNOWN);
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.STARTED);
        assertThat(plan.wakeAfter()).isPositive();
    }

    @Test
    void aRunOnANodeThatDoesNotExistFailsAndCreatesNothing() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");

        AcceptancePlan plan = plan(snapshot(run, Set.of(), Map.of(), List.of(run)));

        assertThat(plan.creates()).isEmpty();
        assertThat(plan.applies()).isEmpty();
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_FOUND);
        assertThat(effective(plan).getMessage()).contains("the run ended NodeNotFound");
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.ENDED);
    }

    @Test
    void theYoungerRunOnANodeWaitsAndSaysSoOnce() {
        RdmaStorageAcceptance older = nvmeof("a-older", "2026-12-01T15:00:00Z");
        RdmaStorageAcceptance younger = nvmeof("b-younger", "2026-12-01T15:30:00Z");

        AcceptancePlan first = plan(snapshot(younger, Set.of(), nodes("gpu-07"), List.of(older, younger)));

        assertThat(first.creates()).isEmpty();
        assertThat(first.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
        assertThat(complete(first).getReason()).isEqualTo(Reasons.Acceptance.WAITING_FOR_NODE);
        assertThat(complete(first).getMessage()).contains("a-older is measuring node gpu-07");
        assertThat(first.step()).isEqualTo(AcceptancePlan.Step.WAITING);
        assertThat(first.wakeAfter()).isEqualTo(AcceptancePlanner.WAIT_RETRY);

        younger.setStatus(AcceptanceDigest.stamp(younger, first.status()));
        AcceptancePlan again = plan(snapshot(younger, Set.of(), nodes("gpu-07"), List.of(older, younger)));
        assertThat(again.step()).isEqualTo(AcceptancePlan.Step.NONE);
        assertThat(again.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
    }

    @Test
    void aRunWhoseNodeIsFreeAgainStarts() {
        RdmaStorageAcceptance older = nvmeof("a-older", "2026-12-01T15:00:00Z");
        older.setStatus(status(Reasons.Acceptance.SUCCEEDED, null));
        RdmaStorageAcceptance younger = nvmeof("b-younger", "2026-12-01T15:30:00Z");

        AcceptancePlan plan = plan(snapshot(younger, Set.of(), nodes("gpu-07"), List.of(older, younger)));

        assertThat(plan.creates()).hasSize(1);
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.PHASE_RUNNING);
    }

    @Test
    void aVerbsRunCreatesTheServerOnThePeerAndTheClientOnItsNode() {
        RdmaStorageAcceptance run = verbs("gpu-07-verbs");
        Node peer = new NodeBuilder().withNewMetadata().withName("storage-01").withLabels(WORKERS).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("10.68.20.11").endAddress()
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();

        AcceptancePlan plan = plan(snapshot(run, Set.of(), Map.of("gpu-07", node("gpu-07"), "storage-01", peer), List.of(run)));

        assertThat(plan.creates()).extracting(p -> p.getSpec().getNodeName()).containsExactly("storage-01", "gpu-07");
        assertThat(complete(plan).getMessage()).contains("rdma then tcp between gpu-07 and storage-01");
    }

    @Test
    void aVerbsRunWhosePeerHasNoAddressFails() {
        RdmaStorageAcceptance run = verbs("gpu-07-verbs");

        AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07", "storage-01"), List.of(run)));

        assertThat(plan.creates()).isEmpty();
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_FOUND);
        assertThat(complete(plan).getMessage()).contains("has no InternalIP address");
    }

    @Test
    void aPodInProgressKeepsTheRunRunningAndWakesToLookAtItsNodeOrAtItsDeadline() throws Exception {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(30));
        Pod pod = pod(run, NOW.minusSeconds(30), null);

        AcceptancePlan plan = plan(snapshot(run, Set.of(pod), nodes("gpu-07"), List.of(run)));

        assertThat(plan.creates()).isEmpty();
        assertThat(plan.deletes()).isEmpty();
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.PHASE_RUNNING);
        assertThat(plan.status().getStartTime()).isEqualTo(run.getStatus().getStartTime());
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.NONE);
        // nodes send runs no events: a node that turns NotReady is seen within this, not at the deadline
        assertThat(plan.wakeAfter()).isEqualTo(AcceptanceNodes.NODE_RETRY);

        Duration deadline = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName()).deadline();
        Pod nearlyDue = pod(run, NOW.minus(deadline).minusSeconds(20), null);
        Duration untilTimeout = Duration.between(NOW, ProbeOutcomeReader.timesOutAt(nearlyDue, deadline, NOW));
        assertThat(untilTimeout).as("the pod's grace past the deadline").isPositive().isLessThan(AcceptanceNodes.NODE_RETRY);
        AcceptancePlan lastLook = plan(snapshot(run, Set.of(nearlyDue), nodes("gpu-07"), List.of(run)));
        assertThat(lastLook.status().getPhase()).isEqualTo(Reasons.Acceptance.PHASE_RUNNING);
        assertThat(lastLook.wakeAfter()).isEqualTo(untilTimeout);
    }

    @Test
    void aPathRunGetsItsDirectoryWritableAndIsRefusedBeforeItStartsWhenItsCompareWithCannotBeUsed() {
        RdmaStorageAcceptance run = path("gpfs-01-rdma", null);

        AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));

        assertThat(plan.creates()).singleElement().satisfies(pod -> assertThat(pod.getSpec().getVolumes())
                .anySatisfy(v -> assertThat(v.getHostPath() == null ? null : v.getHostPath().getPath())
                        .isEqualTo("/gpfs/fs1/acceptance")));
        assertThat(complete(plan).getMessage()).contains("/gpfs/fs1/acceptance", "rdmastorage-acceptance-gpfs-01-rdma.fio");

        RdmaStorageAcceptance second = path("gpfs-01-tcp", "gpfs-01-gone");
        AcceptancePlan refused = plan(snapshot(second, Set.of(), nodes("gpu-07"), List.of(second)));

        assertThat(refused.creates()).isEmpty();
        assertThat(refused.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(refused).getReason()).isEqualTo(Reasons.Acceptance.COMPARE_WITH_INVALID);
        assertThat(complete(refused).getMessage()).contains("gpfs-01-gone", "does not exist");
    }

    @Test
    void aFinishedPathRunSaysWhatItMeasuredOverAndThatAloneItComparesNothing() {
        RdmaStorageAcceptance run = running(path("gpfs-01-rdma", null), NOW.minusSeconds(300));
        Pod pod = pod(run, NOW.minusSeconds(300), REPORT);

        AcceptancePlan plan = plan(snapshot(run, Set.of(pod), nodes("gpu-07"), List.of(run)));

        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.SUCCEEDED);
        assertThat(complete(plan).getMessage()).startsWith("measured over rdma");
        assertThat(effective(plan).getStatus()).isEqualTo(Conditions.UNKNOWN);
        assertThat(effective(plan).getReason()).isEqualTo(Reasons.Acceptance.NO_COMPARISON);
        assertThat(plan.applies()).singleElement().satisfies(record -> assertThat(record.getData().get(AcceptanceMarkdown.KEY))
                .contains("Target: directory /gpfs/fs1/acceptance", "## Runs"));
    }

    @Test
    void aFinishedPodIsHarvestedIntoTheStatusAndTheRecordAndItsObjectsAreDeleted() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(300));
        Pod pod = pod(run, NOW.minusSeconds(300), REPORT);

        AcceptancePlan plan = plan(snapshot(run, Set.of(pod), nodes("gpu-07"), List.of(run)));

        assertThat(plan.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));
        assertThat(plan.configMapDeletes()).containsExactly("rsa-gpu-07-nvmeof-spec");
        assertThat(plan.applies()).extracting(ConfigMap::getMetadata).extracting(m -> m.getName())
                .containsExactly(AcceptancePods.reportName("gpu-07-nvmeof"));
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.SUCCEEDED);
        assertThat(plan.status().getCompletionTime()).isEqualTo(Timestamps.format(NOW));
        assertThat(plan.status().getTransports()).hasSize(1);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.MEASURED);
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.ENDED);
        assertThat(plan.wakeAfter()).isNull();
    }

    @Test
    void aPodPastTheDeadlineEndsTheRunTimedOutAndIsDeleted() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minus(Duration.ofHours(5)));
        Pod pod = pod(run, NOW.minus(Duration.ofHours(5)), null);

        AcceptancePlan plan = plan(snapshot(run, Set.of(pod), nodes("gpu-07"), List.of(run)));

        assertThat(plan.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));
        assertThat(plan.configMapDeletes()).containsExactly("rsa-gpu-07-nvmeof-spec");
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.TIMED_OUT);
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
    }

    @Test
    void aPodTheCacheDoesNotShowIsNotLostInsideTheCacheLagButIsAfterIt() {
        RdmaStorageAcceptance fresh = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(2));
        assertThat(plan(snapshot(fresh, Set.of(), nodes("gpu-07"), List.of(fresh))).status().getPhase())
                .isEqualTo(Reasons.Acceptance.PHASE_RUNNING);

        RdmaStorageAcceptance old = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"),
                NOW.minus(AcceptancePlanner.CACHE_LAG).minusSeconds(1));
        AcceptancePlan plan = plan(snapshot(old, Set.of(), nodes("gpu-07"), List.of(old)));
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.PROBE_FAILED);
        assertThat(complete(plan).getMessage()).contains("is gone without a report");
        assertThat(plan.deletes()).isEmpty();
    }

    @Test
    void aRunThatEndedMeanwhileOrFinishedBeforeWritesNothing() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(60));
        AcceptancePlan meanwhile = plan(new AcceptanceSnapshot(run, Set.of(), Optional.empty(), true, nodes("gpu-07"), List.of(run),
                Set.of()));
        assertThat(meanwhile).isEqualTo(AcceptancePlan.NONE);

        run.setStatus(AcceptanceDigest.stamp(run, status(Reasons.Acceptance.FAILED, null)));
        AcceptancePlan finished = plan(snapshot(run, Set.of(), Map.of(), List.of(run)));
        assertThat(finished.status()).isNull();
        assertThat(finished.creates()).isEmpty();
        assertThat(finished.step()).isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
    }

    @Test
    void deletingARunDeletesItsPodsAndBothConfigMaps() {
        RdmaStorageAcceptance run = verbs("gpu-07-verbs");
        AcceptancePlan plan = AcceptanceCleanupPlanner.deleted(run, CONFIG);

        assertThat(plan.deletes()).extracting(p -> p.getMetadata().getName())
                .containsExactly(AcceptancePods.podName(run), VerbsAcceptancePods.serverName(run));
        assertThat(plan.deletes()).allSatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo("rso"));
        assertThat(plan.configMapDeletes()).containsExactly("rsa-gpu-07-verbs-spec", AcceptancePods.reportName("gpu-07-verbs"));
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.DELETED);
    }

    @Test
    void aRunReCreatedUnderTheSameNameNeverAdoptsTheEarlierRunsTerminatingPodButWaitsForIt() {
        RdmaStorageAcceptance earlier = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        Pod terminating = pod(earlier, NOW.minusSeconds(60), null);
        terminating.getMetadata().setDeletionTimestamp(Timestamps.format(NOW.minusSeconds(5)));
        RdmaStorageAcceptance again = nvmeof("gpu-07-nvmeof", "2026-12-01T15:59:00Z");
        again.getMetadata().setUid("u-gpu-07-nvmeof-2");

        AcceptancePlan plan = plan(snapshot(again, Set.of(terminating), nodes("gpu-07"), List.of(again)));

        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.WAITING_FOR_EARLIER_POD);
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.deletes()).as("already being deleted").isEmpty();
        assertThat(plan.wakeAfter()).isEqualTo(AcceptancePlanner.WAIT_RETRY);

        Pod leftBehind = pod(earlier, NOW.minusSeconds(60), null);
        AcceptancePlan stale = plan(snapshot(again, Set.of(leftBehind), nodes("gpu-07"), List.of(again)));
        assertThat(complete(stale).getReason()).isEqualTo(Reasons.Acceptance.WAITING_FOR_EARLIER_POD);
        assertThat(stale.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(again));

        AcceptancePlan started = plan(snapshot(again, Set.of(), nodes("gpu-07"), List.of(again)));
        assertThat(started.creates()).singleElement().satisfies(p -> {
            assertThat(p.getMetadata().getOwnerReferences()).extracting(o -> o.getUid()).containsExactly("u-gpu-07-nvmeof-2");
            assertThat(p.getMetadata().getLabels()).containsEntry(RdmaStorageAcceptance.RUN_UID_LABEL, "u-gpu-07-nvmeof-2");
        });
    }

    @Test
    void aForgedSucceededStatusFailsTheRunStatusEditedStopsItsPodAndHoldsTheNodeUntilThen() {
        RdmaStorageAcceptance forged = running(nvmeof("a-forged", "2026-12-01T15:00:00Z"), NOW.minusSeconds(60));
        Pod pod = pod(forged, NOW.minusSeconds(60), null);
        forged.getStatus().setPhase(Reasons.Acceptance.SUCCEEDED);
        RdmaStorageAcceptance second = nvmeof("b-second", "2026-12-01T15:30:00Z");

        AcceptancePlan waits = plan(snapshot(second, Set.of(), nodes("gpu-07"), List.of(forged, second)));
        assertThat(waits.creates()).as("the forged run still measures gpu-07").isEmpty();
        assertThat(complete(waits).getReason()).isEqualTo(Reasons.Acceptance.WAITING_FOR_NODE);

        AcceptancePlan failed = plan(snapshot(forged, Set.of(pod), nodes("gpu-07"), List.of(forged, second)));
        assertThat(failed.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(failed).getReason()).isEqualTo(Reasons.Acceptance.STATUS_EDITED);
        assertThat(failed.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(forged));
        assertThat(failed.configMapDeletes()).containsExactly("rsa-a-forged-spec");
        assertThat(failed.step()).isEqualTo(AcceptancePlan.Step.ENDED);

        forged.setStatus(AcceptanceDigest.stamp(forged, failed.status()));
        assertThat(plan(snapshot(forged, Set.of(), nodes("gpu-07"), List.of(forged))).step())
                .as("its own failure is trusted").isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
        assertThat(plan(snapshot(second, Set.of(), nodes("gpu-07"), List.of(forged, second))).creates())
                .as("the node is free once the forged run failed").hasSize(1);
    }

    @Test
    void aFutureStartTimeIsAnEditTooAndEndsTheRunRatherThanKeepingItRunning() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minus(Duration.ofMinutes(30)));
        run.getStatus().setStartTime(Timestamps.format(NOW.plus(Duration.ofDays(365))));

        AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));

        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.STATUS_EDITED);
        assertThat(plan.status().getStartTime()).as("left as it stands: a status patch cannot remove it")
                .isEqualTo(run.getStatus().getStartTime());
        run.setStatus(AcceptanceDigest.stamp(run, plan.status()));
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))).step())
                .as("what it wrote is trusted: the run does not look edited for ever").isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
    }

    @Test
    void aFinishedRecordOfAnOperatorBeforeTheDigestIsTrustedOnlyWhileNoPodOfItsIsAlive() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        run.setStatus(status(Reasons.Acceptance.SUCCEEDED, NOW.minusSeconds(600)));

        assertThat(plan(snapshot(run, Set.of(), Map.of(), List.of(run))).step()).isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
        AcceptancePlan withPod = plan(snapshot(run, Set.of(pod(run, NOW.minusSeconds(600), null)), nodes("gpu-07"), List.of(run)));
        assertThat(complete(withPod).getReason()).isEqualTo(Reasons.Acceptance.STATUS_EDITED);
    }

    @Test
    void aRunDoesNotStartOnACordonedOrNotReadyNodeButWaitsWithTheNodesReason() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:59:00Z");
        Node cordoned = node("gpu-07");
        cordoned.setSpec(new io.fabric8.kubernetes.api.model.NodeSpecBuilder().withUnschedulable(true).build());

        AcceptancePlan waits = plan(snapshot(run, Set.of(), Map.of("gpu-07", cordoned), List.of(run)));

        assertThat(waits.creates()).isEmpty();
        assertThat(waits.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
        assertThat(complete(waits).getReason()).isEqualTo(Reasons.Acceptance.NODE_UNSCHEDULABLE);
        assertThat(complete(waits).getMessage()).contains("kubectl uncordon gpu-07");
        assertThat(effective(waits).getMessage()).isEqualTo("no measurement yet");
        assertThat(waits.step()).isEqualTo(AcceptancePlan.Step.WAITING);
        assertThat(waits.wakeAfter()).isEqualTo(AcceptanceNodes.NODE_RETRY);

        AcceptancePlan notReady = plan(snapshot(run, Set.of(), Map.of("gpu-07", notReady("gpu-07")), List.of(run)));
        assertThat(notReady.creates()).isEmpty();
        assertThat(complete(notReady).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_READY);
        assertThat(notReady.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
    }

    @Test
    void aRunWhoseNodeTurnsNotReadyOrIsDeletedWhileItMeasuresEndsAtOnceWithTheNodesReasonNotAtTheDeadline() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(30));
        Pod pod = pod(run, NOW.minusSeconds(30), null);

        AcceptancePlan notReady = plan(snapshot(run, Set.of(pod), Map.of("gpu-07", notReady("gpu-07")), List.of(run)));
        assertThat(notReady.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(notReady).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_READY);
        assertThat(complete(notReady).getMessage()).doesNotContain("timeoutSeconds");
        assertThat(notReady.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));

        AcceptancePlan gone = plan(snapshot(run, Set.of(pod), Map.of(), List.of(run)));
        assertThat(complete(gone).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_FOUND);
        assertThat(complete(gone).getMessage()).contains("was deleted while the run measured");

        Pod finished = pod(run, NOW.minusSeconds(30), REPORT);
        assertThat(plan(snapshot(run, Set.of(finished), Map.of(), List.of(run))).status().getPhase())
                .as("a report that came is harvested whatever became of the node").isEqualTo(Reasons.Acceptance.SUCCEEDED);
    }

    // the cluster admin's bounds (AdminBounds): each refused before any pod or spec exists, OutsideAdminBounds

    @Test
    void aRunOnAControlPlaneNodeIsRefusedUnlessTheAdminAllowsIt() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        Map<String, Node> controlPlane = Map.of("gpu-07", node("gpu-07", Map.of(NodeAvailability.CONTROL_PLANE_LABELS.get(0), "")));

        assertRefused(plan(snapshot(run, Set.of(), controlPlane, List.of(run))), "gpu-07 is a control-plane node");

        AcceptanceBounds allowed = new AcceptanceBounds(WORKERS, true, List.of(), List.of(), 16384, 3600);
        assertThat(plan(snapshot(run, Set.of(), controlPlane, List.of(run)), allowed).creates()).hasSize(1);
    }

    @Test
    void aRunOnANodeOutsideTheAdminsSelectorIsRefusedAndSoIsAVerbsPeerOutsideIt() {
        AcceptanceBounds gpuNodes = new AcceptanceBounds(Map.of("rdma.example/acceptance", "yes"), false, List.of(), List.of(),
                16384, 3600);
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), gpuNodes),
                "gpu-07 lacks the label rdma.example/acceptance=yes of acceptance.nodeSelector");
        Map<String, Node> labelled = Map.of("gpu-07", node("gpu-07", Map.of("rdma.example/acceptance", "yes")));
        assertThat(plan(snapshot(run, Set.of(), labelled, List.of(run)), gpuNodes).creates()).hasSize(1);

        RdmaStorageAcceptance verbs = verbs("gpu-07-verbs");
        Node peer = new NodeBuilder().withNewMetadata().withName("storage-01").endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("10.68.20.11").endAddress().endStatus().build();
        assertRefused(plan(snapshot(verbs, Set.of(), Map.of("gpu-07", labelled.get("gpu-07"), "storage-01", peer),
                List.of(verbs)), gpuNodes), "storage-01 lacks the label");
    }

    @Test
    void thePathTargetIsOffUntilTheAdminNamesAPrefix() {
        RdmaStorageAcceptance run = path("gpfs-01-rdma", null);

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withNodeSelector(WORKERS)),
                "the path target is off", "acceptance.pathPrefixes");
    }

    /** Security round 4 (3): the chart's defaults let no node take runs until the admin names the nodes. */
    @Test
    void noNodeTakesRunsUntilTheAdminNamesTheNodesThatMay() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:59:00Z");
        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT),
                "no node takes acceptance runs until the cluster admin names the nodes that may", "acceptance.nodeSelector is empty");
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withNodeSelector(WORKERS))
                .creates()).hasSize(1);
    }

    @Test
    void aPathRunOutsideTheAdminsPrefixesIsRefusedByWholeDirectories() {
        RdmaStorageAcceptance run = path("gpfs-01-rdma", null);

        // /gpfs/fs1/acceptance is not under /gpfs/fs (a prefix of its name, not of its directories)
        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withNodeSelector(WORKERS).withPathPrefixes("/gpfs/fs", "/etc")),
                "path.directory /gpfs/fs1/acceptance is under none of", "/gpfs/fs, /etc");
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withNodeSelector(WORKERS).withPathPrefixes("/gpfs"))
                .creates()).hasSize(1);
    }

    @Test
    void aPathRunWithAFileAboveTheAdminsMaximumIsRefused() {
        RdmaStorageAcceptance run = path("gpfs-01-rdma", null);
        run.getSpec().getPath().setFileSizeMiB(20000);

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))),
                "path.fileSizeMiB 20000 is above acceptance.maxFileSizeMiB 16384");
    }

    @Test
    void aRunWhoseDeadlineIsAboveTheAdminsMaximumIsRefused() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        run.getSpec().setTimeoutSeconds(7200);

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))),
                "deadline 7200 s is above acceptance.maxDurationSeconds 3600");
    }

    @Test
    void connectingGoesOnlyToAnAddressAProfileOrTheAdminNames() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        run.getSpec().getNvmeof().setConnect(true);

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))),
                "nvmeof target nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420 is named by no profile's nvmeof targets",
                "not in acceptance.nvmeofAddresses");

        AcceptancePlan profileNamed = plan(new AcceptanceSnapshot(run, Set.of(), Optional.empty(), false, nodes("gpu-07"),
                List.of(run), Set.of(PROFILE_TARGET)));
        assertThat(profileNamed.creates()).hasSize(1);
        // the bounds travel in the pod's document: node-probe checks them again on the node
        assertThat(profileNamed.applies().get(0).getData().values().iterator().next())
                .contains("\"bounds\"", "\"nvmeofTargets\":[{\"nqn\":\"nqn.2024-01.dev.wutz:target1\",\"address\":\"10.68.20.10\","
                        + "\"port\":4420}]", "\"pathPrefixes\":[\"/gpfs/fs1/\"]");

        AcceptanceBounds cidr = new AcceptanceBounds(WORKERS, false, List.of(), List.of("10.68.20.0/24"), 16384, 3600);
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), cidr).creates()).hasSize(1);
        AcceptanceBounds other = new AcceptanceBounds(WORKERS, false, List.of(), List.of("10.68.21.0/24"), 16384, 3600);
        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), other), "10.68.20.10:4420 is named by no profile");
    }

    /** Security round 4 (4): a profile's target allows that target only, not any port or NQN at its address. */
    @Test
    void aProfilesTargetAllowsThatTargetOnlyAndTheAdminsEntriesMayNameAPort() {
        RdmaStorageAcceptance etcd = nvmeof("gpu-07-etcd", "2026-12-01T15:59:00Z");
        etcd.getSpec().getNvmeof().setConnect(true);
        etcd.getSpec().getNvmeof().setPort(2379);
        assertRefused(plan(new AcceptanceSnapshot(etcd, Set.of(), Optional.empty(), false, nodes("gpu-07"), List.of(etcd),
                Set.of(PROFILE_TARGET))), "at 10.68.20.10:2379 is named by no profile's nvmeof targets");
        RdmaStorageAcceptance foreign = nvmeof("gpu-07-foreign", "2026-12-01T15:59:00Z");
        foreign.getSpec().getNvmeof().setConnect(true);
        foreign.getSpec().getNvmeof().setNqn("nqn.2024-01.example:someone-else");
        assertRefused(plan(new AcceptanceSnapshot(foreign, Set.of(), Optional.empty(), false, nodes("gpu-07"), List.of(foreign),
                Set.of(PROFILE_TARGET))), "nqn.2024-01.example:someone-else at 10.68.20.10:4420 is named by no profile's");

        AcceptanceBounds port4420 = new AcceptanceBounds(WORKERS, false, List.of(), List.of("10.68.20.0/24:4420"), 16384, 3600);
        assertRefused(plan(snapshot(etcd, Set.of(), nodes("gpu-07"), List.of(etcd)), port4420), "not in acceptance.nvmeofAddresses");
        assertThat(plan(snapshot(foreign, Set.of(), nodes("gpu-07"), List.of(foreign)), port4420).creates()).hasSize(1);
        AcceptanceBounds v6 = new AcceptanceBounds(WORKERS, false, List.of(), List.of("[fd00::/64]:4420"), 16384, 3600);
        assertThat(v6.nvmeofAddresses()).containsExactly("[fd00::/64]:4420");
    }

    @Test
    void loopbackLinkLocalUnspecifiedAndTheDiscoverySubsystemAreNeverTargetsWhateverIsAllowed() {
        AcceptanceBounds everything = new AcceptanceBounds(WORKERS, false, List.of(), List.of("0.0.0.0/0", "::/0"), 16384, 3600);
        for (String address : List.of("127.0.0.1", "169.254.169.254", "0.0.0.0", "::1", "fe80::1", "::", "::ffff:127.0.0.1")) {
            RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
            run.getSpec().getNvmeof().setConnect(true);
            run.getSpec().getNvmeof().setAddress(address);

            AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), everything);

            assertThat(plan.creates()).as(address).isEmpty();
            assertThat(complete(plan).getReason()).as(address).isEqualTo(Reasons.Acceptance.INVALID_SPEC);
            assertThat(complete(plan).getMessage()).as(address).contains("never an acceptance target");
        }
        RdmaStorageAcceptance discovery = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        discovery.getSpec().getNvmeof().setNqn("nqn.2014-08.org.nvmexpress.discovery");
        AcceptancePlan plan = plan(snapshot(discovery, Set.of(), nodes("gpu-07"), List.of(discovery)), everything);
        assertThat(plan.creates()).isEmpty();
        assertThat(complete(plan).getMessage()).contains("is the discovery subsystem");
    }

    @Test
    void fioBuffersBeyondWhatThePodsMemoryLimitHoldsAreRefusedBeforeThePod() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z");
        AcceptanceWorkloadSpec bandwidth = new AcceptanceWorkloadSpec();
        bandwidth.setJobs(64);
        bandwidth.setIodepth(256);
        run.getSpec().setBandwidth(bandwidth);

        AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));

        assertThat(plan.creates()).isEmpty();
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.INVALID_SPEC);
        assertThat(complete(plan).getMessage()).contains("16384 MiB of fio buffers, more than the 512 MiB");
    }

    // write-ahead cleanup: a run that changes its node records what it may change; one whose pod ended
    // without saying it undid its changes is cleaned up by a cleanup pod from its journal on the node

    @Test
    void aRunThatChangesItsNodeRecordsWhatItMayChangeWhenItsPodIsCreated() {
        RdmaStorageAcceptance run = connecting("gpu-07-connect");

        AcceptancePlan plan = plan(new AcceptanceSnapshot(run, Set.of(), Optional.empty(), false, nodes("gpu-07"), List.of(run),
                Set.of(PROFILE_TARGET)));

        assertThat(plan.status().getPendingCleanup().getNodeName()).isEqualTo("gpu-07");
        assertThat(plan.status().getPendingCleanup().getControllers()).extracting(Object::toString).containsExactly(
                "rdma nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420", "tcp nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420");
        assertThat(plan.creates()).singleElement().satisfies(pod -> {
            assertThat(pod.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance").containsSequence("--run-uid",
                    "u-gpu-07-connect");
            assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getHostPath() == null ? null
                    : v.getHostPath().getPath() + " " + v.getHostPath().getType())
                    .isEqualTo("/var/lib/rdma-storage-operator/acceptance DirectoryOrCreate"));
        });

        AcceptancePlan path = plan(snapshot(path("gpfs-01-rdma", null), Set.of(), nodes("gpu-07"), List.of()));
        assertThat(path.status().getPendingCleanup().getFile()).isEqualTo("/gpfs/fs1/acceptance/rdmastorage-acceptance-gpfs-01-rdma.fio");

        // measuring only what is connected changes nothing: no record, no journal, the pod as before
        AcceptancePlan measuring = plan(snapshot(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), Set.of(), nodes("gpu-07"),
                List.of()));
        assertThat(measuring.status().getPendingCleanup()).isNull();
        assertThat(measuring.creates()).singleElement().satisfies(pod -> assertThat(pod.getSpec().getContainers().get(0).getArgs())
                .doesNotContain("--run-uid"));
    }

    @Test
    void aRunWhosePodReportedNeedsNoCleanup() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");

        AcceptancePlan plan = plan(snapshot(run, Set.of(pod(run, NOW.minusSeconds(300), REPORT)), nodes("gpu-07"), List.of(run)));

        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.SUCCEEDED);
        assertThat(plan.status().getPendingCleanup()).isNull();
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.configMapDeletes()).containsExactly("rsa-gpu-07-connect-spec");
        run.setStatus(AcceptanceDigest.stamp(run, plan.status()));
        AcceptancePlan after = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(after.step()).isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
        assertThat(after.creates()).isEmpty();
    }


    // security round 4 (3, 6, 7)

    @Test
    void aControlPlaneNodeIsKnownByEveryRoleLabelAndTaintThatMarksIt() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:59:00Z");
        for (String label : List.of("node-role.kubernetes.io/master", "node-role.kubernetes.io/etcd")) {
            assertRefused(plan(snapshot(run, Set.of(), Map.of("gpu-07", node("gpu-07", Map.of(label, "true"))), List.of(run))),
                    "gpu-07 is a control-plane node (label " + label + ")");
        }
        Node tainted = new NodeBuilder(node("gpu-07")).withNewSpec().addNewTaint().withKey("node-role.kubernetes.io/control-plane")
                .withEffect("NoSchedule").endTaint().endSpec().build();
        assertRefused(plan(snapshot(run, Set.of(), Map.of("gpu-07", tainted), List.of(run))),
                "(taint node-role.kubernetes.io/control-plane)");
    }

    @Test
    void aRunKeptFromStartingByACordonedPeerHoldsNothingAndEndsAfterTheStartDeadline() {
        RdmaStorageAcceptance verbs = verbs("gpu-07-verbs");
        Node cordonedPeer = new NodeBuilder(node("storage-01")).withNewSpec().withUnschedulable(true).endSpec().editStatus()
                .addNewAddress().withType("InternalIP").withAddress("10.68.20.11").endAddress().endStatus().build();
        Map<String, Node> verbsNodes = Map.of("gpu-07", node("gpu-07"), "storage-01", cordonedPeer);
        Instant early = Instant.parse("2026-12-01T15:05:00Z");
        AcceptancePlan waits = RdmaStorageAcceptanceReconciler.plan(snapshot(verbs, Set.of(), verbsNodes, List.of(verbs)),
                CONFIG, early);
        assertThat(waits.status().getPhase()).isEqualTo(Reasons.Acceptance.PENDING);
        assertThat(complete(waits).getReason()).isEqualTo(Reasons.Acceptance.NODE_UNSCHEDULABLE);
        verbs.setStatus(AcceptanceDigest.stamp(verbs, waits.status()));

        // a younger run on gpu-07 does not wait behind it
        RdmaStorageAcceptance next = nvmeof("gpu-07-next", "2026-12-01T15:04:00Z");
        AcceptancePlan starts = RdmaStorageAcceptanceReconciler.plan(snapshot(next, Set.of(), nodes("gpu-07"),
                List.of(verbs, next)), CONFIG, early);
        assertThat(starts.creates()).hasSize(1);

        // 15 minutes after its creation it ends, saying why
        AcceptancePlan ended = RdmaStorageAcceptanceReconciler.plan(snapshot(verbs, Set.of(), verbsNodes, List.of(verbs)),
                CONFIG, Instant.parse("2026-12-01T15:15:00Z"));
        assertThat(ended.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(ended).getReason()).isEqualTo(Reasons.Acceptance.NODE_UNSCHEDULABLE);
        assertThat(complete(ended).getMessage()).contains("could not start within 15 minutes", "storage-01 is cordoned");
    }

    @Test
    void aRunWhoseNodesAreMeasurableAgainQueuesBeforeItStarts() {
        RdmaStorageAcceptance run = nvmeof("gpu-07-nvmeof", "2026-12-01T15:59:00Z");
        Node cordoned = new NodeBuilder(node("gpu-07")).withNewSpec().withUnschedulable(true).endSpec().build();
        run.setStatus(AcceptanceDigest.stamp(run, plan(snapshot(run, Set.of(), Map.of("gpu-07", cordoned), List.of(run))).status()));

        AcceptancePlan queued = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(queued.creates()).as("first a status other runs see as holding the node").isEmpty();
        assertThat(complete(queued).getReason()).isEqualTo(Reasons.Acceptance.WAITING_FOR_NODE);
        run.setStatus(AcceptanceDigest.stamp(run, queued.status()));
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))).creates()).hasSize(1);
    }

    @Test
    void aPodThatDoesNotStartEndsTheRunPodNotStartedWithTheSchedulersWords() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minus(Duration.ofMinutes(16)));
        run.getSpec().setTimeoutSeconds(3600);
        AcceptanceDigest.stamp(run, run.getStatus());
        Pod unplaced = new PodBuilder(pod(run, NOW.minus(Duration.ofMinutes(16)), null)).editStatus().withPhase("Pending")
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage("0/3 nodes are available: 1 node(s) were unschedulable.").endCondition().endStatus().build();

        AcceptancePlan plan = plan(snapshot(run, Set.of(unplaced), nodes("gpu-07"), List.of(run)));

        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.POD_NOT_STARTED);
        assertThat(complete(plan).getMessage()).contains("did not start within 15 minutes", "0/3 nodes are available")
                .doesNotContain("measuring", "timeoutSeconds");
        assertThat(plan.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));

        // inside the start deadline it still runs, and its condition says it has not started rather than "measuring"
        RdmaStorageAcceptance young = running(nvmeof("gpu-07-young", "2026-12-01T15:58:00Z"), NOW.minus(Duration.ofMinutes(2)));
        Pod waiting = new PodBuilder(pod(young, NOW.minus(Duration.ofMinutes(2)), null)).editStatus().withPhase("Pending").endStatus()
                .build();
        AcceptancePlan still = plan(snapshot(young, Set.of(waiting), nodes("gpu-07"), List.of(young)));
        assertThat(still.status().getPhase()).isEqualTo(Reasons.Acceptance.PHASE_RUNNING);
        assertThat(complete(still).getMessage()).startsWith("the pod ").contains("has not started yet");
    }

    @Test
    void aPodThatReachedTheDeadlineWithoutStartingSaysSoAndDoesNotAdviseALongerDeadline() {
        RdmaStorageAcceptance run = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:50:00Z"), NOW.minus(Duration.ofMinutes(10)));
        run.getSpec().setTimeoutSeconds(300);
        AcceptanceDigest.stamp(run, run.getStatus());
        Pod pending = new PodBuilder(pod(run, NOW.minus(Duration.ofMinutes(10)), null)).editStatus().withPhase("Pending")
                .addNewContainerStatus().withName("node-probe").withNewState().withNewWaiting().withReason("ContainerCreating")
                .endWaiting().endState().endContainerStatus().endStatus().build();

        AcceptancePlan plan = plan(snapshot(run, Set.of(pending), nodes("gpu-07"), List.of(run)));

        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.POD_NOT_STARTED);
        assertThat(complete(plan).getMessage()).contains("did not start within", "ContainerCreating")
                .doesNotContain("Raise spec.timeoutSeconds");
    }
}
