package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.testing.NodeFault;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What happens around the verdicts: nodes joining, leaving and going NotReady, probes that hang,
 * fail to start or write garbage, the operator restarting mid-round, and a profile being deleted.
 */
class ProfileLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SETTINGS = """
            interval: 1m
            probeTimeout: 4s
            nodeLabels: true
            taintNotReady: true
            nodeCondition: true
            """;
    private static final String CHECKS = """
            rdma:
              devices: ["mlx5_0/1", "mlx5_1/1"]
            gpfs:
              verbsPorts: ["mlx5_0/1", "mlx5_1/1"]
            """;

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("lifecycle");
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void nodesJoinLeaveAndGoNotReady() {
        env.addNode("n-1", null);
        env.addNode("n-2", "gpfs-tcp-fallback");
        env.startOperator();
        env.applyProfile("lifecycle", SETTINGS, CHECKS);
        awaitReady("n-1", "True");
        awaitReady("n-2", "False");

        env.addNode("n-3", null);
        awaitReady("n-3", "True");

        env.cluster.removeNode("n-1");
        await("n-1 forgotten", WAIT, () -> env.verdict("lifecycle", "n-1") == null);

        env.cluster.setReady("n-3", false);
        await("n-3 not probed while NotReady", WAIT, () -> "NodeNotReady".equals(readyReason("n-3")));
        assertThat(readyStatus("n-3")).isEqualTo("Unknown");
        // the label follows the verdict's write in the same reconcile: it may land a moment later
        await("n-3 labelled unknown", WAIT, () -> "unknown".equals(env.nodeLabels("n-3").get("rdmastorage.io/lifecycle")));
        await("profile counts", WAIT, () -> {
            var nodes = env.profile("lifecycle").getStatus().getNodes();
            return nodes.getMatched() == 2 && nodes.getNotReady() == 1 && nodes.getUnknown() == 1;
        });
        assertThat(env.verdicts("lifecycle")).extracting(v -> v.getSpec().getNodeName())
                .containsExactlyInAnyOrder("n-2", "n-3");
    }

    @Test
    void probesThatHangFailToStartOrWriteGarbageAreUnknownNeverTrue() {
        env.addNode("hangs", null);
        env.addNode("no-image", null);
        env.addNode("garbage", null);
        env.cluster.setFault("hangs", NodeFault.PROBE_HANGS);
        env.cluster.setFault("no-image", NodeFault.IMAGE_PULL_ERROR);
        env.garbageReportNodes.add("garbage");
        env.startOperator();
        env.applyProfile("lifecycle", SETTINGS, CHECKS);

        await("timed out", WAIT, () -> "ProbeTimedOut".equals(readyReason("hangs")));
        await("failed to start", WAIT, () -> "ProbeFailedToStart".equals(readyReason("no-image")));
        await("garbage refused", WAIT, () -> "ReportUnparseable".equals(readyReason("garbage")));
        for (String node : List.of("hangs", "no-image", "garbage")) {
            RdmaStorageNode v = env.verdict("lifecycle", node);
            assertThat(v.getStatus().getConditions()).extracting(Condition::getStatus).containsOnly("Unknown");
            await(node + " labelled unknown", WAIT,
                    () -> "unknown".equals(env.nodeLabels(node).get("rdmastorage.io/lifecycle")));
        }
        // the kubelet reports ErrImagePull, then ImagePullBackOff 200 ms later: which one the operator
        // harvests depends on when its reconcile runs, and either names the image pull that failed
        assertThat(env.verdict("lifecycle", "no-image").getStatus().getConditions().get(0).getMessage())
                .containsAnyOf("ErrImagePull", "ImagePullBackOff");
        // Unknown never fences a node
        assertThat(env.admin.nodes().withName("hangs").get().getSpec().getTaints())
                .noneMatch(t -> t.getKey().equals("rdmastorage.io/lifecycle"));
        // a probe gone wrong is wrong, though no status changed: one Warning on the node's verdict
        RdmaStorageNode garbage = env.verdict("lifecycle", "garbage");
        await("garbage's Warning", WAIT, () -> !env.admin.v1().events().inNamespace("default")
                .withField("involvedObject.uid", garbage.getMetadata().getUid()).list().getItems().isEmpty());
        assertThat(env.admin.v1().events().inNamespace("default").withField("involvedObject.uid", garbage.getMetadata().getUid())
                .list().getItems()).extracting(e -> e.getType() + "/" + e.getReason()).containsExactly("Warning/ReportUnparseable");
    }

    @Test
    void restartMidRoundAdoptsRunningProbesAndLosesNothing() {
        env.addNode("slow", null);
        env.addNode("quick", null);
        env.cluster.setFault("slow", NodeFault.PODS_STAY_PENDING);
        env.startOperator();
        env.applyProfile("lifecycle", SETTINGS.replace("probeTimeout: 4s", "probeTimeout: 50s"), CHECKS);
        awaitReady("quick", "True");
        await("slow's probe pod exists", WAIT, () -> podsOn("slow").size() == 1);
        String slowPod = podsOn("slow").get(0).getMetadata().getName();
        RdmaStorageNode quickBefore = env.verdict("lifecycle", "quick");

        env.stopOperator();
        env.cluster.setFault("slow", NodeFault.NONE);   // the kubelet gets going while no operator runs
        env.startOperator();

        awaitReady("slow", "True");
        assertThat(env.verdict("lifecycle", "slow").getStatus().getProbePod()).isEqualTo(slowPod);
        RdmaStorageNode quickAfter = env.verdict("lifecycle", "quick");
        assertThat(quickAfter.getStatus().getLastProbeTime()).isEqualTo(quickBefore.getStatus().getLastProbeTime());
        assertThat(quickAfter.getStatus().getProbeRound()).isEqualTo(quickBefore.getStatus().getProbeRound());
        await("harvested pods removed", WAIT, () -> env.admin.pods().inNamespace(env.namespace).list().getItems().isEmpty());
    }

    @Test
    void deletingTheProfileRemovesItsPodsVerdictsAndMarkings() {
        env.addNode("keep", null);
        env.addNode("broken", "gpfs-tcp-fallback");
        env.addNode("busy", null);
        env.cluster.setFault("busy", NodeFault.PODS_STAY_PENDING);
        env.startOperator();
        env.applyProfile("lifecycle", SETTINGS.replace("probeTimeout: 4s", "probeTimeout: 50s"), CHECKS);
        awaitReady("keep", "True");
        awaitReady("broken", "False");
        await("broken tainted", WAIT, () -> env.admin.nodes().withName("broken").get().getSpec().getTaints().stream()
                .anyMatch(t -> t.getKey().equals("rdmastorage.io/lifecycle")));
        await("busy has a probe pod", WAIT, () -> podsOn("busy").size() == 1);

        env.deleteProfile("lifecycle");

        assertThat(env.verdicts("lifecycle")).isEmpty();
        assertThat(env.admin.pods().inNamespace(env.namespace).list().getItems()).isEmpty();
        for (String node : List.of("keep", "broken", "busy")) {
            var n = env.admin.nodes().withName(node).get();
            assertThat(n.getMetadata().getLabels()).doesNotContainKey("rdmastorage.io/lifecycle");
            assertThat(n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints())
                    .noneMatch(t -> t.getKey().equals("rdmastorage.io/lifecycle"));
            assertThat(n.getStatus().getConditions()).noneMatch(c -> c.getType().equals("rdmastorage.io/lifecycle"));
        }
        assertThat(env.admin.configMaps().inNamespace(env.namespace).list().getItems()).isEmpty();
    }

    private List<Pod> podsOn(String node) {
        return env.admin.pods().inNamespace(env.namespace).list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()) && p.getMetadata().getDeletionTimestamp() == null)
                .collect(Collectors.toList());
    }

    private void awaitReady(String node, String status) {
        await(node + " Ready=" + status, WAIT, () -> status.equals(readyStatus(node)));
    }

    private String readyStatus(String node) {
        return ready(node).map(Condition::getStatus).orElse(null);
    }

    private String readyReason(String node) {
        return ready(node).map(Condition::getReason).orElse(null);
    }

    private java.util.Optional<Condition> ready(String node) {
        RdmaStorageNode v = env.verdict("lifecycle", node);
        if (v == null || v.getStatus() == null) {
            return java.util.Optional.empty();
        }
        return v.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst();
    }
}
