package io.rdmastorage.operator.acceptance;

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

    /** The chart's default bounds, with the path target on under /gpfs/fs1/ (it is off until an admin names a prefix). */
    private static final OperatorConfig CONFIG = new OperatorConfig("rso", "registry.example/node-probe:1", "IfNotPresent", false, 0)
            .withAcceptance(AcceptanceBounds.DEFAULT.withPathPrefixes("/gpfs/fs1/"));
    private static final Instant NOW = Instant.parse("2026-12-01T16:00:00Z");
    private static final String REPORT = """
            {"apiVersion":"rdmastorage.io/v1alpha1","kind":"AcceptanceReport","node":"gpu-07","probeVersion":"0.1.0",
             "fioVersion":"fio-3.33","startedAt":"2026-12-01T16:00:00Z","durationMillis":200000,"complete":true,"message":"",
             "transports":[{"transport":"rdma","controller":"nvme1","device":"/dev/nvme1n1","connectedByProbe":false,
               "latency":{"iops":39000.0,"bytesPerSecond":159744000,"p50Micros":25.1,"p99Micros":31.2,"p999Micros":45.0,
                          "coresBusy":1.1,"softPercent":0.5,"sysPercent":2.0},
               "iops":{"iops":1500000.0,"bytesPerSecond":6144000000,"coresBusy":1.8,"softPercent":1.0,"sysPercent":3.0},
               "bandwidth":{"iops":11000.0,"bytesPerSecond":11800000000,"coresBusy":0.9}}],
             "disconnected":[]}
            """;

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
        Node peer = new NodeBuilder().withNewMetadata().withName("storage-01").endMetadata()
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

        AcceptanceBounds allowed = new AcceptanceBounds(Map.of(), true, List.of(), List.of(), 16384, 3600);
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

        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT),
                "the path target is off", "acceptance.pathPrefixes");
    }

    @Test
    void aPathRunOutsideTheAdminsPrefixesIsRefusedByWholeDirectories() {
        RdmaStorageAcceptance run = path("gpfs-01-rdma", null);

        // /gpfs/fs1/acceptance is not under /gpfs/fs (a prefix of its name, not of its directories)
        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withPathPrefixes("/gpfs/fs", "/etc")),
                "path.directory /gpfs/fs1/acceptance is under none of", "/gpfs/fs, /etc");
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), AcceptanceBounds.DEFAULT.withPathPrefixes("/gpfs"))
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
                "nvmeof.address 10.68.20.10 is named by no profile's nvmeof targets and not in acceptance.nvmeofAddresses");

        AcceptancePlan profileNamed = plan(new AcceptanceSnapshot(run, Set.of(), Optional.empty(), false, nodes("gpu-07"),
                List.of(run), Set.of("10.68.20.10")));
        assertThat(profileNamed.creates()).hasSize(1);
        // the bounds travel in the pod's document: node-probe checks them again on the node
        assertThat(profileNamed.applies().get(0).getData().values().iterator().next())
                .contains("\"bounds\"", "\"nvmeofAddresses\":[\"10.68.20.10\"]", "\"pathPrefixes\":[\"/gpfs/fs1/\"]");

        AcceptanceBounds cidr = new AcceptanceBounds(Map.of(), false, List.of(), List.of("10.68.20.0/24"), 16384, 3600);
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), cidr).creates()).hasSize(1);
        AcceptanceBounds other = new AcceptanceBounds(Map.of(), false, List.of(), List.of("10.68.21.0/24"), 16384, 3600);
        assertRefused(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), other), "10.68.20.10 is named by no profile");
    }

    @Test
    void loopbackLinkLocalUnspecifiedAndTheDiscoverySubsystemAreNeverTargetsWhateverIsAllowed() {
        AcceptanceBounds everything = new AcceptanceBounds(Map.of(), false, List.of(), List.of("0.0.0.0/0", "::/0"), 16384, 3600);
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

    private static final String CLEANED = """
            {"kind":"AcceptanceCleanup","node":"gpu-07","runUid":"u-gpu-07-connect","complete":true,
             "disconnected":["nvme2"],"removed":[],"gone":[],"problems":[]}
            """;

    @Test
    void aRunThatChangesItsNodeRecordsWhatItMayChangeWhenItsPodIsCreated() {
        RdmaStorageAcceptance run = connecting("gpu-07-connect");

        AcceptancePlan plan = plan(new AcceptanceSnapshot(run, Set.of(), Optional.empty(), false, nodes("gpu-07"), List.of(run),
                Set.of("10.68.20.10")));

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
    void aPodKilledMidRunEndsTheRunAndItsCleanupPodRunsOnItsNodeOnceThePodIsGone() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");
        Pod killed = killed(run);

        AcceptancePlan ended = plan(snapshot(run, Set.of(killed), nodes("gpu-07"), List.of(run)));

        assertThat(ended.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(ended).getReason()).isEqualTo(Reasons.Acceptance.PROBE_FAILED);
        assertThat(ended.status().getPendingCleanup()).isEqualTo(run.getStatus().getPendingCleanup());
        assertThat(ended.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.podName(run));
        // the cleanup pod reads the run's spec ConfigMap too: it stays until the cleanup ends
        assertThat(ended.configMapDeletes()).isEmpty();
        assertThat(ended.creates()).isEmpty();
        run.setStatus(AcceptanceDigest.stamp(run, ended.status()));

        // its pod is still being deleted: the cleanup waits for it (its hooks may still undo)
        Pod terminating = new PodBuilder(killed).editMetadata().withDeletionTimestamp(Timestamps.format(NOW)).endMetadata().build();
        AcceptancePlan waiting = plan(snapshot(run, Set.of(terminating), nodes("gpu-07"), List.of(run)));
        assertThat(waiting.creates()).isEmpty();
        assertThat(cleanedUp(waiting).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_RUNNING);
        assertThat(waiting.wakeAfter()).isEqualTo(AcceptancePlanner.WAIT_RETRY);

        AcceptancePlan cleanup = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));

        assertThat(cleanup.creates()).singleElement().satisfies(pod -> {
            assertThat(pod.getMetadata().getName()).isEqualTo(AcceptancePods.cleanupPodName(run));
            assertThat(pod.getSpec().getNodeName()).isEqualTo("gpu-07");
            assertThat(pod.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance-cleanup")
                    .containsSequence("--run-uid", "u-gpu-07-connect");
            assertThat(pod.getSpec().getContainers().get(0).getCommand()).isNullOrEmpty();
            assertThat(pod.getSpec().getHostNetwork()).isFalse();
        });
        assertThat(cleanup.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(cleanup).getReason()).isEqualTo(Reasons.Acceptance.PROBE_FAILED);
        assertThat(cleanedUp(cleanup).getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(cleanedUp(cleanup).getMessage()).contains("the tcp controller to nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420");
        assertThat(cleanup.status().getPendingCleanup().getPodName()).isEqualTo(AcceptancePods.cleanupPodName(run));
        assertThat(cleanup.step()).isEqualTo(AcceptancePlan.Step.CLEANUP);

        // another run on the node waits for the cleanup
        RdmaStorageAcceptance next = nvmeof("gpu-07-next", "2026-12-01T15:59:00Z");
        run.setStatus(AcceptanceDigest.stamp(run, cleanup.status()));
        assertThat(complete(plan(snapshot(next, Set.of(), nodes("gpu-07"), List.of(run, next)))).getReason())
                .isEqualTo(Reasons.Acceptance.WAITING_FOR_NODE);
    }

    @Test
    void theCleanupPodsReportSaysTheRunIsCleanedUpAndNothingRunsAgain() {
        RdmaStorageAcceptance run = cleaningUp("gpu-07-connect");

        AcceptancePlan done = plan(snapshot(run, Set.of(cleanupPod(run, 0, CLEANED)), nodes("gpu-07"), List.of(run)));

        assertThat(cleanedUp(done).getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(cleanedUp(done).getReason()).isEqualTo(Reasons.Acceptance.CLEANED_UP);
        assertThat(cleanedUp(done).getMessage()).isEqualTo("disconnected nvme2");
        assertThat(done.status().getPendingCleanup()).isNull();
        assertThat(complete(done).getReason()).isEqualTo(Reasons.Acceptance.PROBE_FAILED);
        assertThat(done.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.cleanupPodName(run));
        assertThat(done.configMapDeletes()).containsExactly("rsa-gpu-07-connect-spec");
        assertThat(done.creates()).isEmpty();
        assertThat(done.step()).isEqualTo(AcceptancePlan.Step.CLEANUP);

        run.setStatus(AcceptanceDigest.stamp(run, done.status()));
        AcceptancePlan after = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(after.step()).isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
        assertThat(after.creates()).isEmpty();
    }

    @Test
    void aCleanupThatCouldNotUndoEverythingSaysWhatIsLeftAndIsNotRetried() {
        RdmaStorageAcceptance run = cleaningUp("gpu-07-connect");
        String failed = """
                {"kind":"AcceptanceCleanup","node":"gpu-07","runUid":"u-gpu-07-connect","complete":false,"disconnected":[],
                 "removed":[],"gone":[],"problems":["could not disconnect nvme2 (exit 1); disconnect it by hand: nvme disconnect -d nvme2"]}
                """;

        AcceptancePlan plan = plan(snapshot(run, Set.of(cleanupPod(run, 1, failed)), nodes("gpu-07"), List.of(run)));

        assertThat(cleanedUp(plan).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_FAILED);
        assertThat(cleanedUp(plan).getMessage()).contains("nvme disconnect -d nvme2");
        assertThat(plan.status().getPendingCleanup()).isNotNull();
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.CLEANUP);

        run.setStatus(AcceptanceDigest.stamp(run, plan.status()));
        assertThat(plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))).step())
                .isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
    }

    @Test
    void aRunWhosePodReportsThatItCouldNotUndoAChangeKeepsItsRecordAndItsCleanupPodFollows() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");
        String leftBehind = REPORT.replace("\"complete\":true,\"message\":\"\"",
                "\"complete\":false,\"message\":\"nvme disconnect -d nvme2 failed: Device or resource busy\"")
                .replace("\"disconnected\":[]", "\"disconnected\":[],\"cleanupProblems\":"
                        + "[\"nvme disconnect -d nvme2 failed: Device or resource busy\"]");

        AcceptancePlan ended = plan(snapshot(run, Set.of(pod(run, NOW.minusSeconds(300), leftBehind)), nodes("gpu-07"),
                List.of(run)));

        assertThat(ended.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(ended).getMessage()).contains("Device or resource busy");
        assertThat(ended.status().getPendingCleanup()).as("kept for the cleanup pod")
                .isEqualTo(run.getStatus().getPendingCleanup());
        assertThat(ended.configMapDeletes()).as("the cleanup pod reads the run's spec").isEmpty();
        run.setStatus(AcceptanceDigest.stamp(run, ended.status()));

        AcceptancePlan cleanup = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(cleanup.creates()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.cleanupPodName(run));
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

    @Test
    void aRunWhoseNodeRebootedIsCleanedUpOnceTheNodeIsReadyAgainAndAPathRunsCleanupGetsItsDirectory() {
        RdmaStorageAcceptance run = running(path("gpfs-01-rdma", null), NOW.minusSeconds(60));
        run.getStatus().setPendingCleanup(plan(snapshot(path("gpfs-01-rdma", null), Set.of(), nodes("gpu-07"), List.of()))
                .status().getPendingCleanup());
        AcceptanceDigest.stamp(run, run.getStatus());

        AcceptancePlan ended = plan(snapshot(run, Set.of(pod(run, NOW.minusSeconds(60), null)), Map.of("gpu-07", notReady("gpu-07")),
                List.of(run)));
        assertThat(complete(ended).getReason()).isEqualTo(Reasons.Acceptance.NODE_NOT_READY);
        assertThat(ended.status().getPendingCleanup().getFile()).isEqualTo("/gpfs/fs1/acceptance/rdmastorage-acceptance-gpfs-01-rdma.fio");
        run.setStatus(AcceptanceDigest.stamp(run, ended.status()));

        // rebooting: no cleanup pod while the node is NotReady, a look again every 30 s
        AcceptancePlan waiting = plan(snapshot(run, Set.of(), Map.of("gpu-07", notReady("gpu-07")), List.of(run)));
        assertThat(waiting.creates()).isEmpty();
        assertThat(cleanedUp(waiting).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_RUNNING);
        assertThat(waiting.wakeAfter()).isEqualTo(AcceptanceNodes.NODE_RETRY);
        run.setStatus(AcceptanceDigest.stamp(run, waiting.status()));

        AcceptancePlan ready = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(ready.creates()).singleElement().satisfies(pod -> {
            assertThat(pod.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance-cleanup");
            assertThat(pod.getSpec().getVolumes()).filteredOn(v -> v.getHostPath() != null)
                    .extracting(v -> v.getHostPath().getPath() + " " + v.getHostPath().getType())
                    .containsExactlyInAnyOrder("/ Directory", "/gpfs/fs1/acceptance Directory",
                            "/var/lib/rdma-storage-operator/acceptance DirectoryOrCreate");
        });
        // the CleanedUp reason did not change: no second Event
        assertThat(ready.step()).isEqualTo(AcceptancePlan.Step.NONE);
    }

    @Test
    void aRunDeletedWhileItMeasuresKeepsItsFinalizerUntilItsCleanupPodHasUndoneItsChanges() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");
        Pod measuring = pod(run, NOW.minusSeconds(300), null);

        // its own pod first: it may still undo its changes as it stops
        AcceptancePlan stopping = AcceptanceCleanupPlanner.deleting(snapshot(run, Set.of(measuring), nodes("gpu-07"), List.of(run)),
                CONFIG, NOW);
        assertThat(stopping.step()).isNotEqualTo(AcceptancePlan.Step.DELETED);
        assertThat(stopping.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(measuring.getMetadata().getName());
        assertThat(cleanedUp(stopping).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_RUNNING);
        run.setStatus(AcceptanceDigest.stamp(run, stopping.status()));

        // then the cleanup pod, from the node's journal
        AcceptancePlan cleaning = AcceptanceCleanupPlanner.deleting(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), CONFIG, NOW);
        assertThat(cleaning.creates()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.cleanupPodName(run));
        assertThat(AcceptanceCleanupKind.harvested(cleaning.status())).isFalse();
        run.setStatus(AcceptanceDigest.stamp(run, cleaning.status()));

        AcceptancePlan done = AcceptanceCleanupPlanner.deleting(snapshot(run, Set.of(cleanupPod(run, 0, CLEANED)), nodes("gpu-07"),
                List.of(run)), CONFIG, NOW);
        assertThat(cleanedUp(done).getReason()).isEqualTo(Reasons.Acceptance.CLEANED_UP);
        assertThat(AcceptanceCleanupKind.harvested(done.status())).as("the finalizer may go").isTrue();
    }

    @Test
    void aRunDeletedWithNothingToUndoOrAStatusSomeoneElseWroteGoesAtOnce() {
        RdmaStorageAcceptance pathless = running(nvmeof("gpu-07-nvmeof", "2026-12-01T15:00:00Z"), NOW.minusSeconds(60));
        assertThat(AcceptanceCleanupPlanner.deleting(snapshot(pathless, Set.of(), nodes("gpu-07"), List.of(pathless)), CONFIG, NOW)
                .step()).isEqualTo(AcceptancePlan.Step.DELETED);

        RdmaStorageAcceptance forged = connectingRunning("gpu-07-connect");
        forged.getStatus().setStartTime("2999-01-01T00:00:00Z");
        assertThat(AcceptanceCleanupPlanner.deleting(snapshot(forged, Set.of(), nodes("gpu-07"), List.of(forged)), CONFIG, NOW)
                .step()).isEqualTo(AcceptancePlan.Step.DELETED);
    }

    @Test
    void aCleanupPodThatNeverRanEndsTheCleanupFailedWithWhatToUndoByHand() {
        RdmaStorageAcceptance run = cleaningUp("gpu-07-connect");
        Pod lost = new PodBuilder(cleanupPod(run, 0, CLEANED)).withNewStatus().withPhase("Failed").withReason("Evicted")
                .withMessage("The node was low on resource: memory.").endStatus().build();

        AcceptancePlan plan = plan(snapshot(run, Set.of(lost), nodes("gpu-07"), List.of(run)));

        assertThat(cleanedUp(plan).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_FAILED);
        assertThat(cleanedUp(plan).getMessage()).contains("Evicted", "undo by hand",
                "the tcp controller to nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420", "u-gpu-07-connect.json");
        assertThat(plan.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.cleanupPodName(run));
    }

    /** An nvmeof run that may connect the missing transports. */
    private static RdmaStorageAcceptance connecting(String name) {
        RdmaStorageAcceptance run = nvmeof(name, "2026-12-01T15:00:00Z");
        run.getSpec().getNvmeof().setConnect(true);
        return run;
    }

    /** {@link #connecting}, Running since five minutes, with what it may change recorded. */
    private static RdmaStorageAcceptance connectingRunning(String name) {
        RdmaStorageAcceptance run = connecting(name);
        run.setStatus(status(Reasons.Acceptance.PHASE_RUNNING, NOW.minusSeconds(300)));
        run.getStatus().setPodName(AcceptancePods.podName(run));
        try {
            run.getStatus().setPendingCleanup(AcceptanceCleanupPlanner.intended(run, AcceptanceSpecDocument.of(run.getSpec(), name)));
        } catch (io.rdmastorage.contract.spec.InvalidSpecException e) {
            throw new AssertionError(e);
        }
        AcceptanceDigest.stamp(run, run.getStatus());
        return run;
    }

    /** {@link #connectingRunning} whose pod was killed and whose cleanup pod was created. */
    private static RdmaStorageAcceptance cleaningUp(String name) {
        RdmaStorageAcceptance run = connectingRunning(name);
        RdmaStorageAcceptanceStatus ended = plan(snapshot(run, Set.of(killed(run)), nodes("gpu-07"), List.of(run))).status();
        run.setStatus(AcceptanceDigest.stamp(run, ended));
        run.setStatus(AcceptanceDigest.stamp(run, plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))).status()));
        return run;
    }

    /** The run's pod, SIGKILLed: exit 137 and no termination message. */
    private static Pod killed(RdmaStorageAcceptance run) {
        return new PodBuilder(pod(run, NOW.minusSeconds(300), null)).editStatus().withPhase("Failed").addNewContainerStatus()
                .withName("node-probe").withNewState().withNewTerminated().withExitCode(137).withReason("Error")
                .withFinishedAt(Timestamps.format(NOW)).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    /** The run's cleanup pod, ended with {@code exitCode} and {@code report}. */
    private static Pod cleanupPod(RdmaStorageAcceptance run, int exitCode, String report) {
        return new PodBuilder().withNewMetadata().withName(AcceptancePods.cleanupPodName(run)).withNamespace("rso")
                .withCreationTimestamp(Timestamps.format(NOW.minusSeconds(20))).withOwnerReferences(AcceptancePods.ownerReference(run))
                .endMetadata().withNewStatus().withPhase(exitCode == 0 ? "Succeeded" : "Failed").addNewContainerStatus()
                .withName("node-probe").withNewState().withNewTerminated().withExitCode(exitCode).withMessage(report)
                .withFinishedAt(Timestamps.format(NOW)).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    private static Condition cleanedUp(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.CLEANED_UP);
    }

    private static void assertRefused(AcceptancePlan plan, String... message) {
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.applies()).isEmpty();
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.OUTSIDE_ADMIN_BOUNDS);
        assertThat(complete(plan).getMessage()).contains(message);
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.ENDED);
    }

    private static AcceptancePlan plan(AcceptanceSnapshot snapshot, AcceptanceBounds bounds) {
        return RdmaStorageAcceptanceReconciler.plan(snapshot, CONFIG.withAcceptance(bounds), NOW);
    }

    private static AcceptancePlan plan(AcceptanceSnapshot snapshot) {
        return RdmaStorageAcceptanceReconciler.plan(snapshot, CONFIG, NOW);
    }

    private static AcceptanceSnapshot snapshot(RdmaStorageAcceptance run, Set<Pod> pods, Map<String, Node> nodes,
                                               List<RdmaStorageAcceptance> runs) {
        return new AcceptanceSnapshot(run, pods, Optional.empty(), false, nodes, runs, Set.of());
    }

    private static RdmaStorageAcceptance nvmeof(String name, String created) {
        AcceptanceNvmeofTarget target = new AcceptanceNvmeofTarget();
        target.setNqn("nqn.2024-01.dev.wutz:target1");
        target.setAddress("10.68.20.10");
        target.setTransports(List.of(AcceptanceTransport.RDMA, AcceptanceTransport.TCP));
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setNvmeof(target);
        return run(name, created, spec);
    }

    private static RdmaStorageAcceptance path(String name, String compareWith) {
        AcceptancePathTarget path = new AcceptancePathTarget();
        path.setDirectory("/gpfs/fs1/acceptance");
        path.setCompareWith(compareWith);
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setPath(path);
        return run(name, "2026-12-01T15:00:00Z", spec);
    }

    private static RdmaStorageAcceptance verbs(String name) {
        AcceptanceVerbsTarget verbs = new AcceptanceVerbsTarget();
        verbs.setPeerNode("storage-01");
        verbs.setDevice("mlx5_0");
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setVerbs(verbs);
        return run(name, "2026-12-01T15:00:00Z", spec);
    }

    private static RdmaStorageAcceptance run(String name, String created, RdmaStorageAcceptanceSpec spec) {
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName(name).withUid("u-" + name).withGeneration(1L)
                .withCreationTimestamp(created).build());
        run.setSpec(spec);
        return run;
    }

    /** Running since {@code started}, its status stamped as the operator writes it. */
    private static RdmaStorageAcceptance running(RdmaStorageAcceptance run, Instant started) {
        run.setStatus(status(Reasons.Acceptance.PHASE_RUNNING, started));
        run.getStatus().setPodName(AcceptancePods.podName(run));
        AcceptanceDigest.stamp(run, run.getStatus());
        return run;
    }

    private static RdmaStorageAcceptanceStatus status(String phase, Instant started) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setPhase(phase);
        status.setStartTime(started == null ? null : Timestamps.format(started));
        return status;
    }

    /** The run's pod (owned by its UID), created at {@code created}; with a report, its container ended with it. */
    private static Pod pod(RdmaStorageAcceptance run, Instant created, String report) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(AcceptancePods.podName(run)).withNamespace("rso")
                .withCreationTimestamp(Timestamps.format(created)).withOwnerReferences(AcceptancePods.ownerReference(run))
                .endMetadata();
        if (report == null) {
            return pod.withNewStatus().withPhase("Running").endStatus().build();
        }
        return pod.withNewStatus().withPhase("Succeeded").addNewContainerStatus().withName("node-probe").withNewState()
                .withNewTerminated().withExitCode(0).withMessage(report).withFinishedAt(Timestamps.format(NOW))
                .endTerminated().endState().endContainerStatus().endStatus().build();
    }

    private static Map<String, Node> nodes(String... names) {
        Map<String, Node> nodes = new java.util.HashMap<>();
        for (String name : names) {
            nodes.put(name, node(name));
        }
        return nodes;
    }

    /** A Ready, schedulable node. */
    private static Node node(String name) {
        return node(name, Map.of());
    }

    private static Node node(String name, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    private static Node notReady(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("Unknown").endCondition().endStatus().build();
    }

    private static Condition complete(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.COMPLETE);
    }

    private static Condition effective(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.RDMA_EFFECTIVE);
    }
}
