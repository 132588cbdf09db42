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
 * The write-ahead cleanup's planner in memory ({@link AcceptanceCleanupPlanner}, a measurement kind
 * of its own: {@link AcceptanceCleanupKind}), entered as the reconciler enters it: a run that ended
 * without saying it undid its changes to its node is cleaned up by one cleanup pod from its journal
 * there, once, inside the admin's bounds, and never for a status the operator did not write.
 */
class AcceptanceCleanupPlannerTest {

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

    // security round 4 (1): a status the operator did not write is reported, and nothing is done on the node for it

    @Test
    void anEditedPendingCleanupOnAFinishedRunStartsNoCleanupPodHoldsNoNodeAndLoopsNever() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");
        AcceptancePlan succeeded = plan(snapshot(run, Set.of(pod(run, NOW.minusSeconds(300), REPORT)), nodes("gpu-07"),
                List.of(run)));
        run.setStatus(AcceptanceDigest.stamp(run, succeeded.status()));
        assertThat(run.getStatus().getPendingCleanup()).isNull();

        for (int edit = 0; edit < 5; edit++) {
            // kubectl patch --subresource=status: a record of changes the run never made
            run.getStatus().setPendingCleanup(connectingRunning("gpu-07-connect").getStatus().getPendingCleanup());
            run.getStatus().getPendingCleanup().setPodName("edit-" + edit);
            AcceptancePlan plan = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
            assertThat(plan.creates()).as("edit %d", edit).isEmpty();
            assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.ENDED);
            assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.STATUS_EDITED);
            assertThat(complete(plan).getMessage()).contains("no cleanup pod runs for it",
                    "the tcp controller to nqn.2024-01.dev.wutz:target1 at 10.68.20.10:4420");
            // the field another manager added cannot be removed: the operator's status carries it, and acts on none of it
            run.setStatus(AcceptanceDigest.stamp(run, plan.status()));
            assertThat(run.getStatus().getPendingCleanup()).isNotNull();
            assertThat(AcceptanceCleanupKind.due(run)).isFalse();
            assertThat(AcceptanceTransportHolds.heldNode(run)).isEmpty();
            AcceptancePlan after = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
            assertThat(after.creates()).isEmpty();
            assertThat(after.status()).as("nothing to write: no loop").isNull();
            assertThat(AcceptanceCleanupPlanner.deleting(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)), CONFIG, NOW)
                    .step()).as("its deletion waits for no cleanup").isEqualTo(AcceptancePlan.Step.DELETED);
        }
    }

    @Test
    void aCleanupEndsOnceEvenWhenItsRecordComesBackWithAValidDigest() {
        RdmaStorageAcceptance run = cleaningUp("gpu-07-connect");
        AcceptancePlan done = plan(snapshot(run, Set.of(cleanupPod(run, 0, CLEANED)), nodes("gpu-07"), List.of(run)));
        run.setStatus(AcceptanceDigest.stamp(run, done.status()));

        // whoever recomputes the digest can put the record back; the cleanup's one round is harvested all the same
        run.getStatus().setPendingCleanup(connectingRunning("gpu-07-connect").getStatus().getPendingCleanup());
        AcceptanceDigest.stamp(run, run.getStatus());
        assertThat(AcceptanceCleanupKind.harvested(run.getStatus())).isTrue();
        AcceptancePlan again = plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run)));
        assertThat(again.creates()).isEmpty();
        assertThat(again.step()).isEqualTo(AcceptancePlan.Step.FINISHED_BEFORE);
    }

    @Test
    void atMostOneCleanupPodPerRunAndOneLeftAfterItsEndIsDeleted() {
        RdmaStorageAcceptance run = cleaningUp("gpu-07-connect");
        Pod running = new PodBuilder(cleanupPod(run, 0, CLEANED)).withNewStatus().withPhase("Running").endStatus().build();
        AcceptancePlan inFlight = plan(snapshot(run, Set.of(running), nodes("gpu-07"), List.of(run)));
        assertThat(inFlight.creates()).as("in flight: no second pod").isEmpty();

        AcceptancePlan done = plan(snapshot(run, Set.of(cleanupPod(run, 0, CLEANED)), nodes("gpu-07"), List.of(run)));
        run.setStatus(AcceptanceDigest.stamp(run, done.status()));
        // an operator restart between the status write and the delete: the pod is a leftover of a harvested round
        AcceptancePlan leftover = plan(snapshot(run, Set.of(cleanupPod(run, 0, CLEANED)), nodes("gpu-07"), List.of(run)));
        assertThat(leftover.creates()).isEmpty();
        assertThat(leftover.deletes()).extracting(p -> p.getMetadata().getName()).containsExactly(AcceptancePods.cleanupPodName(run));
    }

    @Test
    void aCleanupPodIsRefusedOutsideTheAdminsBoundsAsARunWouldBe() {
        RdmaStorageAcceptance run = connectingRunning("gpu-07-connect");
        AcceptancePlan ended = plan(snapshot(run, Set.of(killed(run)), nodes("gpu-07"), List.of(run)));
        run.setStatus(AcceptanceDigest.stamp(run, ended.status()));
        Node controlPlane = new NodeBuilder(node("gpu-07")).editMetadata()
                .addToLabels("node-role.kubernetes.io/master", "").endMetadata().build();

        AcceptancePlan refused = plan(snapshot(run, Set.of(), Map.of("gpu-07", controlPlane), List.of(run)));

        assertThat(refused.creates()).isEmpty();
        assertThat(cleanedUp(refused).getReason()).isEqualTo(Reasons.Acceptance.CLEANUP_FAILED);
        assertThat(cleanedUp(refused).getMessage()).contains("no cleanup pod was started", "control-plane node",
                "label node-role.kubernetes.io/master", "undo by hand");
        run.setStatus(AcceptanceDigest.stamp(run, refused.status()));
        assertThat(AcceptanceCleanupKind.due(run)).as("ended: not retried").isFalse();
    }
}
