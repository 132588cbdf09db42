package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LatencyFabric;
import io.rdmastorage.testing.NodeFault;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.SimulatedNode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Verbs latency between nodes, end to end: the operator pairs the nodes, runs latency-server then
 * latency-client pods on the real API server, and the simulated kubelets run the real node-probe
 * against a simulated fabric ({@link LatencyFabric}): a stub {@code ib_write_lat} per node that
 * prints recorded perftest tables (the slow one is the recorded soft-RoCE run, 191.96 µs) and
 * fails the out-of-band connect as perftest does when the peer is down. The TCP comparison is a
 * real ping-pong over the nodes' loopback addresses.
 */
class LatencyPairsTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String SETTINGS = """
            interval: 10m
            probeTimeout: 20s
            """;
    /** size 64: the recorded soft-RoCE table has a row for 64-byte messages only. */
    private static final String CHECKS = """
            rdma:
              devices: ["mlx5_0/1", "mlx5_1/1"]
            latency:
              device: mlx5_0
              size: 64
              iterations: 200
              maxTypicalMicros: 5
              transportComparison: true
            """;

    private OperatorEnvironment env;
    private LatencyFabric fabric;
    /** One profile name per test: pods of an earlier test's profile may still be terminating under the same names. */
    private String profile;

    @BeforeEach
    void start(TestInfo test) {
        profile = "lat-" + test.getTestMethod().orElseThrow().getName().substring(0, 12).toLowerCase(Locale.ROOT);
        env = OperatorEnvironment.start("latency");
        fabric = new LatencyFabric(env.scratchDir("fabric"));
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void aRingOfFiveMeasuresEachNodeAgainstTheNextAndComparesWithTcp() {
        List<String> nodes = List.of("n-1", "n-2", "n-3", "n-4", "n-5");
        nodes.forEach(this::addNode);
        env.startOperator();
        env.applyProfile(profile, SETTINGS, CHECKS);

        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            String next = nodes.get((i + 1) % nodes.size());
            Condition c = awaitLatency(node, "WithinThreshold");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).contains("over TCP");
            LatencyResult r = env.verdict(profile, node).getStatus().getLatency();
            assertThat(r.getPeer()).as("ring peer of %s: %s", node, c.getMessage()).isEqualTo(next);
            assertThat(r.getPeerAddress()).isEqualTo(env.cluster.hostIp(next));
            assertThat(r.getTypicalMicros()).isPositive().isLessThan(5.0);
            assertThat(r.getTcpTypicalMicros()).isPositive();
            assertThat(r.getRdmaSpeedup()).isPositive();
            assertThat(r.getUnreachablePeers()).isEmpty();
            assertThat(ready(node).getStatus()).isEqualTo("True");
        }
        await("profile VerbsLatency True", WAIT, () -> "True".equals(
                Conditions.statusOf(env.profile(profile).getStatus().getConditions(), "VerbsLatency")));
        await("latency pods removed once harvested", WAIT, () -> latencyPods().isEmpty());
        String table = env.plane.kubectl().run("get", "rsn", "-l", "rdmastorage.io/profile=" + profile)
                .orThrow("kubectl get rsn");
        assertThat(table).contains("LATENCY-US");
        assertThat(table.lines().skip(1).toList()).hasSize(5).allSatisfy(line -> assertThat(line).containsPattern(" 1\\.\\d+ "));
    }

    @Test
    void oneNodeHasNoPeerUntilASecondJoinsThenTheTwoMeasureEachOther() {
        addNode("solo");
        env.startOperator();
        env.applyProfile(profile, SETTINGS, CHECKS);
        Condition alone = awaitLatency("solo", "NoPeer");
        assertThat(alone.getStatus()).isEqualTo("Unknown");
        assertThat(ready("solo").getStatus()).isEqualTo("Unknown");

        addNode("duo");
        assertThat(awaitLatency("solo", "WithinThreshold").getStatus()).isEqualTo("True");
        assertThat(awaitLatency("duo", "WithinThreshold").getStatus()).isEqualTo("True");
        assertThat(env.verdict(profile, "solo").getStatus().getLatency().getPeer()).isEqualTo("duo");
        assertThat(env.verdict(profile, "duo").getStatus().getLatency().getPeer()).isEqualTo("solo");
        assertThat(ready("solo").getStatus()).isEqualTo("True");
    }

    @Test
    void aSlowNodeIsAboveThresholdAndNotReady() {
        List.of("n-1", "n-2", "n-3").forEach(this::addNode);
        fabric.setSlow(env.cluster.hostIp("n-2"), true);
        env.startOperator();
        env.applyProfile(profile, SETTINGS, CHECKS);

        Condition slow = awaitLatency("n-2", "AboveThreshold");
        assertThat(slow.getStatus()).isEqualTo("False");
        assertThat(slow.getMessage()).contains("191.96 µs").contains("above maxTypicalMicros 5 µs");
        assertThat(env.verdict(profile, "n-2").getStatus().getLatency().getTypicalMicros()).isEqualTo(191.96);
        assertThat(ready("n-2").getStatus()).isEqualTo("False");
        assertThat(ready("n-2").getMessage()).isEqualTo("VerbsLatency: AboveThreshold");
        assertThat(awaitLatency("n-1", "WithinThreshold").getStatus()).isEqualTo("True");
        assertThat(awaitLatency("n-3", "WithinThreshold").getStatus()).isEqualTo("True");
        await("profile names the slow node", WAIT, () -> env.profile(profile).getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getMessage().contains("n-2 (VerbsLatency: AboveThreshold)")));
    }

    @Test
    void anUnreachableNodeIsBlamedOnlyAfterASecondPeerAndItsClientsTryAnother() {
        List<String> nodes = List.of("n-1", "n-2", "n-3", "n-4", "n-5");
        nodes.forEach(this::addNode);
        fabric.setUnreachable(env.cluster.hostIp("n-3"), true);
        env.startOperator();
        env.applyProfile(profile, SETTINGS, CHECKS);

        Condition blamed = awaitLatency("n-3", "PeerUnreachable");
        assertThat(blamed.getStatus()).isEqualTo("False");
        assertThat(blamed.getMessage()).contains("reached neither", "n-4", "n-5", "this node's side");
        assertThat(env.verdict(profile, "n-3").getStatus().getLatency().getUnreachablePeers())
                .containsExactly("n-4", "n-5");

        // n-2's ring peer is n-3: it could not reach it, tried n-4, and is fine
        Condition cleared = awaitLatency("n-2", "WithinThreshold");
        assertThat(cleared.getStatus()).isEqualTo("True");
        assertThat(cleared.getMessage()).contains("first tried n-3");
        LatencyResult r = env.verdict(profile, "n-2").getStatus().getLatency();
        assertThat(r.getPeer()).isEqualTo("n-4");
        assertThat(r.getUnreachablePeers()).containsExactly("n-3");
        for (String node : List.of("n-1", "n-4", "n-5")) {
            assertThat(awaitLatency(node, "WithinThreshold").getStatus()).isEqualTo("True");
        }
        await("only n-3 not ready", WAIT, () -> env.profile(profile).getStatus().getNodes().getNotReady() == 1);
    }

    @Test
    void aServerNodeLeavingMidRoundSendsItsClientToAnotherPeer() {
        List.of("n-1", "n-2", "n-3").forEach(this::addNode);
        env.cluster.setFault("n-2", NodeFault.PODS_STAY_PENDING);   // n-1's server on n-2 never starts
        env.startOperator();
        env.applyProfile(profile, "interval: 10m\nprobeTimeout: 30s", CHECKS);
        await("n-1's server pod pending on n-2", WAIT, () -> latencyPods().stream().anyMatch(p ->
                "n-2".equals(p.getSpec().getNodeName()) && "server".equals(p.getMetadata().getLabels().get(LatencyPods.ROLE))));

        env.cluster.removeNode("n-2");

        Condition c = awaitLatency("n-1", "WithinThreshold");
        assertThat(c.getStatus()).isEqualTo("True");
        LatencyResult r = env.verdict(profile, "n-1").getStatus().getLatency();
        assertThat(r.getPeer()).isEqualTo("n-3");
        assertThat(r.getUnreachablePeers()).containsExactly("n-2");
        assertThat(awaitLatency("n-3", "WithinThreshold").getStatus()).isEqualTo("True");
        await("n-2 forgotten", WAIT, () -> env.verdict(profile, "n-2") == null);
        // deleted by the operator; those bound to the gone node stay Terminating here, where no pod
        // garbage collector (kube-controller-manager) removes them as a cluster's would
        await("n-2's latency pods deleted", WAIT, () -> latencyPods().stream()
                .filter(p -> "n-2".equals(p.getMetadata().getAnnotations().get(LatencyPods.CLIENT_NODE_ANNOTATION))
                        || "n-2".equals(p.getSpec().getNodeName()))
                .allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
    }

    @Test
    void referenceNodesServeSeveralClientsAtOnceOnTheirOwnPorts() {
        List.of("g-1", "g-2", "g-3").forEach(this::addNode);
        FixtureHost storage = FixtureHost.at(env.scratchDir("storage-1"));
        env.cluster.addNode(SimulatedNode.named("storage-1").withLabel("rdmastorage.test/role", "storage")
                .withHostRoot(storage.root()));
        fabric.install(storage, env.cluster.hostIp("storage-1"));
        env.startOperator();
        env.applyProfile(profile, SETTINGS, CHECKS.replace("  transportComparison: true", """
                  transportComparison: true
                  referenceNodeSelector:
                    matchLabels:
                      rdmastorage.test/role: storage
                      %s: "%s"
                """.formatted(SimulatedCluster.CLUSTER_LABEL, env.cluster.id())));

        for (String node : List.of("g-1", "g-2", "g-3")) {
            assertThat(awaitLatency(node, "WithinThreshold").getStatus()).isEqualTo("True");
            LatencyResult r = env.verdict(profile, node).getStatus().getLatency();
            assertThat(r.getPeer()).isEqualTo("storage-1");
            assertThat(r.getTcpTypicalMicros()).as("TCP comparison on its own port pair").isPositive();
        }
        assertThat(env.verdict(profile, "storage-1")).as("a reference node outside the profile gets no verdict").isNull();
    }

    private void addNode(String name) {
        FixtureHost host = env.addNode(name, null);
        fabric.install(host, env.cluster.hostIp(name));
    }

    /** Waits until the node's VerbsLatency has {@code reason}; returns the condition. */
    private Condition awaitLatency(String node, String reason) {
        await(node + " VerbsLatency " + reason, WAIT, () -> latency(node).map(c -> reason.equals(c.getReason()))
                .orElse(false));
        return latency(node).orElseThrow();
    }

    private Optional<Condition> latency(String node) {
        RdmaStorageNode v = env.verdict(profile, node);
        return v == null || v.getStatus() == null ? Optional.empty()
                : Conditions.find(v.getStatus().getConditions(), "VerbsLatency");
    }

    private Condition ready(String node) {
        return Conditions.find(env.verdict(profile, node).getStatus().getConditions(), "Ready").orElseThrow();
    }

    private List<Pod> latencyPods() {
        return env.admin.pods().inNamespace(env.namespace).withLabel(LatencyPods.ROLE)
                .withLabel("rdmastorage.io/profile", profile).list().getItems();
    }
}
