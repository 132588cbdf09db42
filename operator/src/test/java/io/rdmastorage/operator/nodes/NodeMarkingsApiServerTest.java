package io.rdmastorage.operator.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rdmastorage.operator.config.StartupTaint;
import io.rdmastorage.testing.LocalControlPlane;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Node markings against a real kube-apiserver: the patch types, merge keys and preconditions are its own. */
class NodeMarkingsApiServerTest {

    private static KubernetesClient admin;

    private final MutableClock clock = new MutableClock(Instant.parse("2025-03-01T12:00:00Z"));
    private NodeMarkings markings;
    private String nodeName;

    @BeforeAll
    static void startApiServer() {
        admin = LocalControlPlane.shared().adminClient();
    }

    @BeforeEach
    void createNode() {
        markings = new NodeMarkings(admin, clock, Duration.ofHours(1));
        nodeName = "nm-" + UUID.randomUUID().toString().substring(0, 8);
        admin.nodes().resource(new NodeBuilder()
                .withNewMetadata().withName(nodeName).addToLabels("kubernetes.io/hostname", nodeName)
                .addToLabels("rdmastorage.io/other", "ready").endMetadata()
                .withNewSpec()
                .addToTaints(new TaintBuilder().withKey("nvidia.com/gpu").withValue("present").withEffect("NoSchedule").build())
                .addToTaints(new TaintBuilder().withKey("rdmastorage.io/other").withValue("not-ready").withEffect("NoSchedule").build())
                .endSpec().build()).create();
        // What a kubelet and another profile put into the node's status.
        admin.nodes().withName(nodeName).subresource("status").patch(
                PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"status\":{\"conditions\":["
                        + "{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\",\"message\":\"kubelet is posting ready status\","
                        + "\"lastHeartbeatTime\":\"2025-03-01T11:59:00Z\",\"lastTransitionTime\":\"2025-03-01T08:00:00Z\"},"
                        + "{\"type\":\"rdmastorage.io/other\",\"status\":\"False\",\"reason\":\"TcpFallback\",\"message\":\"x\","
                        + "\"lastHeartbeatTime\":\"2025-03-01T11:59:00Z\",\"lastTransitionTime\":\"2025-03-01T08:00:00Z\"}]}}");
    }

    @AfterEach
    void deleteNode() {
        admin.nodes().withName(nodeName).delete();
    }

    private Node node() {
        return admin.nodes().withName(nodeName).get();
    }

    private static Condition verdict(String status, String reason, String message) {
        return new ConditionBuilder().withType("Ready").withStatus(status).withReason(reason).withMessage(message).build();
    }

