package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.Conditions;
import io.rdmastorage.operator.verdict.Reasons;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The profile status a failed reconcile leaves: Ready Unknown ReconcileFailing, the rest of the aggregate kept. */
class FailedReconcileTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

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

    private static RdmaStorageProfile profile(long generation, RdmaStorageProfileStatus status) {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("gpfs").withGeneration(generation).build());
        profile.setSpec(new RdmaStorageProfileSpec());
        profile.setStatus(status);
        return profile;
    }
}
