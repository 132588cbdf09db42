package io.rdmastorage.operator.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MarkingPatchesTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final Duration REFRESH = Duration.ofHours(1);
    private static final String KEY = "rdmastorage.io/gds";

    private static Condition verdict(String status, String reason, String message) {
        return new ConditionBuilder().withType("Ready").withStatus(status).withReason(reason).withMessage(message).build();
    }

    private static Node bareNode() {
        return new NodeBuilder().withNewMetadata().withName("gpu-01").withResourceVersion("42").endMetadata()
                .withNewSpec().endSpec().build();
    }

    @Test
    void keyIsTheProfileUnderTheOperatorsPrefixAndRejectsWhatCannotBeALabelKey() {
        assertThat(MarkingKey.of("gpfs-gds-training")).isEqualTo("rdmastorage.io/gpfs-gds-training");
        assertThat(MarkingKey.of("a".repeat(63))).hasSize(15 + 63);
        assertThatThrownBy(() -> MarkingKey.of("a".repeat(64))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkingKey.of("-bad")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkingKey.of("a/b")).isInstanceOf(IllegalArgumentException.class);
        assertThat(MarkingKey.toleration("gds").getKey()).isEqualTo(KEY);
        assertThat(MarkingKey.toleration("gds").getOperator()).isEqualTo("Exists");
    }

    @Test
    void labelFollowsTheVerdictAndTaintOnlyAFalseOne() {
        DesiredMarkings ready = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("True", "AllChecksPassed", "ok"));
        DesiredMarkings failed = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("False", "NodesNotReady", "GdsReady: IommuEnabled"));
        DesiredMarkings unknown = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("Unknown", "ProbeTimedOut", "..."));
        DesiredMarkings none = DesiredMarkings.of("gds", MarkingOptions.ALL, null);

        assertThat(ready.labelValue()).isEqualTo("ready");
        assertThat(ready.taint()).isNull();
        assertThat(failed.labelValue()).isEqualTo("not-ready");
        assertThat(failed.taint().getKey()).isEqualTo(KEY);
        assertThat(failed.taint().getValue()).isEqualTo("not-ready");
        assertThat(failed.taint().getEffect()).isEqualTo("NoSchedule");
        assertThat(unknown.labelValue()).isEqualTo("unknown");
        assertThat(unknown.taint()).as("an unprobed node is never fenced").isNull();
        assertThat(none.labelValue()).isEqualTo("unknown");
        assertThat(none.conditionStatus()).isEqualTo("Unknown");
        assertThat(none.taint()).isNull();
    }

    @Test
    void optionsOffMeanNoMarking() {
        DesiredMarkings labelOnly = DesiredMarkings.of("gds", new MarkingOptions(true, false, false), verdict("False", "X", "y"));
        assertThat(labelOnly.labelValue()).isEqualTo("not-ready");
        assertThat(labelOnly.taint()).isNull();
        assertThat(labelOnly.conditionStatus()).isNull();
    }

    @Test
    void longMessagesAreTruncatedForTheNodeObject() {
        DesiredMarkings d = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("False", "X", "m".repeat(5000)));
        assertThat(d.message()).hasSize(DesiredMarkings.MAX_MESSAGE_LENGTH).endsWith("...");
    }

    @Test
    void metadataPatchSetsLabelAndWholeTaintListWithResourceVersionPrecondition() {
        Node node = new NodeBuilder(bareNode()).editMetadata().addToLabels("other", "x").endMetadata()
                .editSpec().addNewTaint().withKey("nvidia.com/gpu").withValue("present").withEffect("NoSchedule").endTaint().endSpec()
                .build();
        DesiredMarkings failed = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("False", "R", "m"));

        ObjectNode patch = MarkingPatches.metadataPatch(node, failed).orElseThrow();

        assertThat(patch.at("/metadata/labels").toString()).isEqualTo("{\"rdmastorage.io/gds\":\"not-ready\"}");
        assertThat(patch.at("/metadata/resourceVersion").asText()).isEqualTo("42");
        assertThat(patch.at("/spec/taints")).hasSize(2);
        assertThat(patch.at("/spec/taints/0/key").asText()).isEqualTo("nvidia.com/gpu");
        assertThat(patch.at("/spec/taints/1/key").asText()).isEqualTo(KEY);
    }

    @Test
    void labelOnlyChangeCarriesNoTaintsAndNoPrecondition() {
        Node node = new NodeBuilder(bareNode()).editMetadata().addToLabels(KEY, "unknown").endMetadata().build();
        DesiredMarkings ready = DesiredMarkings.of("gds", new MarkingOptions(true, true, false), verdict("True", "R", "m"));

        ObjectNode patch = MarkingPatches.metadataPatch(node, ready).orElseThrow();

        assertThat(patch.toString()).isEqualTo("{\"metadata\":{\"labels\":{\"rdmastorage.io/gds\":\"ready\"}}}");
    }

    @Test
    void nothingToPatchWhenTheNodeAlreadyCarriesWhatIsWanted() {
        Node node = new NodeBuilder(bareNode()).editMetadata().addToLabels(KEY, "not-ready").endMetadata()
                .editSpec().addNewTaint().withKey(KEY).withValue("not-ready").withEffect("NoSchedule").endTaint().endSpec()
                .build();
        DesiredMarkings failed = DesiredMarkings.of("gds", new MarkingOptions(true, true, false), verdict("False", "R", "m"));

        assertThat(MarkingPatches.metadataPatch(node, failed)).isEmpty();
        assertThat(MarkingPatches.statusPatch(node, failed, NOW, REFRESH)).isEmpty();
    }

    @Test
    void removalNullsTheLabelAndDropsOnlyOurTaint() {
        Node node = new NodeBuilder(bareNode()).editMetadata().addToLabels(KEY, "not-ready").endMetadata()
                .editSpec()
                .addNewTaint().withKey(KEY).withValue("not-ready").withEffect("NoSchedule").endTaint()
                .addNewTaint().withKey("rdmastorage.io/other").withValue("not-ready").withEffect("NoSchedule").endTaint()
                .endSpec().build();

        ObjectNode patch = MarkingPatches.metadataPatch(node, DesiredMarkings.none("gds")).orElseThrow();

        assertThat(patch.at("/metadata/labels/" + KEY.replace("/", "~1")).isNull()).isTrue();
        assertThat(patch.at("/spec/taints")).hasSize(1);
        assertThat(patch.at("/spec/taints/0/key").asText()).isEqualTo("rdmastorage.io/other");

        Node onlyOurs = new NodeBuilder(bareNode()).editSpec()
                .addNewTaint().withKey(KEY).withValue("not-ready").withEffect("NoSchedule").endTaint().endSpec().build();
        assertThat(MarkingPatches.metadataPatch(onlyOurs, DesiredMarkings.none("gds")).orElseThrow()
                .at("/spec/taints").isNull()).isTrue();
    }

    @Test
    void conditionTransitionTimeMovesOnlyWithTheStatus() {
        Node node = new NodeBuilder(bareNode()).withNewStatus()
                .addToConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").build())
                .addToConditions(new NodeConditionBuilder().withType(KEY).withStatus("False").withReason("Old")
                        .withMessage("old").withLastHeartbeatTime("2025-03-01T11:30:00Z")
                        .withLastTransitionTime("2025-03-01T10:00:00Z").build())
                .endStatus().build();

        ObjectNode sameStatus = MarkingPatches.statusPatch(node,
                DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("False", "New", "new")), NOW, REFRESH).orElseThrow();
        assertThat(sameStatus.at("/status/conditions")).hasSize(1);
        assertThat(sameStatus.at("/status/conditions/0/type").asText()).isEqualTo(KEY);
        assertThat(sameStatus.at("/status/conditions/0/reason").asText()).isEqualTo("New");
        assertThat(sameStatus.at("/status/conditions/0/lastTransitionTime").asText()).isEqualTo("2025-03-01T10:00:00Z");
        assertThat(sameStatus.at("/status/conditions/0/lastHeartbeatTime").asText()).isEqualTo("2025-03-01T12:00:00Z");

        ObjectNode flipped = MarkingPatches.statusPatch(node,
                DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("True", "AllChecksPassed", "ok")), NOW, REFRESH).orElseThrow();
        assertThat(flipped.at("/status/conditions/0/status").asText()).isEqualTo("True");
        assertThat(flipped.at("/status/conditions/0/lastTransitionTime").asText()).isEqualTo("2025-03-01T12:00:00Z");
    }

    @Test
    void unchangedConditionIsRewrittenOnlyForAStaleHeartbeat() {
        Node node = new NodeBuilder(bareNode()).withNewStatus()
                .addToConditions(new NodeConditionBuilder().withType(KEY).withStatus("True").withReason("R")
                        .withMessage("m").withLastHeartbeatTime("2025-03-01T11:30:00Z")
                        .withLastTransitionTime("2025-03-01T10:00:00Z").build())
                .endStatus().build();
        DesiredMarkings same = DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("True", "R", "m"));

        assertThat(MarkingPatches.statusPatch(node, same, NOW, REFRESH)).isEmpty();
        ObjectNode refreshed = MarkingPatches.statusPatch(node, same, NOW.plus(Duration.ofMinutes(31)), REFRESH).orElseThrow();
        assertThat(refreshed.at("/status/conditions/0/lastTransitionTime").asText()).isEqualTo("2025-03-01T10:00:00Z");
    }

    @Test
    void conditionRemovalIsAStrategicMergeDeleteOfOurTypeOnly() {
        Node node = new NodeBuilder(bareNode()).withNewStatus()
                .addToConditions(new NodeConditionBuilder().withType(KEY).withStatus("True").build())
                .endStatus().build();

        assertThat(MarkingPatches.statusPatch(node, DesiredMarkings.none("gds"), NOW, REFRESH).orElseThrow().toString())
                .isEqualTo("{\"status\":{\"conditions\":[{\"type\":\"rdmastorage.io/gds\",\"$patch\":\"delete\"}]}}");
        assertThat(MarkingPatches.statusPatch(bareNode(), DesiredMarkings.none("gds"), NOW, REFRESH)).isEmpty();
    }

    @Test
    void carriesMarkingsSeesAnyOfTheThree() {
        assertThat(MarkingPatches.carriesMarkings(bareNode(), KEY)).isFalse();
        assertThat(MarkingPatches.carriesMarkings(new NodeBuilder(bareNode()).editMetadata().addToLabels(KEY, "ready")
                .endMetadata().build(), KEY)).isTrue();
        assertThat(MarkingPatches.carriesMarkings(new NodeBuilder(bareNode()).editSpec().addNewTaint().withKey(KEY)
                .withEffect("NoSchedule").endTaint().endSpec().build(), KEY)).isTrue();
        assertThat(MarkingPatches.carriesMarkings(new NodeBuilder(bareNode()).withNewStatus().addToConditions(
                new NodeConditionBuilder().withType(KEY).withStatus("True").build()).endStatus().build(), KEY)).isTrue();
    }
}
