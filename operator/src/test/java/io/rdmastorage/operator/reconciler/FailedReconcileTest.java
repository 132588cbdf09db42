package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.VerdictKind;
import io.rdmastorage.operator.verdict.VerdictPart;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a failed reconcile leaves: the profile's Ready Unknown ReconcileFailing, the rest of the
 * aggregate kept; every measurement kind's part of a verdict past its expiry written expired; an
 * edited verdict replaced.
 */
class FailedReconcileTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void everyPartOfAVerdictIsWrittenByExactlyOneKind() {
        List<VerdictKind> kinds = FailedReconcile.kinds(ProfileSettings.of(new RdmaStorageProfileSpec()), 3);

        assertThat(kinds).extracting(VerdictKind::part).containsExactlyInAnyOrder(VerdictPart.values());
    }

    @Test
    void readySaysTheReconcileFailsWithTheErrorAndItsCause() {
        RdmaStorageProfile profile = profile(3, null);
        Exception error = new IllegalStateException("reconcile of gpfs failed",
                new KubernetesClientException("configmaps \"x\" is forbidden"));

        RdmaStorageProfileStatus status = FailedReconcile.status(profile, error, NOW);

        Condition ready = Conditions.find(status.getConditions(), CheckTypes.READY).orElseThrow();
        assertThat(ready.getStatus()).isEqualTo(Conditions.UNKNOWN);
        assertThat(ready.getReason()).isEqualTo(Reasons.RECONCILE_FAILING);
        assertThat(ready.getMessage()).contains("KubernetesClientException: configmaps \\\"x\\\" is forbidden");
        assertThat(ready.getObservedGeneration()).isEqualTo(3);
    }

    @Test
    void aSpecStoredBeforeRulesItBreaksIsNamedFieldByFieldInReady() {
        RdmaStorageProfile profile = profile(2, null);
        profile.getSpec().setNodeSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("rack")
                .endMatchExpression().build());
        LatencyCheckSpec latency = new LatencyCheckSpec();
        latency.setReferenceNodeSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("role")
                .withOperator("In").endMatchExpression().build());
        profile.getSpec().setLatency(latency);

        List<String> broken = FailedReconcile.brokenRules(profile.getSpec());
        RdmaStorageProfileStatus status = FailedReconcile.status(profile, FailedReconcile.brokenRulesMessage(broken), NOW);

        assertThat(broken).hasSize(2);
        Condition ready = Conditions.find(status.getConditions(), CheckTypes.READY).orElseThrow();
        assertThat(ready.getReason()).isEqualTo(Reasons.RECONCILE_FAILING);
        assertThat(ready.getMessage())
                .contains("spec.nodeSelector.matchExpressions[0].operator: Required value")
                .contains("spec.latency.referenceNodeSelector.matchExpressions[0]: values must be non-empty for operator In")
                .contains("fix the profile");
        assertThat(FailedReconcile.brokenRules(profile(2, null).getSpec())).isEmpty();
    }

    @Test
    void theLastAggregateIsKeptAndTheFailingGenerationIsNotObserved() {
        RdmaStorageProfileStatus previous = new RdmaStorageProfileStatus();
        previous.setObservedGeneration(2L);
        previous.setConditions(List.of(
                Conditions.of(CheckTypes.READY, Conditions.TRUE, Reasons.ALL_NODES_READY, "3 of 3", 2, NOW.minusSeconds(60)),
                Conditions.of("Degraded", Conditions.FALSE, Reasons.ALL_NODES_PASSED, "none", 2, NOW.minusSeconds(60))));

        RdmaStorageProfileStatus status = FailedReconcile.status(profile(3, previous), new NullPointerException(), NOW);

        assertThat(status.getObservedGeneration()).isEqualTo(2);
        assertThat(Conditions.statusOf(status.getConditions(), CheckTypes.READY)).isEqualTo(Conditions.UNKNOWN);
        assertThat(Conditions.find(status.getConditions(), CheckTypes.READY).orElseThrow().getLastTransitionTime())
                .isEqualTo(NOW.toString());
        assertThat(Conditions.statusOf(status.getConditions(), "Degraded")).isEqualTo(Conditions.FALSE);
    }

    @Test
    void aRefusalOfTheApiServerIsNamedByItsCodeAndMessage() {
        var refusal = new KubernetesClientException(new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(422)
                .withReason("Invalid").withMessage("Pod \"p\" is invalid: spec.tolerations[0].operator: Unsupported value").build());

        assertThat(FailedReconcile.describe(new RuntimeException(refusal)))
                .isEqualTo("\"the API server answered 422 Invalid: Pod \\\"p\\\" is invalid: spec.tolerations[0].operator: Unsupported value\"");
    }

    @Test
    void anInterruptedReconcileIsNoFailure() {
        assertThat(FailedReconcile.interrupted(new KubernetesClientException("patch failed", new InterruptedException()))).isTrue();
        assertThat(FailedReconcile.interrupted(new KubernetesClientException("patch failed"))).isFalse();
    }

    @Test
    void anErrorTextIsQuotedAndCut() {
        String text = FailedReconcile.describe(new RuntimeException("line\n\u202Eevil" + "x".repeat(2000)));

        assertThat(text).doesNotContain("\n").doesNotContain("\u202E").contains("(first " + FailedReconcile.MESSAGE_EXCERPT);
    }

    @Test
    void aLatencyMeasurementPastItsExpiryIsWrittenExpiredAlthoughTheNodesOwnProbeIsFresh() {
        RdmaStorageProfile profile = ProfilePlannerTest.profile(5, true);
        ProfileSettings settings = ProfileSettings.of(profile.getSpec());
        Instant probedAt = NOW.minus(Duration.ofMinutes(1));
        Instant measuredAt = NOW.minus(settings.expiry()).minusSeconds(1);
        RdmaStorageNode verdict = ProfilePlannerTest.verdict(profile, "gpu-01",
                withLatency(profile, ProfilePlannerTest.probed(profile, "gpu-01", 4, probedAt), measuredAt));

        FailedReconcile.Upkeep upkeep = FailedReconcile.upkeep(verdict, profile.getSpec(), settings, NOW);

        assertThat(upkeep.discard()).isFalse();
        assertThat(upkeep.write()).isNotNull();
        assertThat(Conditions.find(upkeep.write().getConditions(), "VerbsLatency").orElseThrow())
                .satisfies(c -> assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo("Unknown/ResultExpired"));
        assertThat(Conditions.find(upkeep.write().getConditions(), "RdmaDevices").orElseThrow().getStatus())
                .as("the node's own probe is fresh").isEqualTo("True");
        assertThat(Conditions.statusOf(upkeep.write().getConditions(), CheckTypes.READY)).isEqualTo(Conditions.UNKNOWN);
        assertThat(upkeep.wakeAt()).as("the node probe's expiry is still to come")
                .isEqualTo(probedAt.plus(settings.expiry()));
    }

    @Test
    void everyPartPastItsExpiryIsWrittenExpiredInOneWriteAndAFreshVerdictIsLeftAlone() {
        RdmaStorageProfile profile = ProfilePlannerTest.profile(5, true);
        ProfileSettings settings = ProfileSettings.of(profile.getSpec());
        Instant old = NOW.minus(settings.expiry()).minusSeconds(1);
        RdmaStorageNode stale = ProfilePlannerTest.verdict(profile, "gpu-01",
                withLatency(profile, ProfilePlannerTest.probed(profile, "gpu-01", 4, old), old));
        RdmaStorageNode fresh = ProfilePlannerTest.verdict(profile, "gpu-02",
                withLatency(profile, ProfilePlannerTest.probed(profile, "gpu-02", 4, NOW), NOW));

        FailedReconcile.Upkeep upkeep = FailedReconcile.upkeep(stale, profile.getSpec(), settings, NOW);

        assertThat(upkeep.write().getConditions()).filteredOn(c -> !CheckTypes.READY.equals(c.getType()))
                .allSatisfy(c -> assertThat(c.getReason()).as(c.getType()).isEqualTo(Reasons.RESULT_EXPIRED));
        assertThat(FailedReconcile.upkeep(fresh, profile.getSpec(), settings, NOW).write()).isNull();
    }

    @Test
    void aVerdictSomeoneElseEditedIsReplacedEvenWhileReconcilesFail() {
        RdmaStorageProfile profile = ProfilePlannerTest.profile(5, false);
        RdmaStorageNode verdict = ProfilePlannerTest.verdict(profile, "gpu-01",
                ProfilePlannerTest.probed(profile, "gpu-01", 4, NOW));
        verdict.getStatus().setLastProbeTime("2099-01-01T00:00:00Z");

        FailedReconcile.Upkeep upkeep = FailedReconcile.upkeep(verdict, profile.getSpec(),
                ProfileSettings.of(profile.getSpec()), NOW);

        assertThat(upkeep.discard()).isTrue();
        assertThat(upkeep.write().getConditions()).allSatisfy(c -> assertThat(c.getReason()).isEqualTo(Reasons.VERDICT_EDITED));
        assertThat(ProfilePlanner.replacesAnEdit(upkeep.write())).as("markings left as they are").isTrue();
    }

    /** The node's own verdict with a VerbsLatency measurement (True) taken at {@code measuredAt}. */
    private static RdmaStorageNodeStatus withLatency(RdmaStorageProfile profile, RdmaStorageNodeStatus probed,
                                                     Instant measuredAt) {
        LatencyResult result = new LatencyResult();
        result.setMeasuredAt(Timestamps.format(measuredAt));
        result.setRound(2L);
        result.setObservedGeneration(ProfilePlannerTest.GEN);
        result.setTypicalMicros(1.5);
        Condition latency = Conditions.of("VerbsLatency", Conditions.TRUE, "WithinThreshold", "1.5 µs",
                ProfilePlannerTest.GEN, measuredAt);
        RdmaStorageNodeStatus merged = NodeVerdicts.merge(null, probed, measuredAt);
        return NodeVerdicts.merge(merged, LatencyVerdicts.withLatency(profile.getSpec(), merged, latency, result,
                ProfilePlannerTest.GEN, measuredAt), measuredAt);
    }

    private static RdmaStorageProfile profile(long generation, RdmaStorageProfileStatus status) {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("gpfs").withGeneration(generation).build());
        profile.setSpec(new RdmaStorageProfileSpec());
        profile.setStatus(status);
        return profile;
    }
}
