package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.GpfsCheckSpec;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeProbePlanner} from cached state alone: fabric8 objects built by hand, a fixed clock. The
 * profile probes every 15 minutes with a 3-minute timeout, so a running probe counts as timed out
 * 3m18s after its pod was created (10% grace) and a result expires after 45 minutes.
 */
class NodeProbePlannerTest {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final String NODE = "gpu-07";
    static final String PROFILE = "gpfs-training";
    static final long GEN = 7;
    static final Duration INTERVAL = Duration.ofMinutes(15);
    static final Duration TIMEOUT = Duration.ofMinutes(3);
    static final Duration GRACE = Duration.ofSeconds(18);
    static final ProfileSettings SETTINGS = new ProfileSettings(INTERVAL, TIMEOUT, 20, false, false, false);
    static final String REPORT = "{\"apiVersion\":\"rdmastorage.io/v1alpha1\",\"kind\":\"NodeProbeReport\"}";

    // ---------------------------------------------------------------- harvesting

    @Nested
    class Harvesting {

        @Test
        void aFinishedProbePodIsHarvestedWithItsRoundGenerationAndOutcome() {
            Pod pod = probePod(4, NOW.minusSeconds(30)).withGeneration(6).terminated(0, REPORT, NOW.minusSeconds(10));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(Duration.ofMinutes(16)), 3)), pod);

            assertThat(plan.harvests()).singleElement().satisfies(h -> {
                assertThat(h.pod()).isSameAs(pod);
                assertThat(h.round()).isEqualTo(4);
                assertThat(h.generation()).as("the generation the pod was built from, not the profile's").isEqualTo(6);
                assertThat(h.outcome()).isEqualTo(new ProbeOutcome.Finished(0, REPORT, NOW.minusSeconds(10)));
            });
            assertThat(plan.stalePods()).isEmpty();
            assertThat(plan.forget()).isFalse();
        }

        @Test
        void aHarvestStartsNoNewRoundAndDecidesNothingElseUntilItIsWritten() {
            // the result is older than the interval and even expired: the harvest replaces it
            Pod pod = probePod(4, NOW.minusSeconds(30)).terminated(1, REPORT, NOW.minusSeconds(10));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(Duration.ofHours(2)), 3)), pod);

            assertThat(plan.harvests()).hasSize(1);
            assertThat(plan.probe()).isEmpty();
            assertThat(plan.expire()).isFalse();
            assertThat(plan.notProbed()).isEmpty();
            assertThat(plan.wakeAt()).isEmpty();
        }

        @Test
        void aPodWithoutAGenerationAnnotationIsHarvestedUnderTheProfilesGeneration() {
            Pod pod = probePod(4, NOW.minusSeconds(30)).terminated(0, REPORT, NOW.minusSeconds(10));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(Duration.ofMinutes(16)), 3)), pod);

            assertThat(plan.harvests()).singleElement().extracting(NodeProbePlan.Harvest::generation).isEqualTo(GEN);
        }

        @Test
        void probesThatNeverReportedAreHarvestedWithTheirFailure() {
            Pod imagePull = probePod(1, NOW.minusSeconds(30)).waiting("ImagePullBackOff");
            Pod hung = probePod(2, NOW.minus(TIMEOUT).minus(GRACE).minusSeconds(1)).running();
            Pod evicted = probePod(3, NOW.minusSeconds(30)).podFailed("Evicted");

            NodeProbePlan plan = plan(readyNode(), null, evicted, hung, imagePull);

            assertThat(plan.harvests()).extracting(NodeProbePlan.Harvest::round).containsExactly(1L, 2L, 3L);
            assertThat(plan.harvests()).extracting(h -> (Object) h.outcome().getClass()).containsExactly(
                    ProbeOutcome.FailedToStart.class, ProbeOutcome.TimedOut.class, ProbeOutcome.Lost.class);
            assertThat(plan.probe()).isEmpty();
        }

        @Test
        void aFinishedRoundIsHarvestedWhileALaterOneStillRuns() {
            Pod finished = probePod(4, NOW.minus(Duration.ofMinutes(5))).terminated(0, REPORT, NOW.minus(Duration.ofMinutes(4)));
            Pod running = probePod(5, NOW.minusSeconds(20)).running();

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(Duration.ofMinutes(20)), 3)), running, finished);

            assertThat(plan.harvests()).extracting(NodeProbePlan.Harvest::pod).containsExactly(finished);
            assertThat(plan.stalePods()).isEmpty();
            assertThat(plan.probe()).isEmpty();
            assertThat(plan.wakeAt()).contains(NOW.minusSeconds(20).plus(TIMEOUT).plus(GRACE));
        }
    }

    // ---------------------------------------------------------------- stale pods

    @Nested
    class StalePods {

        @Test
        void aNodeWhoseRoundWasAlreadyHarvestedHasItsPodDeletedNotHarvestedAgain() {
            // the operator wrote probeRound 4 and restarted before it deleted the pod
            Pod pod = probePod(4, NOW.minusSeconds(30)).terminated(0, REPORT, NOW.minusSeconds(10));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minusSeconds(5), 4)), pod);

            assertThat(plan.stalePods()).containsExactly(pod);
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.forget()).isFalse();
            assertThat(plan.probe()).as("probed 5 s ago: not due").isEmpty();
            assertThat(plan.wakeAt()).contains(NOW.minusSeconds(5).plus(INTERVAL));
        }

        @Test
        void aStalePodIsDeletedEvenWhileItStillRunsAndDoesNotHoldBackTheNextRound() {
            Pod running = probePod(2, NOW.minusSeconds(30)).running();

            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(INTERVAL), 3)), running);

            assertThat(plan.stalePods()).containsExactly(running);
            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, NOW.minus(INTERVAL)));
        }

        @Test
        void aPodWithoutARoundLabelCountsAsHarvested() {
            Pod unlabelled = new PodBuilder(probePod(1, NOW.minusSeconds(30)).terminated(0, REPORT, NOW.minusSeconds(10)))
                    .editMetadata().removeFromLabels(Labels.ROUND).endMetadata().build();
            Pod garbled = new PodBuilder(unlabelled).editMetadata().addToLabels(Labels.ROUND, "three").endMetadata().build();

            NodeProbePlan plan = plan(readyNode(), null, unlabelled, garbled);

            assertThat(plan.stalePods()).containsExactlyInAnyOrder(unlabelled, garbled);
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(1, null));
        }
    }

    // ---------------------------------------------------------------- nodes that cannot be probed

    @Nested
    class NotProbeable {

        @Test
        void aNotReadyNodeIsMarkedNotProbedAndGetsNoProbe() {
            NodeProbePlan plan = plan(notReadyNode(), verdict(probed(NOW.minus(Duration.ofHours(1)), 3)));

            assertThat(plan.notProbed()).contains(NotProbed.NODE_NOT_READY);
            assertThat(plan.probe()).isEmpty();
            assertThat(plan.expire()).as("the not-probed verdict replaces the result").isFalse();
            assertThat(plan.wakeAt()).as("a node event brings it back, not the clock").isEmpty();
            assertThat(plan.forget()).isFalse();
        }

        @Test
        void aCordonedNodeIsMarkedUnschedulableAndGetsNoProbe() {
            NodeProbePlan plan = plan(cordoned(readyNode()), null);

            assertThat(plan.notProbed()).contains(NotProbed.NODE_UNSCHEDULABLE);
            assertThat(plan.probe()).isEmpty();
        }

        @Test
        void aNodeWhoseVerdictAlreadySaysNotReadyIsNotMarkedAgain() {
            RdmaStorageNodeStatus marked = NodeVerdicts.notProbed(spec(), GEN, NODE, NotProbed.NODE_NOT_READY,
                    NOW.minus(Duration.ofMinutes(30)));
            marked.setProbeRound(3L);

            NodeProbePlan plan = plan(notReadyNode(), verdict(marked));

            assertThat(plan.notProbed()).isEmpty();
            assertThat(plan.probe()).isEmpty();
            assertThat(plan.expire()).isFalse();
        }

        @Test
        void aNotReadyNodeThatIsCordonedNowIsMarkedAgainWithTheNewReason() {
            RdmaStorageNodeStatus marked = NodeVerdicts.notProbed(spec(), GEN, NODE, NotProbed.NODE_NOT_READY,
                    NOW.minus(Duration.ofMinutes(30)));

            NodeProbePlan plan = plan(cordoned(notReadyNode()), verdict(marked));

            assertThat(plan.notProbed()).contains(NotProbed.NODE_UNSCHEDULABLE);
        }

        @Test
        void aNotProbeableNodeWithAFinishedProbeIsHarvestedFirstAndMarkedLater() {
            Pod pod = probePod(4, NOW.minusSeconds(30)).terminated(0, REPORT, NOW.minusSeconds(10));

            NodeProbePlan plan = plan(notReadyNode(), verdict(probed(NOW.minus(Duration.ofMinutes(16)), 3)), pod);

            assertThat(plan.harvests()).hasSize(1);
            assertThat(plan.notProbed()).isEmpty();
        }

        @Test
        void aProbeStillRunningOnANodeThatWentNotReadyIsWatchedUntilItTimesOut() {
            Instant created = NOW.minusSeconds(20);

            NodeProbePlan plan = plan(notReadyNode(), verdict(probed(NOW.minus(Duration.ofMinutes(16)), 3)),
                    probePod(4, created).running());

            assertThat(plan.notProbed()).contains(NotProbed.NODE_NOT_READY);
            assertThat(plan.stalePods()).isEmpty();
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.wakeAt()).contains(created.plus(TIMEOUT).plus(GRACE));
        }
    }

    // ---------------------------------------------------------------- expiry

    @Nested
    class Expiry {

        @Test
        void aResultOlderThanThreeIntervalsIsExpired() {
            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(INTERVAL.multipliedBy(3)).minusSeconds(1), 3)));

            assertThat(plan.expire()).isTrue();
            assertThat(plan.probe()).as("long overdue as well").isPresent();
        }

        @Test
        void aResultExactlyThreeIntervalsOldIsNotExpiredYet() {
            Instant lastProbe = NOW.minus(INTERVAL.multipliedBy(3));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(lastProbe, 3)));

            assertThat(plan.expire()).isFalse();
            assertThat(plan.wakeAt()).as("its expiry is now").contains(NOW);
        }

        @Test
        void anExpiredResultIsExpiredOnlyOnce() {
            Instant lastProbe = NOW.minus(Duration.ofHours(2));
            RdmaStorageNodeStatus expired = NodeVerdicts.expire(probed(lastProbe, 3), NOW.minus(Duration.ofMinutes(5)),
                    SETTINGS.expiry());
            assertThat(expired.getConditions()).allSatisfy(c -> assertThat(c.getReason()).isEqualTo(Reasons.RESULT_EXPIRED));

            NodeProbePlan plan = plan(readyNode(), verdict(expired));

            assertThat(plan.expire()).isFalse();
            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, lastProbe));
        }

        @Test
        void anExpiryAlreadyWrittenIsNoReasonToWakeUp() {
            // the node waits for a probe slot; pod events bring it back, as for any due node
            RdmaStorageNodeStatus expired = NodeVerdicts.expire(probed(NOW.minus(Duration.ofHours(2)), 3),
                    NOW.minus(Duration.ofMinutes(5)), SETTINGS.expiry());

            NodeProbePlan plan = plan(readyNode(), verdict(expired));

            assertThat(plan.wakeAt()).isEmpty();
        }

        @Test
        void aResultWithAnUnreadableProbeTimeHasExpiredAndIsDue() {
            RdmaStorageNodeStatus status = probed(NOW.minus(Duration.ofMinutes(1)), 3);
            status.setLastProbeTime("yesterday");

            NodeProbePlan plan = plan(readyNode(), verdict(status));

            assertThat(plan.expire()).isTrue();
            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, null));
        }

        @Test
        void aNotProbedVerdictHasNoProbeTimeAndNeverExpires() {
            RdmaStorageNodeStatus awaiting = NodeVerdicts.notProbed(spec(), GEN, NODE, NotProbed.NODE_NOT_READY,
                    NOW.minus(Duration.ofDays(3)));

            NodeProbePlan plan = plan(readyNode(), verdict(awaiting));

            assertThat(plan.expire()).isFalse();
        }
    }

    // ---------------------------------------------------------------- starting a round

    @Nested
    class Starting {

        @Test
        void aNodeNeverProbedStartsRoundOneAtOnce() {
            NodeProbePlan plan = plan(readyNode(), null);

            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(1, null));
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.stalePods()).isEmpty();
            assertThat(plan.notProbed()).isEmpty();
            assertThat(plan.expire()).isFalse();
            assertThat(plan.forget()).isFalse();
            assertThat(plan.wakeAt()).isEmpty();
        }

        @Test
        void aVerdictWithoutProbeTimeIsDueNow() {
            RdmaStorageNodeStatus wasNotReady = NodeVerdicts.notProbed(spec(), GEN, NODE, NotProbed.NODE_NOT_READY,
                    NOW.minus(Duration.ofMinutes(1)));
            wasNotReady.setProbeRound(3L);

            NodeProbePlan plan = plan(readyNode(), verdict(wasNotReady));

            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, null));
        }

        @Test
        void aProbeTimeFromTheFutureIsInvalidAndTheNodeIsProbedAtOnce() {
            // lastProbeTime hand-edited to 2099: without the rule the node would never be due again
            Instant edited = Instant.parse("2099-01-01T00:00:00Z");

            NodeProbePlan plan = plan(readyNode(), verdict(probed(edited, 3)));

            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, edited));
        }

        @Test
        void aNodeProbedWithinTheIntervalWaitsUntilItIsDue() {
            Instant lastProbe = NOW.minus(Duration.ofMinutes(10));

            NodeProbePlan plan = plan(readyNode(), verdict(probed(lastProbe, 3)));

            assertThat(plan.probe()).isEmpty();
            assertThat(plan.wakeAt()).as("next due, before the expiry").contains(lastProbe.plus(INTERVAL));
        }

        @Test
        void aNodeIsDueOnceTheIntervalHasPassed() {
            Instant lastProbe = NOW.minus(INTERVAL);

            NodeProbePlan plan = plan(readyNode(), verdict(probed(lastProbe, 3)));

            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, lastProbe));
            assertThat(plan.expire()).isFalse();
            assertThat(plan.wakeAt()).as("only its expiry is left to wake for").contains(lastProbe.plus(SETTINGS.expiry()));
        }

        @Test
        void aSpecChangeStartsAProbeBeforeTheIntervalIsUp() {
            Instant lastProbe = NOW.minus(Duration.ofMinutes(1));
            RdmaStorageNodeStatus older = probed(lastProbe, 3);
            older.setObservedGeneration(GEN - 1);

            NodeProbePlan plan = plan(readyNode(), verdict(older));

            assertThat(plan.probe()).contains(new NodeProbePlan.ProbeStart(4, lastProbe));
            assertThat(plan.wakeAt()).contains(lastProbe.plus(SETTINGS.expiry()));
        }

        @Test
        void aVerdictWithoutObservedGenerationCountsAsASpecChange() {
            RdmaStorageNodeStatus status = probed(NOW.minus(Duration.ofMinutes(1)), 3);
            status.setObservedGeneration(null);

            assertThat(plan(readyNode(), verdict(status)).probe()).isPresent();
        }

        @Test
        void aVerdictWithoutStatusYetIsDueNow() {
            assertThat(plan(readyNode(), verdict(null)).probe()).contains(new NodeProbePlan.ProbeStart(1, null));
        }

        @Test
        void aProbeInFlightHoldsBackTheNextRoundAndWakesAtItsTimeout() {
            Instant created = NOW.minusSeconds(40);
            // the stored result is overdue and expired, but the running probe will replace it
            NodeProbePlan plan = plan(readyNode(), verdict(probed(NOW.minus(Duration.ofHours(1)), 3)),
                    probePod(4, created).running());

            assertThat(plan.probe()).isEmpty();
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.stalePods()).isEmpty();
            assertThat(plan.expire()).isFalse();
            assertThat(plan.wakeAt()).contains(created.plus(TIMEOUT).plus(GRACE));
        }

        @Test
        void aPodNotYetStartedIsInFlightToo() {
            NodeProbePlan plan = plan(readyNode(), null, probePod(1, NOW.minusSeconds(2)).pending());

            assertThat(plan.probe()).isEmpty();
            assertThat(plan.wakeAt()).contains(NOW.minusSeconds(2).plus(TIMEOUT).plus(GRACE));
        }

        @Test
        void theEarliestInFlightTimeoutIsTheWakeUp() {
            Instant older = NOW.minusSeconds(90);
            Instant newer = NOW.minusSeconds(10);

            NodeProbePlan plan = plan(readyNode(), null, probePod(2, newer).running(), probePod(1, older).running());

            assertThat(plan.wakeAt()).contains(older.plus(TIMEOUT).plus(GRACE));
        }
    }

    // ---------------------------------------------------------------- forgetting

    @Nested
    class Forgetting {

        @Test
        void aNodeThatLeftTheSelectionIsForgottenWithAllItsPods() {
            Pod running = probePod(5, NOW.minusSeconds(20)).running();
            Pod finished = probePod(4, NOW.minus(Duration.ofMinutes(5))).terminated(0, REPORT, NOW.minus(Duration.ofMinutes(4)));

            NodeProbePlan plan = NodeProbePlanner.plan(NODE, readyNode(), false, verdict(probed(NOW.minus(Duration.ofHours(2)), 3)),
                    List.of(running, finished), GEN, SETTINGS, NOW);

            assertForgotten(plan);
            assertThat(plan.stalePods()).as("not harvested: the verdict goes too").containsExactly(running, finished);
        }

        @Test
        void aNodeThatVanishedIsForgottenEvenIfItsLabelsOnceMatched() {
            Pod running = probePod(5, NOW.minusSeconds(20)).running();

            NodeProbePlan plan = NodeProbePlanner.plan(NODE, null, true, verdict(probed(NOW.minus(Duration.ofMinutes(1)), 4)),
                    List.of(running), GEN, SETTINGS, NOW);

            assertForgotten(plan);
            assertThat(plan.stalePods()).containsExactly(running);
        }

        @Test
        void aNodeForgottenWithoutPodsHasNothingToDelete() {
            NodeProbePlan plan = NodeProbePlanner.plan(NODE, readyNode(), false, null, List.of(), GEN, SETTINGS, NOW);

            assertForgotten(plan);
            assertThat(plan.stalePods()).isEmpty();
        }

        private void assertForgotten(NodeProbePlan plan) {
            assertThat(plan.node()).isEqualTo(NODE);
            assertThat(plan.forget()).isTrue();
            assertThat(plan.harvests()).isEmpty();
            assertThat(plan.notProbed()).isEmpty();
            assertThat(plan.expire()).isFalse();
            assertThat(plan.probe()).isEmpty();
            assertThat(plan.wakeAt()).isEmpty();
        }
    }

    // ================================================================ fixtures

    static NodeProbePlan plan(Node node, RdmaStorageNode verdict, Pod... pods) {
        return NodeProbePlanner.plan(NODE, node, true, verdict, List.of(pods), GEN, SETTINGS, NOW);
    }

    static RdmaStorageProfileSpec spec() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setRdma(new RdmaCheckSpec());
        spec.setGpfs(new GpfsCheckSpec());
        return spec;
    }

    static Node readyNode() {
        return new NodeBuilder()
                .withNewMetadata().withName(NODE).addToLabels("nvidia.com/gpu.present", "true").endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus()
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady").endCondition()
                .endStatus()
                .build();
    }

    static Node notReadyNode() {
        return new NodeBuilder(readyNode()).editStatus()
                .withConditions(new NodeConditionBuilder()
                        .withType("Ready").withStatus("Unknown").withReason("NodeStatusUnknown").build())
                .endStatus().build();
    }

    static Node cordoned(Node node) {
        return new NodeBuilder(node).editSpec().withUnschedulable(true).endSpec().build();
    }

    static RdmaStorageNode verdict(RdmaStorageNodeStatus status) {
        RdmaStorageNode verdict = new RdmaStorageNode();
        verdict.getMetadata().setName(PROFILE + "." + NODE);
        verdict.setStatus(status);
        return verdict;
    }

    /** A healthy result of {@code round}, harvested at {@code lastProbe} under the current generation. */
    static RdmaStorageNodeStatus probed(Instant lastProbe, long round) {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setObservedGeneration(GEN);
        status.setConditions(new ArrayList<>(List.of(
                Conditions.of(CheckTypes.READY, Conditions.TRUE, Reasons.ALL_CHECKS_PASSED, "all True", GEN, lastProbe),
                Conditions.of(CheckType.RDMA_DEVICES.conditionType(), Conditions.TRUE, "PortsActive", "ok", GEN, lastProbe),
                Conditions.of(CheckType.GPFS_VERBS.conditionType(), Conditions.TRUE, "VerbsActive", "ok", GEN, lastProbe))));
        status.setLastProbeTime(Timestamps.format(lastProbe));
        status.setProbePod(ProbePodFactory.podName(PROFILE, NODE, round));
        status.setProbeRound(round);
        return status;
    }

    static ProbePodState probePod(long round, Instant created) {
        return new ProbePodState(round, created, null);
    }

    /** A probe pod of this profile on this node, in the state its last call gives it. */
    record ProbePodState(long round, Instant created, Long generation) {

        ProbePodState withGeneration(long generation) {
            return new ProbePodState(round, created, generation);
        }

        private PodBuilder base(String phase) {
            Map<String, String> labels = Labels.forNode(PROFILE, NODE);
            labels.put(Labels.COMPONENT, Labels.COMPONENT_NODE_PROBE);
            labels.put(Labels.ROUND, Long.toString(round));
            PodBuilder pod = new PodBuilder()
                    .withNewMetadata()
                        .withName(ProbePodFactory.podName(PROFILE, NODE, round))
                        .withNamespace("rdma-storage-system")
                        .withCreationTimestamp(created.toString())
                        .withLabels(labels)
                    .endMetadata()
                    .withNewSpec().withNodeName(NODE).endSpec()
                    .withNewStatus().withPhase(phase).endStatus();
            if (generation != null) {
                pod.editMetadata().addToAnnotations(ProbePodFactory.PROFILE_GENERATION_ANNOTATION, generation.toString())
                        .endMetadata();
            }
            return pod;
        }

        private Pod withContainer(String phase, ContainerStateBuilder state) {
            return base(phase).editStatus()
                    .withStartTime(created.plusSeconds(1).toString())
                    .addToContainerStatuses(new ContainerStatusBuilder().withName(ProbePodFactory.CONTAINER)
                            .withState(state.build()).build())
                    .endStatus().build();
        }

        Pod pending() {
            return base("Pending").build();
        }

        Pod running() {
            return withContainer("Running", new ContainerStateBuilder().withNewRunning()
                    .withStartedAt(created.plusSeconds(2).toString()).endRunning());
        }

        Pod waiting(String reason) {
            return withContainer("Pending", new ContainerStateBuilder().withNewWaiting().withReason(reason)
                    .withMessage(reason + ": registry.example/node-probe:1.0").endWaiting());
        }

        Pod terminated(int exitCode, String message, Instant finishedAt) {
            return withContainer(exitCode == 0 ? "Succeeded" : "Failed", new ContainerStateBuilder().withNewTerminated()
                    .withExitCode(exitCode).withReason(exitCode == 0 ? "Completed" : "Error").withMessage(message)
                    .withFinishedAt(finishedAt.toString()).endTerminated());
        }

        Pod podFailed(String reason) {
            return base("Failed").editStatus().withReason(reason).withMessage("The node was low on resource: memory.")
                    .endStatus().build();
        }
    }
}
