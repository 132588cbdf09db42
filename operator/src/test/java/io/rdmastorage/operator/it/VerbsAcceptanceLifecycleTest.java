package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.acceptance.AcceptancePods;
import io.rdmastorage.operator.acceptance.AcceptanceMarkdown;
import io.rdmastorage.operator.acceptance.VerbsAcceptancePods;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.probe.testing.VerbsFixtures;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.NodeFault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The verbs target's lifecycle on the real API server: the operator creates the server pod on the
 * peer and the client pod on the node, and the simulated kubelets run the real node-probe
 * {@code acceptance-server} and {@code acceptance-client} in-process against fixture nodes
 * ({@link VerbsFixtures}: a soft-RoCE port with counters, stub perftest and fio printing recorded
 * outputs), so the status, the ratios and the record come from the probe's own document.
 */
class VerbsAcceptanceLifecycleTest {

    private static final Duration WAIT = AcceptanceRuns.WAIT;

    private AcceptanceRuns runs;
    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        runs = AcceptanceRuns.start("verbs-accept");
        env = runs.env;
    }

    @AfterEach
    void stop() {
        runs.close();
    }

    private void node(String name) {
        env.addFixtureNode(name, host -> {
            Path logs = host.root().resolveSibling(name + "-logs");
            try {
                Files.createDirectories(logs);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            VerbsFixtures.node(host);
            VerbsFixtures.tools(AcceptanceLauncher.fioOf(host.root()).getParent(), host, logs, 0, VerbsFixtures.FIO_PINGPONG);
            return host;
        });
    }

    private void applyRun(String name, String node, String peer, String more) {
        String yaml = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: %s
                spec:
                  nodeName: %s
                  verbs: {peerNode: %s, device: %s, iterations: 2000, durationSeconds: 5%s}
                """.formatted(name, node, peer, VerbsFixtures.DEVICE, more);
        env.plane.kubectl().applyYaml(yaml).orThrow("kubectl apply acceptance " + name);
    }

    @Test
    void bothTransportsAreMeasuredBetweenTheNodesAndTheRecordShowsThem() {
        node("v-client");
        node("v-peer");
        applyRun("verbs-ok", "v-client", "v-peer", "");

        await("verbs-ok Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("verbs-ok")));

        RdmaStorageAcceptance r = runs.run("verbs-ok");
        assertThat(runs.condition("verbs-ok", "Complete").getStatus()).isEqualTo("True");
        // the recorded soft-RoCE table (17.36 µs one way) is slower than the recorded loopback TCP ping-pong (8.64 µs)
        Condition effective = runs.condition("verbs-ok", "RdmaEffective");
        assertThat(effective.getStatus()).isEqualTo("False");
        assertThat(effective.getReason()).isEqualTo("NotEffective");
        assertThat(effective.getMessage()).contains("4 KiB message typical latency (one way) rdma 17.4 µs vs tcp 8.64 µs",
                "host CPU per 1 MiB message");
        assertThat(r.getStatus().getRatios().getLatency()).isEqualTo(0.5);
        assertThat(r.getStatus().getRatios().getCpuPerIo()).isNotNull();
        List<AcceptanceTransportResult> rows = r.getStatus().getTransports();
        assertThat(rows).extracting(AcceptanceTransportResult::getTransport).containsExactly("rdma", "tcp");
        assertThat(rows.get(0).getDevice()).isEqualTo(VerbsFixtures.DEVICE + "/1");
        assertThat(rows.get(0).getBandwidthGBps()).isEqualTo(0.06);
        assertThat(rows.get(1).getBandwidthGBps()).isEqualTo(0.992);
        assertThat(rows).allSatisfy(t -> assertThat(t.getCpuMicrosPerIo()).isPositive());
        assertThat(rows.get(1).getTraffic()).contains("0 packets");

        String record = runs.configMap(AcceptancePods.reportName("verbs-ok")).getData().get(AcceptanceMarkdown.KEY);
        assertThat(record).contains("- Peer (server): v-peer", "| 4 KiB messages, one at a time (2000): typical latency, one way (µs) | 17.4 | 8.64 | 0.50x |",
                "ib_write_lat -d rxe0 -i 1 -s 4096 -n 2000 -F -p 18531 PEER",
                "fio --name=tcp-bandwidth --ioengine=net --protocol=tcp --port=18534 --hostname=PEER --rw=write --bs=1M",
                "perftest 6.06, fio-3.33");
        await("both pods and the spec removed", WAIT, () -> runs.pods("verbs-ok").isEmpty()
                && runs.configMap(AcceptancePods.specName("verbs-ok")) == null);
        CommandResult get = env.plane.kubectl().run("get", "rdmastorageacceptance", "verbs-ok");
        assertThat(get.stdout()).contains("v-client", "verbs rxe0 to v-peer", "Succeeded", "0.5", "False");
    }

    @Test
    void thePodsArePinnedToTheirNodesWithTheProbePosture() {
        node("p-client");
        node("p-peer");
        env.cluster.setFault("p-client", NodeFault.PROBE_HANGS);
        env.cluster.setFault("p-peer", NodeFault.PROBE_HANGS);
        applyRun("verbs-pods", "p-client", "p-peer", "");

        await("both pods", WAIT, () -> runs.pods("verbs-pods").size() == 2);

        Pod server = env.admin.pods().inNamespace(env.namespace).withName(VerbsAcceptancePods.serverName(runs.run("verbs-pods"))).get();
        Pod client = env.admin.pods().inNamespace(env.namespace).withName(AcceptancePods.podName(runs.run("verbs-pods"))).get();
        assertThat(server.getSpec().getNodeName()).isEqualTo("p-peer");
        assertThat(client.getSpec().getNodeName()).isEqualTo("p-client");
        for (Pod pod : List.of(server, client)) {
            assertThat(pod.getSpec().getHostNetwork()).isTrue();
            assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
            assertThat(pod.getSpec().getContainers().get(0).getSecurityContext().getPrivileged()).isTrue();
        }
        assertThat(server.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance-server").contains("--tcp-port", "18531");
        assertThat(client.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance-client", "--peer",
                env.cluster.hostIp("p-peer"));
        assertThat(runs.run("verbs-pods").getStatus().getTarget()).isEqualTo("verbs rxe0 to p-peer");
    }

    @Test
    void aPeerPodThatCannotStartFailsTheRunAndBothPodsAreDeleted() {
        node("f-client");
        node("f-peer");
        env.cluster.setFault("f-client", NodeFault.PROBE_HANGS);
        env.cluster.setFault("f-peer", NodeFault.IMAGE_PULL_ERROR);
        applyRun("verbs-peer-fails", "f-client", "f-peer", "");

        await("verbs-peer-fails Failed", WAIT, () -> "Failed".equals(runs.phase("verbs-peer-fails")));

        Condition complete = runs.condition("verbs-peer-fails", "Complete");
        assertThat(complete.getReason()).isEqualTo("ProbeFailed");
        assertThat(complete.getMessage()).contains("the server pod", "on peer node f-peer did not start");
        assertThat(runs.condition("verbs-peer-fails", "RdmaEffective").getStatus()).isEqualTo("Unknown");
        await("both pods removed", WAIT, () -> runs.pods("verbs-peer-fails").isEmpty());
    }

    @Test
    void deletingARunMidwayRemovesBothPods() {
        node("d-client");
        node("d-peer");
        env.cluster.setFault("d-client", NodeFault.PROBE_HANGS);
        env.cluster.setFault("d-peer", NodeFault.PROBE_HANGS);
        applyRun("verbs-deleted", "d-client", "d-peer", "");
        await("both pods", WAIT, () -> runs.pods("verbs-deleted").size() == 2);

        env.admin.resources(RdmaStorageAcceptance.class).withName("verbs-deleted").delete();

        await("run, both pods and the spec gone", WAIT, () -> runs.run("verbs-deleted") == null && runs.pods("verbs-deleted").isEmpty()
                && runs.configMap(AcceptancePods.specName("verbs-deleted")) == null);
    }

    @Test
    void aSecondRunOnThePeerNodeWaitsForTheFirst() {
        node("w-a");
        node("w-b");
        node("w-c");
        env.cluster.setFault("w-a", NodeFault.PROBE_HANGS);
        applyRun("verbs-first", "w-a", "w-b", "");
        await("verbs-first Running", WAIT, () -> "Running".equals(runs.phase("verbs-first")));
        applyRun("verbs-second", "w-c", "w-b", "");

        await("verbs-second Pending", WAIT, () -> "Pending".equals(runs.phase("verbs-second")));
        Condition waiting = runs.condition("verbs-second", "Complete");
        assertThat(waiting.getReason()).isEqualTo("WaitingForNode");
        assertThat(waiting.getMessage()).contains("verbs-first is measuring node w-b");
        assertThat(runs.pods("verbs-second")).isEmpty();

        env.admin.resources(RdmaStorageAcceptance.class).withName("verbs-first").delete();

        await("verbs-second Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("verbs-second")));
    }

    @Test
    void theApiServerRefusesAmbiguousOrUnsafeVerbsRuns() {
        String base = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: verbs-invalid
                spec:
                  nodeName: node-a
                %s
                """;
        CommandResult both = env.plane.kubectl().applyYaml(base.formatted(
                "  verbs: {peerNode: node-b, device: mlx5_0}\n  nvmeof: {nqn: \"nqn.2014-08.org.example:t1\", address: 10.0.0.1}"));
        assertThat(both.stderr()).contains("needs exactly one target");
        CommandResult none = env.plane.kubectl().applyYaml(base.formatted(""));
        assertThat(none.stderr()).contains("needs exactly one target");
        CommandResult self = env.plane.kubectl().applyYaml(base.formatted("  verbs: {peerNode: node-a, device: mlx5_0}"));
        assertThat(self.stderr()).contains("verbs.peerNode must be another node than nodeName");
        CommandResult device = env.plane.kubectl().applyYaml(base.formatted("  verbs: {peerNode: node-b, device: \"mlx5_0 -R\"}"));
        assertThat(device.stderr()).contains("spec.verbs.device");
        CommandResult peer = env.plane.kubectl().applyYaml(base.formatted("  verbs: {peerNode: \"node-b;x\", device: mlx5_0}"));
        assertThat(peer.stderr()).contains("spec.verbs.peerNode");
        CommandResult lengths = env.plane.kubectl().applyYaml(base.formatted(
                "  verbs: {peerNode: node-b, device: mlx5_0}\n  iops: {durationSeconds: 5}"));
        assertThat(lengths.stderr()).contains("takes its lengths from verbs.iterations");
        CommandResult tooFew = env.plane.kubectl().applyYaml(base.formatted("  verbs: {peerNode: node-b, device: mlx5_0, iterations: 10}"));
        assertThat(tooFew.stderr()).contains("spec.verbs.iterations");
        CommandResult rails = env.plane.kubectl().applyYaml(base.formatted(
                "  verbs: {peerNode: node-b, device: mlx5_0}\n  storageNics: {devices: [mlx5_6]}"));
        assertThat(rails.stderr()).contains("storageNics is for the nvmeof and path targets");
        CommandResult noRail = env.plane.kubectl().applyYaml(base.formatted(
                "  path: {directory: /gpfs/fs1/acceptance}\n  storageNics: {devices: []}"));
        assertThat(noRail.stderr()).contains("storageNics must name at least one device");
        CommandResult shellRail = env.plane.kubectl().applyYaml(base.formatted(
                "  path: {directory: /gpfs/fs1/acceptance}\n  storageNics: {netdevs: [\"enP6*;reboot\"]}"));
        assertThat(shellRail.stderr()).contains("spec.storageNics.netdevs[0]");
    }
}
