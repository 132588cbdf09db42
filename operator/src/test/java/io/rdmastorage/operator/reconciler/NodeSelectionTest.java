package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.nodes.NodeAvailability;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.verdict.NotProbed;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NodeSelectionTest {

    static final Map<String, String> GPU_NODE = Map.of(
            "nvidia.com/gpu.present", "true",
            "topology.kubernetes.io/zone", "rack-3",
            "kubernetes.io/hostname", "gpu-07");

    // ---------------------------------------------------------------- matches

    @Nested
    class Matches {

        @Test
        void noSelectorSelectsEveryNode() {
            assertThat(NodeSelection.matches(null, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(null, null)).isTrue();
        }

        @Test
        void anEmptySelectorSelectsEveryNodeEvenOneWithoutLabels() {
            assertThat(NodeSelection.matches(new LabelSelector(), GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(new LabelSelector(), null)).isTrue();
            assertThat(NodeSelection.matches(new LabelSelectorBuilder().withMatchLabels(Map.of()).build(), Map.of())).isTrue();
        }

        @Test
        void matchLabelsNeedEveryPairWithTheSameValue() {
            LabelSelector selector = new LabelSelectorBuilder()
                    .addToMatchLabels("nvidia.com/gpu.present", "true")
                    .addToMatchLabels("topology.kubernetes.io/zone", "rack-3")
                    .build();

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "topology.kubernetes.io/zone", "rack-4"))).isFalse();
            assertThat(NodeSelection.matches(selector, without(GPU_NODE, "nvidia.com/gpu.present"))).isFalse();
            assertThat(NodeSelection.matches(selector, null)).isFalse();
        }

        @Test
        void inNeedsTheLabelWithOneOfTheValues() {
            LabelSelector selector = expression("topology.kubernetes.io/zone", "In", "rack-3", "rack-4");

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "topology.kubernetes.io/zone", "rack-4"))).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "topology.kubernetes.io/zone", "rack-5"))).isFalse();
            assertThat(NodeSelection.matches(selector, without(GPU_NODE, "topology.kubernetes.io/zone"))).isFalse();
        }

        @Test
        void inWithoutValuesMatchesNothing() {
            LabelSelector selector = expression("topology.kubernetes.io/zone", "In");

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isFalse();
        }

        @Test
        void notInRefusesTheListedValuesButAcceptsAMissingLabel() {
            LabelSelector selector = expression("topology.kubernetes.io/zone", "NotIn", "rack-3");

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isFalse();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "topology.kubernetes.io/zone", "rack-4"))).isTrue();
            assertThat(NodeSelection.matches(selector, without(GPU_NODE, "topology.kubernetes.io/zone"))).isTrue();
        }

        @Test
        void existsNeedsTheLabelWithAnyValue() {
            LabelSelector selector = expression("nvidia.com/gpu.present", "Exists");

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "nvidia.com/gpu.present", ""))).isTrue();
            assertThat(NodeSelection.matches(selector, without(GPU_NODE, "nvidia.com/gpu.present"))).isFalse();
        }

        @Test
        void doesNotExistNeedsTheLabelAbsent() {
            LabelSelector selector = expression("node-role.kubernetes.io/control-plane", "DoesNotExist");

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(selector, null)).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "node-role.kubernetes.io/control-plane", ""))).isFalse();
        }

        @Test
        void matchLabelsAndEveryExpressionMustAllHold() {
            LabelSelector selector = new LabelSelectorBuilder()
                    .addToMatchLabels("nvidia.com/gpu.present", "true")
                    .addNewMatchExpression().withKey("topology.kubernetes.io/zone").withOperator("In")
                        .withValues("rack-3").endMatchExpression()
                    .addNewMatchExpression().withKey("node-role.kubernetes.io/control-plane")
                        .withOperator("DoesNotExist").endMatchExpression()
                    .build();

            assertThat(NodeSelection.matches(selector, GPU_NODE)).isTrue();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "nvidia.com/gpu.present", "false"))).isFalse();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "topology.kubernetes.io/zone", "rack-9"))).isFalse();
            assertThat(NodeSelection.matches(selector, with(GPU_NODE, "node-role.kubernetes.io/control-plane", ""))).isFalse();
        }

        @Test
        void anUnknownOperatorMatchesNothing() {
            assertThat(NodeSelection.matches(expression("nvidia.com/gpu.present", "Gt", "0"), GPU_NODE)).isFalse();
        }
    }

    // ---------------------------------------------------------------- whyNotProbeable

    @Nested
    class WhyNotProbeable {

        @Test
        void aReadyUncordonedNodeCanBeProbed() {
            assertThat(NodeAvailability.whyNotMeasurable(node("True"))).isEmpty();
            assertThat(NodeAvailability.whyNotMeasurable(new NodeBuilder(node("True")).editSpec().withUnschedulable(false)
                    .endSpec().build())).isEmpty();
        }

        @Test
        void aNodeWhoseReadyConditionIsNotTrueIsNotReady() {
            assertThat(NodeAvailability.whyNotMeasurable(node("False"))).contains(NotProbed.NODE_NOT_READY);
            assertThat(NodeAvailability.whyNotMeasurable(node("Unknown"))).contains(NotProbed.NODE_NOT_READY);
        }

        @Test
        void aNodeThatReportsNoReadyConditionIsNotReady() {
            Node onlyPressure = new NodeBuilder().withNewMetadata().withName("gpu-07").endMetadata()
                    .withNewStatus().addNewCondition().withType("MemoryPressure").withStatus("False").endCondition()
                    .endStatus().build();
            Node noStatus = new NodeBuilder().withNewMetadata().withName("gpu-07").endMetadata().build();

            assertThat(NodeAvailability.whyNotMeasurable(onlyPressure)).contains(NotProbed.NODE_NOT_READY);
            assertThat(NodeAvailability.whyNotMeasurable(noStatus)).contains(NotProbed.NODE_NOT_READY);
        }

        @Test
        void aCordonedNodeIsUnschedulableWhetherReadyOrNot() {
            assertThat(NodeAvailability.whyNotMeasurable(cordoned(node("True")))).contains(NotProbed.NODE_UNSCHEDULABLE);
            assertThat(NodeAvailability.whyNotMeasurable(cordoned(node("False")))).contains(NotProbed.NODE_UNSCHEDULABLE);
        }
    }

    // ---------------------------------------------------------------- problems

    /** A selector stored before the CRD's selector rules (issue 27): what breaks them, named as the API server would. */
    @Nested
    class Problems {

        private static LabelSelector expression(String key, String operator, String... values) {
            return new LabelSelectorBuilder().addNewMatchExpression().withKey(key).withOperator(operator)
                    .withValues(values.length == 0 ? null : List.of(values)).endMatchExpression().build();
        }

        @Test
        void aSelectorThatKeepsTheRulesHasNone() {
            assertThat(NodeSelection.problems(null, "spec.nodeSelector")).isEmpty();
            assertThat(NodeSelection.problems(new LabelSelectorBuilder().withMatchLabels(GPU_NODE).build(),
                    "spec.nodeSelector")).isEmpty();
            assertThat(NodeSelection.problems(expression("zone", "In", "rack-3"), "spec.nodeSelector")).isEmpty();
            assertThat(NodeSelection.problems(expression("zone", "Exists"), "spec.nodeSelector")).isEmpty();
        }

        @Test
        void anExpressionWithoutOperatorIsNamedAndSelectsNothingInsteadOfThrowing() {
            LabelSelector selector = expression("zone", null);

            assertThat(NodeSelection.problems(selector, "spec.nodeSelector")).containsExactly(
                    "spec.nodeSelector.matchExpressions[0].operator: Required value: one of In, NotIn, Exists, DoesNotExist");
            assertThat(NodeSelection.matches(selector, GPU_NODE)).isFalse();
        }

        @Test
        void theValuesRuleAndAnUnknownOperatorAreNamedWithTheirField() {
            assertThat(NodeSelection.problems(expression("zone", "In"), "spec.latency.referenceNodeSelector"))
                    .singleElement().asString()
                    .startsWith("spec.latency.referenceNodeSelector.matchExpressions[0]: values must be non-empty for operator In (rule: ");
            assertThat(NodeSelection.problems(expression("zone", "Exists", "x"), "spec.nodeSelector"))
                    .singleElement().asString().startsWith("spec.nodeSelector.matchExpressions[0]: values must be empty for operator Exists");
            assertThat(NodeSelection.problems(expression("zone", "Gt", "3"), "spec.nodeSelector")).containsExactly(
                    "spec.nodeSelector.matchExpressions[0].operator: Unsupported value: \"Gt\": supported values: In, NotIn, Exists, DoesNotExist");
        }
    }

    // ---------------------------------------------------------------- relevantChange

    @Nested
    class RelevantChange {

        /** The profile whose verdict label the node carries in these tests. */
        private static final Set<String> PROFILES = Set.of("gpfs-training");

        private static boolean relevantChange(Node before, Node after) {
            return NodeSelection.relevantChange(before, after, PROFILES);
        }

        @Test
        void aKubeletHeartbeatIsNotRelevant() {
            Node before = node("True");
            Node after = new NodeBuilder(before)
                    .editMetadata().withResourceVersion("4712").endMetadata()
                    .editStatus().withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True")
                            .withReason("KubeletReady").withLastHeartbeatTime("2026-03-01T12:00:40Z").build())
                    .endStatus().build();

            assertThat(relevantChange(before, after)).isFalse();
        }

        @Test
        void ourOwnVerdictLabelsAreNotRelevant() {
            Node before = node("True");
            Node labelled = withLabels(before, with(before.getMetadata().getLabels(), "rdmastorage.io/gpfs-training", "verified"));
            Node relabelled = withLabels(before, with(before.getMetadata().getLabels(), "rdmastorage.io/gpfs-training", "failed"));

            assertThat(relevantChange(before, labelled)).isFalse();
            assertThat(relevantChange(labelled, relabelled)).isFalse();
            assertThat(relevantChange(relabelled, before)).isFalse();
        }

        @Test
        void anyOtherLabelChangeIsRelevant() {
            Node before = node("True");
            Map<String, String> labels = before.getMetadata().getLabels();

            assertThat(relevantChange(before, withLabels(before, with(labels, "team", "ml")))).isTrue();
            assertThat(relevantChange(before,
                    withLabels(before, with(labels, "nvidia.com/gpu.present", "false")))).isTrue();
            assertThat(relevantChange(before,
                    withLabels(before, without(labels, "nvidia.com/gpu.present")))).isTrue();
            // only the prefix of our verdict labels is ours, not every key that mentions rdmastorage.io
            assertThat(relevantChange(before,
                    withLabels(before, with(labels, "example.rdmastorage.io/tier", "fast")))).isTrue();
        }

        @Test
        void ourOwnVerdictLabelIsRelevantWhereItMovesTheNodeIntoOrOutOfAProfilesSelection() {
            // issue 27: a profile selecting by another profile's verdict stayed stale until an unrelated event
            RdmaStorageProfile training = profile("gpfs-training", new LabelSelectorBuilder()
                    .withMatchLabels(Map.of("nvidia.com/gpu.present", "true")).build());
            RdmaStorageProfile chained = profile("gds-on-ready-gpfs", new LabelSelectorBuilder()
                    .withMatchLabels(Map.of("rdmastorage.io/gpfs-training", "ready")).build());
            Node before = node("True");
            Node ready = withLabels(before, with(before.getMetadata().getLabels(), "rdmastorage.io/gpfs-training", "ready"));
            Node notReady = withLabels(before, with(before.getMetadata().getLabels(), "rdmastorage.io/gpfs-training", "not-ready"));

            assertThat(NodeSelection.relevantToProfiles(before, ready, List.of(training, chained))).isTrue();
            assertThat(NodeSelection.relevantToProfiles(ready, notReady, List.of(training, chained))).isTrue();
            // nothing selects by it: an echo of our own write, as before
            assertThat(NodeSelection.relevantToProfiles(before, ready, List.of(training))).isFalse();
            assertThat(NodeSelection.relevantToProfiles(notReady, before, List.of(training, chained))).isFalse();
        }

        private static RdmaStorageProfile profile(String name, LabelSelector selector) {
            RdmaStorageProfile profile = new RdmaStorageProfile();
            profile.setMetadata(new ObjectMetaBuilder().withName(name).build());
            RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
            spec.setNodeSelector(selector);
            profile.setSpec(spec);
            return profile;
        }

        @Test
        void aUserLabelUnderOurPrefixIsRelevant() {
            // regression (issue 14, defect 6): a profile selecting rdmastorage.io/tier=gold matched 0 nodes for minutes
            Node before = node("True");
            Map<String, String> labels = before.getMetadata().getLabels();

            assertThat(relevantChange(before,
                    withLabels(before, with(labels, "rdmastorage.io/tier", "gold")))).isTrue();
            // the key of a profile that is gone is no echo of our writes either
            assertThat(NodeSelection.relevantChange(before,
                    withLabels(before, with(labels, "rdmastorage.io/gpfs-training", "verified")), Set.of())).isTrue();
        }

        @Test
        void noLabelsAndEmptyLabelsAreTheSame() {
            Node none = withLabels(node("True"), null);
            Node empty = withLabels(node("True"), Map.of());

            assertThat(relevantChange(none, empty)).isFalse();
        }

        @Test
        void goingNotReadyOrReadyAgainIsRelevant() {
            assertThat(relevantChange(node("True"), node("Unknown"))).isTrue();
            assertThat(relevantChange(node("False"), node("True"))).isTrue();
        }

        @Test
        void cordoningAndUncordoningAreRelevant() {
            assertThat(relevantChange(node("True"), cordoned(node("True")))).isTrue();
            assertThat(relevantChange(cordoned(node("True")), node("True"))).isTrue();
        }

        @Test
        void aChangeThatLeavesTheNodeUnprobeableForTheSameReasonIsNotRelevant() {
            // cordoned wins over NotReady: the verdict says NodeUnschedulable either way
            assertThat(relevantChange(cordoned(node("True")), cordoned(node("False")))).isFalse();
            assertThat(relevantChange(node("False"), node("Unknown"))).isFalse();
        }
    }

    // ================================================================ fixtures

    static Node node(String ready) {
        return new NodeBuilder()
                .withNewMetadata().withName("gpu-07").withResourceVersion("4711").withLabels(new HashMap<>(GPU_NODE))
                .endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus()
                    .addNewCondition().withType("MemoryPressure").withStatus("False").endCondition()
                    .addNewCondition().withType("Ready").withStatus(ready)
                        .withLastHeartbeatTime("2026-03-01T12:00:00Z").endCondition()
                .endStatus()
                .build();
    }

    static Node cordoned(Node node) {
        return new NodeBuilder(node).editSpec().withUnschedulable(true).endSpec().build();
    }

    static Node withLabels(Node node, Map<String, String> labels) {
        Node copy = new NodeBuilder(node).build();
        copy.getMetadata().setLabels(labels);
        return copy;
    }

    static LabelSelector expression(String key, String operator, String... values) {
        return new LabelSelectorBuilder().addNewMatchExpression().withKey(key).withOperator(operator)
                .withValues(values.length == 0 ? null : List.of(values)).endMatchExpression().build();
    }

    static Map<String, String> with(Map<String, String> labels, String key, String value) {
        Map<String, String> copy = new HashMap<>(labels);
        copy.put(key, value);
        return copy;
    }

    static Map<String, String> without(Map<String, String> labels, String key) {
        Map<String, String> copy = new HashMap<>(labels);
        copy.remove(key);
        return copy;
    }
}
