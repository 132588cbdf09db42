package io.rdmastorage.operator.events;

import io.rdmastorage.operator.verdict.VerdictChange;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.rdmastorage.operator.api.RdmaStorageNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictChangeTest {

    private static Condition c(String type, String status, String reason) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(reason + " message").build();
    }

    @Test
    void onlyStatusMovesAreChanges() {
        List<VerdictChange> changes = VerdictChange.between(
                List.of(c("Ready", "True", "AllChecksPassed"), c("GpfsVerbs", "True", "VerbsConnected"), c("GdsReady", "True", "Ok")),
                List.of(c("Ready", "False", "ChecksFailed"), c("GpfsVerbs", "False", "TcpFallback"), c("GdsReady", "True", "OkReworded")));

        assertThat(changes).containsExactly(
                new VerdictChange("Ready", "True", "False", "ChecksFailed", "ChecksFailed message"),
                new VerdictChange("GpfsVerbs", "True", "False", "TcpFallback", "TcpFallback message"));
    }

    @Test
    void aFirstVerdictCountsUnlessItIsUnknown() {
        List<VerdictChange> changes = VerdictChange.between(null,
                List.of(c("Ready", "Unknown", "NotProbedYet"), c("GpfsVerbs", "True", "VerbsConnected")));

        assertThat(changes).extracting(VerdictChange::type).containsExactly("GpfsVerbs");
        assertThat(changes.get(0).previousStatus()).isNull();
        assertThat(VerdictChange.between(List.of(c("Ready", "True", "x")), List.of())).isEmpty();
    }

    @Test
    void aConditionThatWasOnlyWaitingGetsItsFirstVerdictNotARecovery() {
        List<VerdictChange> changes = VerdictChange.between(
                List.of(c("VerbsLatency", "Unknown", "AwaitingMeasurement"), c("GpfsVerbs", "Unknown", "ProbeTimedOut")),
                List.of(c("VerbsLatency", "True", "LatencyWithinLimit"), c("GpfsVerbs", "True", "VerbsConnected")));

        assertThat(changes).extracting(VerdictChange::type, VerdictChange::previousStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("VerbsLatency", null),
                        org.assertj.core.groups.Tuple.tuple("GpfsVerbs", "Unknown"));
        assertThat(VerdictEvents.eventsFor(changes)).extracting(VerdictChange::type).containsExactly("GpfsVerbs");
    }

    @Test
    void eventShapeFollowsTheChange() {
        RdmaStorageNode node = new RdmaStorageNode();
        node.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("gds.gpu-07").withUid("u-1").build());

        Event warning = VerdictEvents.eventFor(node, new VerdictChange("GpfsVerbs", "True", "False", "TcpFallback",
                "x".repeat(3000)), Instant.parse("2025-03-01T12:00:00.123Z"), 0x1234L, "operator-0");

        assertThat(warning.getMetadata().getName()).isEqualTo("gds.gpu-07.1234");
        assertThat(warning.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(warning.getType()).isEqualTo("Warning");
        assertThat(warning.getReason()).isEqualTo("TcpFallback");
        assertThat(warning.getMessage()).hasSize(1024).startsWith("GpfsVerbs True -> False: xxx");
        assertThat(warning.getInvolvedObject().getKind()).isEqualTo("RdmaStorageNode");
        assertThat(warning.getInvolvedObject().getApiVersion()).isEqualTo("rdmastorage.io/v1alpha1");
        assertThat(warning.getInvolvedObject().getUid()).isEqualTo("u-1");
        assertThat(warning.getInvolvedObject().getNamespace()).isNull();
        assertThat(warning.getSource().getComponent()).isEqualTo("rdma-storage-operator");
        assertThat(warning.getReportingComponent()).isEqualTo("rdma-storage-operator");
        assertThat(warning.getFirstTimestamp()).isEqualTo("2025-03-01T12:00:00Z");
        assertThat(warning.getCount()).isEqualTo(1);

        Event normal = VerdictEvents.eventFor(node, new VerdictChange("Ready", null, "True", null, null),
                Instant.EPOCH, 1, "i");
        assertThat(normal.getType()).isEqualTo("Normal");
        assertThat(normal.getReason()).isEqualTo("ReadyTrue");
        assertThat(normal.getMessage()).isEqualTo("Ready True");
    }

    @Test
    void longObjectNamesAreShortenedToAValidEventName() {
        String name = VerdictEvents.eventName("a".repeat(230) + "." + "b".repeat(22), 0x18f0a0b0c0d0e0f0L);
        assertThat(name).hasSizeLessThanOrEqualTo(253).endsWith(".18f0a0b0c0d0e0f0").doesNotContain("..");
    }
}