    private static NodeCondition condition(Node node, String type) {
        return node.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static List<String> taintKeys(Node node) {
        return node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints().stream().map(Taint::getKey).toList();
    }

    private void assertOthersUntouched(Node node) {
        assertThat(node.getMetadata().getLabels()).containsEntry("rdmastorage.io/other", "ready")
                .containsEntry("kubernetes.io/hostname", nodeName);
        assertThat(taintKeys(node)).contains("nvidia.com/gpu", "rdmastorage.io/other");
        assertThat(condition(node, "Ready").getStatus()).isEqualTo("True");
        assertThat(condition(node, "Ready").getReason()).isEqualTo("KubeletReady");
        assertThat(condition(node, "rdmastorage.io/other").getStatus()).isEqualTo("False");
    }

    @Test
    void markingsAppearChangeAndGoWhileEverythingElseStays() {
        NodeMarkings.Result first = markings.apply("gds", MarkingOptions.ALL, node(),
                verdict("False", "NodesNotReady", "GdsReady: IommuEnabled; run: disable the IOMMU"));
        assertThat(first.writes()).isEqualTo(2);

        Node failed = node();
        assertThat(failed.getMetadata().getLabels()).containsEntry("rdmastorage.io/gds", "not-ready");
        assertThat(failed.getSpec().getTaints()).anySatisfy(t -> {
            assertThat(t.getKey()).isEqualTo("rdmastorage.io/gds");
            assertThat(t.getValue()).isEqualTo("not-ready");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        NodeCondition c = condition(failed, "rdmastorage.io/gds");
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("NodesNotReady");
        assertThat(c.getMessage()).contains("IommuEnabled");
        assertThat(c.getLastTransitionTime()).isEqualTo("2025-03-01T12:00:00Z");
        assertThat(c.getLastHeartbeatTime()).isEqualTo("2025-03-01T12:00:00Z");
        assertOthersUntouched(failed);

        // Unknown: the label says so, the taint goes (an unprobed node is not fenced).
        clock.advance(Duration.ofMinutes(5));
        markings.apply("gds", MarkingOptions.ALL, failed, verdict("Unknown", "ProbeTimedOut", "probe did not finish"));
        Node unknown = node();
        assertThat(unknown.getMetadata().getLabels()).containsEntry("rdmastorage.io/gds", "unknown");
        assertThat(taintKeys(unknown)).doesNotContain("rdmastorage.io/gds");
        assertThat(condition(unknown, "rdmastorage.io/gds").getStatus()).isEqualTo("Unknown");
        assertThat(condition(unknown, "rdmastorage.io/gds").getLastTransitionTime()).isEqualTo("2025-03-01T12:05:00Z");
        assertOthersUntouched(unknown);

        clock.advance(Duration.ofMinutes(5));
        markings.apply("gds", MarkingOptions.ALL, unknown, verdict("True", "AllChecksPassed", "all checks passed"));
        Node ready = node();
        assertThat(ready.getMetadata().getLabels()).containsEntry("rdmastorage.io/gds", "ready");
        assertThat(condition(ready, "rdmastorage.io/gds").getStatus()).isEqualTo("True");
        assertThat(condition(ready, "rdmastorage.io/gds").getLastTransitionTime()).isEqualTo("2025-03-01T12:10:00Z");

        // Same status, new message: the condition is updated, its transition time is not.
        clock.advance(Duration.ofMinutes(5));
        NodeMarkings.Result reworded = markings.apply("gds", MarkingOptions.ALL, ready, verdict("True", "AllChecksPassed", "3 checks passed"));
        assertThat(reworded).isEqualTo(new NodeMarkings.Result(false, true));
        NodeCondition rewordedCondition = condition(node(), "rdmastorage.io/gds");
        assertThat(rewordedCondition.getMessage()).isEqualTo("3 checks passed");
        assertThat(rewordedCondition.getLastTransitionTime()).isEqualTo("2025-03-01T12:10:00Z");
        assertThat(rewordedCondition.getLastHeartbeatTime()).isEqualTo("2025-03-01T12:15:00Z");

        NodeMarkings.Result removed = markings.remove("gds", node());
        assertThat(removed.writes()).isEqualTo(2);
        Node clean = node();
        assertThat(clean.getMetadata().getLabels()).doesNotContainKey("rdmastorage.io/gds");
        assertThat(taintKeys(clean)).doesNotContain("rdmastorage.io/gds");
        assertThat(condition(clean, "rdmastorage.io/gds")).isNull();
        assertOthersUntouched(clean);
        assertThat(NodeMarkings.carriesMarkings("gds", clean)).isFalse();
        assertThat(NodeMarkings.carriesMarkings("other", clean)).isTrue();
    }

    @Test
    void aStartupTaintIsLiftedOnTrueAndPutBackOnFalseOnlyWhenContinuous() {
        String key = "storage.example.com/unverified";
        admin.nodes().withName(nodeName).edit(n -> {
            n.getSpec().getTaints().add(new TaintBuilder().withKey(key).withValue("true").withEffect("NoSchedule").build());
            return n;
        });
        MarkingOptions bootstrap = new MarkingOptions(false, false, false, new StartupTaint(key, false));
        MarkingOptions continuous = new MarkingOptions(false, false, false, new StartupTaint(key, true));

        assertThat(markings.apply("gds", bootstrap, node(), verdict("Unknown", "AwaitingProbe", "")).writes())
                .as("not proven yet: the gate stays").isZero();
        assertThat(markings.apply("gds", bootstrap, node(), verdict("False", "ChecksFailed", "")).writes()).isZero();
        markings.apply("gds", bootstrap, node(), verdict("True", "AllChecksPassed", "ok"));
        assertThat(taintKeys(node())).doesNotContain(key);
        assertOthersUntouched(node());
        assertThat(markings.apply("gds", bootstrap, node(), verdict("False", "ChecksFailed", "")).writes())
                .as("bootstrap-only: never put back").isZero();

        markings.apply("gds", continuous, node(), verdict("False", "ChecksFailed", ""));
        assertThat(node().getSpec().getTaints()).anySatisfy(t -> {
            assertThat(t.getKey()).isEqualTo(key);
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(markings.apply("gds", continuous, node(), verdict("False", "ChecksFailed", "")).writes()).isZero();
        assertThat(markings.apply("gds", continuous, node(), verdict("Unknown", "ResultExpired", "")).writes())
                .as("Unknown proves nothing either way").isZero();
        markings.apply("gds", continuous, node(), verdict("True", "AllChecksPassed", "ok"));
        assertThat(taintKeys(node())).doesNotContain(key);
        assertOthersUntouched(node());

        markings.apply("gds", continuous, node(), verdict("False", "ChecksFailed", ""));
        markings.remove("gds", node());
        assertThat(taintKeys(node())).as("removing the profile's markings leaves the node's own gate").contains(key);
    }

    @Test
    void noWriteWhenNothingChanged() {
        markings.apply("gds", MarkingOptions.ALL, node(), verdict("False", "NodesNotReady", "m"));
        Node marked = node();
        String version = marked.getMetadata().getResourceVersion();

        clock.advance(Duration.ofMinutes(15));
        NodeMarkings.Result again = markings.apply("gds", MarkingOptions.ALL, marked, verdict("False", "NodesNotReady", "m"));

        assertThat(again.writes()).isZero();
        assertThat(node().getMetadata().getResourceVersion()).isEqualTo(version);

        // Only a stale heartbeat (older than the refresh period) costs a write.
        clock.advance(Duration.ofMinutes(50));
        assertThat(markings.apply("gds", MarkingOptions.ALL, marked, verdict("False", "NodesNotReady", "m")))
                .isEqualTo(new NodeMarkings.Result(false, true));
        assertThat(condition(node(), "rdmastorage.io/gds").getLastTransitionTime()).isEqualTo("2025-03-01T12:00:00Z");

        assertThat(markings.remove("never-applied", node()).writes()).isZero();
    }

    @Test
    void optionsSwitchedOffLoseTheirMarkingsOnTheNextApply() {
        markings.apply("gds", MarkingOptions.ALL, node(), verdict("False", "NodesNotReady", "m"));

        markings.apply("gds", new MarkingOptions(true, false, false), node(), verdict("False", "NodesNotReady", "m"));

        Node labelOnly = node();
        assertThat(labelOnly.getMetadata().getLabels()).containsEntry("rdmastorage.io/gds", "not-ready");
        assertThat(taintKeys(labelOnly)).doesNotContain("rdmastorage.io/gds");
        assertThat(condition(labelOnly, "rdmastorage.io/gds")).isNull();
        assertOthersUntouched(labelOnly);

        markings.apply("gds", MarkingOptions.NONE, labelOnly, verdict("False", "NodesNotReady", "m"));
        assertThat(NodeMarkings.carriesMarkings("gds", node())).isFalse();
    }

    @Test
    void aStaleCachedNodeNeverClobbersATaintAddedMeanwhile() {
        Node stale = node();
        // Someone (kubectl taint, another controller) changes the taints after our cache saw the node.
        Node fresh = node();
        fresh.getSpec().getTaints().add(new TaintBuilder().withKey("maintenance").withValue("true").withEffect("NoSchedule").build());
        admin.nodes().resource(fresh).update();

        List<String> before = taintKeys(node());
        assertThat(before).contains("maintenance");

        NodeMarkings.Result result = markings.apply("gds", MarkingOptions.ALL, stale, verdict("False", "NodesNotReady", "m"));

        // The patch built from the stale node is refused (409), the node re-read, the patch rebuilt.
        assertThat(result.metadataPatched()).isTrue();
        Node now = node();
        assertThat(taintKeys(now)).containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(before.stream(), java.util.stream.Stream.of("rdmastorage.io/gds")).toList());
        assertOthersUntouched(now);
    }

    @Test
    void theApiServerRefusesATaintListBuiltFromAStaleNode() {
        Node stale = node();
        admin.nodes().withName(nodeName).edit(n -> {
            n.getMetadata().getLabels().put("touched", "yes");
            return n;
        });
        String patch = MarkingPatches.metadataPatch(stale,
                DesiredMarkings.of("gds", MarkingOptions.ALL, verdict("False", "NodesNotReady", "m"))).orElseThrow().toString();

        assertThatThrownBy(() -> admin.nodes().withName(nodeName).patch(PatchContext.of(PatchType.JSON_MERGE), patch))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(taintKeys(node())).doesNotContain("rdmastorage.io/gds");
    }

    @Test
    void aDeletedNodeIsNothingToMark() {
        Node gone = node();
        admin.nodes().withName(nodeName).delete();
        admin.nodes().withName(nodeName).waitUntilCondition(n -> n == null, 10, TimeUnit.SECONDS);

        assertThat(markings.apply("gds", MarkingOptions.ALL, gone, verdict("False", "NodesNotReady", "m")).writes()).isZero();
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant start) {
            now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
