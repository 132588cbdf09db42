package io.rdmastorage.operator.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProbeOutcomeReaderTest {

    private static final Instant CREATED = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final String REPORT = "{\"apiVersion\":\"rdmastorage.io/v1alpha1\",\"kind\":\"NodeProbeReport\",\"status\":\"False\"}";

    private static PodBuilder pod(String phase) {
        return new PodBuilder()
                .withNewMetadata().withName("p-gpu-07-0123456789-1").withCreationTimestamp(CREATED.toString()).endMetadata()
                .withNewSpec().withNodeName("gpu-07").endSpec()
                .withStatus(new PodStatusBuilder().withPhase(phase).build());
    }

    private static Pod withProbe(String phase, ContainerStateBuilder state) {
        return pod(phase).editStatus()
                .addToContainerStatuses(new ContainerStatusBuilder().withName("node-probe").withState(state.build()).build())
                .endStatus().build();
    }

    private static ContainerStateBuilder terminated(int exit, String message) {
        return new ContainerStateBuilder().withNewTerminated().withExitCode(exit).withMessage(message)
                .withReason(exit == 0 ? "Completed" : "Error").withFinishedAt("2026-03-01T10:00:03Z").endTerminated();
    }

    private static ContainerStateBuilder waiting(String reason) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(reason + " details").endWaiting();
    }

    private static ProbeOutcome at(Pod pod, Duration after) {
        return ProbeOutcomeReader.of(pod, CREATED.plus(after), TIMEOUT);
    }

    @Test
    void aFreshPendingPodIsInProgressUntilTimeoutPlusGrace() {
        assertThat(at(pod("Pending").build(), Duration.ofSeconds(1)))
                .isEqualTo(new ProbeOutcome.InProgress(CREATED.plus(TIMEOUT).plusSeconds(18)));
        assertThat(at(withProbe("Pending", waiting("ContainerCreating")), Duration.ofSeconds(5)))
                .isInstanceOf(ProbeOutcome.InProgress.class);
    }

    @Test
    void aPodWithoutStatusYetIsInProgress() {
        Pod pod = pod("Pending").withStatus(null).build();
        assertThat(at(pod, Duration.ZERO)).isInstanceOf(ProbeOutcome.InProgress.class);
    }

    @Test
    void aRunningPodIsInProgressWithinTheTimeout() {
        Pod pod = withProbe("Running", new ContainerStateBuilder().withNewRunning().withStartedAt(CREATED.toString()).endRunning());
        assertThat(at(pod, Duration.ofMinutes(2))).isInstanceOf(ProbeOutcome.InProgress.class);
        assertThat(at(pod, TIMEOUT.plusSeconds(18))).isInstanceOf(ProbeOutcome.InProgress.class);
    }

    @Test
    void aRunningPodPastTimeoutAndGraceTimedOut() {
        Pod pod = withProbe("Running", new ContainerStateBuilder().withNewRunning().endRunning());
        assertThat(at(pod, TIMEOUT.plusSeconds(19))).isEqualTo(new ProbeOutcome.TimedOut(TIMEOUT.plusSeconds(19)));
    }

    @Test
    void aPodStuckPendingTimesOutTooAndSaysItNeverStarted() {
        ProbeOutcome outcome = at(pod("Pending").build(), Duration.ofMinutes(10));
        assertThat(outcome).isInstanceOf(ProbeOutcome.TimedOut.class);
        assertThat(outcome.describe()).isEqualTo("did not start within 600s: its container has not started on node gpu-07");

        Pod unschedulable = pod("Pending").editStatus().addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage("0/3 nodes are available: 1 node(s) were unschedulable.")
                .endCondition().endStatus().build();
        assertThat(ProbeOutcomeReader.notStarted(unschedulable)).contains(
                "not scheduled: Unschedulable: 0/3 nodes are available: 1 node(s) were unschedulable.");
        Pod creating = withProbe("Pending", new ContainerStateBuilder().withNewWaiting().withReason("ContainerCreating").endWaiting());
        assertThat(ProbeOutcomeReader.notStarted(creating)).contains("its container is waiting: ContainerCreating");
        assertThat(ProbeOutcomeReader.notStarted(withProbe("Running", new ContainerStateBuilder().withNewRunning().endRunning())))
                .isEmpty();
    }

    @Test
    void aSucceededPodFinishedWithExitZero() {
        Pod pod = withProbe("Succeeded", terminated(0, REPORT));
        assertThat(at(pod, Duration.ofSeconds(4)))
                .isEqualTo(new ProbeOutcome.Finished(0, REPORT, Instant.parse("2026-03-01T10:00:03Z")));
    }

    @Test
    void aFailedPodWithExitOneIsANormalVerdictNotAFailure() {
        Pod pod = withProbe("Failed", terminated(1, REPORT));
        assertThat(at(pod, Duration.ofSeconds(4)))
                .isEqualTo(new ProbeOutcome.Finished(1, REPORT, Instant.parse("2026-03-01T10:00:03Z")));
    }

    @Test
    void aResultHarvestedLateIsStillAResult() {
        Pod pod = withProbe("Failed", terminated(2, "node-probe: invalid spec: gpfs.verbsPorts[0]: ..."));
        assertThat(at(pod, Duration.ofHours(1))).isInstanceOfSatisfying(ProbeOutcome.Finished.class, f -> {
            assertThat(f.exitCode()).isEqualTo(2);
            assertThat(f.terminationMessage()).startsWith("node-probe: invalid spec");
        });
    }

    @Test
    void aTerminatedContainerWithoutMessageFinishesWithAnEmptyOne() {
        Pod pod = withProbe("Failed", new ContainerStateBuilder().withNewTerminated().withExitCode(3).endTerminated());
        assertThat(at(pod, Duration.ofSeconds(4))).isEqualTo(new ProbeOutcome.Finished(3, "", CREATED.plusSeconds(4)));
    }

    @Test
    void imageAndContainerCreationErrorsFailedToStart() {
        for (String reason : new String[] {"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull",
                "CreateContainerConfigError", "CreateContainerError", "RunContainerError"}) {
            assertThat(at(withProbe("Pending", waiting(reason)), Duration.ofSeconds(5)))
                    .isEqualTo(new ProbeOutcome.FailedToStart(reason, reason + " details"));
        }
    }

    @Test
    void theKubeletsDeadlineIsATimeout() {
        Pod noContainer = pod("Failed").editStatus().withReason("DeadlineExceeded")
                .withMessage("Pod was active on the node longer than the specified deadline").endStatus().build();
        assertThat(at(noContainer, Duration.ofSeconds(181))).isEqualTo(new ProbeOutcome.TimedOut(Duration.ofSeconds(181)));

        Pod killed = withProbe("Failed", terminated(137, null));
        killed.getStatus().setReason("DeadlineExceeded");
        assertThat(at(killed, Duration.ofSeconds(182))).isEqualTo(new ProbeOutcome.TimedOut(Duration.ofSeconds(182)));
    }

    @Test
    void aPodTheKubeletRefusedFailedToStart() {
        Pod pod = pod("Failed").editStatus().withReason("OutOfcpu")
                .withMessage("Pod Node didn't have enough resource: cpu").endStatus().build();
        assertThat(at(pod, Duration.ofSeconds(1)))
                .isEqualTo(new ProbeOutcome.FailedToStart("OutOfcpu", "Pod Node didn't have enough resource: cpu"));

        Pod bare = pod("Failed").build();
        assertThat(at(bare, Duration.ofSeconds(1))).isInstanceOfSatisfying(ProbeOutcome.FailedToStart.class,
                f -> assertThat(f.reason()).isEqualTo("Failed"));
    }

    @Test
    void unknownPhaseMeansTheNodeIsLost() {
        assertThat(at(pod("Unknown").build(), Duration.ofSeconds(30))).isInstanceOfSatisfying(ProbeOutcome.Lost.class,
                l -> assertThat(l.reason()).isEqualTo("NodeLost"));
        assertThat(ProbeOutcomeReader.nodeGone("gpu-07").message()).contains("gpu-07");
    }

    @Test
    void evictionAndNodeShutdownAreLostEvenWithAKilledContainer() {
        Pod evicted = withProbe("Failed", terminated(137, null));
        evicted.getStatus().setReason("Evicted");
        evicted.getStatus().setMessage("The node was low on resource: memory.");
        assertThat(at(evicted, Duration.ofSeconds(30)))
                .isEqualTo(new ProbeOutcome.Lost("Evicted", "The node was low on resource: memory."));

        Pod shutdown = pod("Failed").editStatus().withReason("Terminated").endStatus().build();
        assertThat(at(shutdown, Duration.ofSeconds(30))).isInstanceOf(ProbeOutcome.Lost.class);
    }

    @Test
    void anOomKilledProbeIsLostWithItsOwnLimitNamed() {
        Pod pod = withProbe("Failed", new ContainerStateBuilder().withNewTerminated().withExitCode(137).withReason("OOMKilled").endTerminated());
        assertThat(at(pod, Duration.ofSeconds(30))).isInstanceOfSatisfying(ProbeOutcome.Lost.class, l -> {
            assertThat(l.reason()).isEqualTo("OOMKilled");
            assertThat(l.message()).isEqualTo("node-probe was killed for exceeding its memory limit before it reported");
        });
        // an acceptance run's pod has 1Gi, a profile's probe 256Mi: the message names the pod's own
        pod.setSpec(new PodSpecBuilder().addNewContainer().withName(ProbePodFactory.CONTAINER)
                .withNewResources().addToLimits("memory", new Quantity("1Gi")).endResources().endContainer().build());
        assertThat(at(pod, Duration.ofSeconds(30))).isInstanceOfSatisfying(ProbeOutcome.Lost.class,
                l -> assertThat(l.message()).contains("its memory limit (1Gi)"));
    }

    @Test
    void aPodDeletedBeforeItReportedIsLost() {
        Pod pod = withProbe("Running", new ContainerStateBuilder().withNewRunning().endRunning());
        pod.getMetadata().setDeletionTimestamp("2026-03-01T10:00:10Z");
        assertThat(at(pod, Duration.ofSeconds(20))).isInstanceOfSatisfying(ProbeOutcome.Lost.class,
                l -> assertThat(l.reason()).isEqualTo("PodDeleted"));

        Pod harvested = withProbe("Succeeded", terminated(0, REPORT));
        harvested.getMetadata().setDeletionTimestamp("2026-03-01T10:00:10Z");
        assertThat(at(harvested, Duration.ofSeconds(20))).isInstanceOf(ProbeOutcome.Finished.class);
    }

    @Test
    void succeededWithoutAContainerStateIsLost() {
        assertThat(at(pod("Succeeded").build(), Duration.ofSeconds(5))).isInstanceOfSatisfying(ProbeOutcome.Lost.class,
                l -> assertThat(l.reason()).isEqualTo("NoContainerStatus"));
    }

    @Test
    void graceIsATenthOfTheTimeoutWithinBounds() {
        assertThat(ProbeOutcomeReader.grace(Duration.ofMinutes(3))).isEqualTo(Duration.ofSeconds(18));
        assertThat(ProbeOutcomeReader.grace(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(2));
        assertThat(ProbeOutcomeReader.grace(Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(30));
    }
}
