package io.rdmastorage.operator.latency;

import static io.rdmastorage.operator.latency.LatencyTestPods.CONFIG;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyPodsTest {

    static final RdmaStorageProfile PROFILE = LatencyTestPods.profile("40s");
    static final Peer PEER = new Peer("storage-01", "192.168.10.21");

    @Test
    void theServerRunsOnThePeerAndTheClientOnTheMeasuredNodeBothOnTheHostNetworkWithArgvOnly() {
        Pod server = LatencyPods.server(PROFILE, "gpu-07", PEER, 3, 2, 18517, CONFIG);
        assertThat(server.getSpec().getNodeName()).isEqualTo("storage-01");
        assertThat(server.getSpec().getHostNetwork()).isTrue();
        assertThat(server.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(server.getSpec().getContainers().get(0).getCommand()).isNullOrEmpty();
        assertThat(server.getSpec().getContainers().get(0).getArgs()).containsExactly("latency-server",
                "--host-root", "/host", "--node", "$(NODE_NAME)", "--spec", "/etc/rdmastorage/spec.json",
                "--output", "/dev/termination-log", "--tool-timeout", "32s", "--tcp-port", "18517",
                "--bind", "192.168.10.21");
        assertThat(server.getMetadata().getName()).endsWith("-l3-2s").hasSizeLessThanOrEqualTo(63);

        Pod client = LatencyPods.client(PROFILE, LatencyPod.of(server).orElseThrow(), CONFIG);
        assertThat(client.getSpec().getNodeName()).isEqualTo("gpu-07");
        assertThat(client.getSpec().getHostNetwork()).isTrue();
        assertThat(client.getSpec().getContainers().get(0).getArgs()).containsExactly("latency-client",
                "--peer", "192.168.10.21", "--host-root", "/host", "--node", "$(NODE_NAME)",
                "--spec", "/etc/rdmastorage/spec.json", "--output", "/dev/termination-log", "--tool-timeout", "20s",
                "--tcp-port", "18517", "--connect-timeout", "10s");
        assertThat(client.getMetadata().getName()).endsWith("-l3-2c");
        assertThat(client.getMetadata().getLabels()).containsEntry("app.kubernetes.io/component", "node-probe")
                .containsEntry("rdmastorage.io/node", "gpu-07").containsEntry("rdmastorage.io/round", "3")
                .containsEntry(LatencyPods.ROLE, "client");
    }

    @Test
    void thePodsReadBackAsTheMeasurementTheyBelongTo() {
        Pod server = LatencyPods.server(PROFILE, "gpu-07", PEER, 3, 1, 18515, CONFIG);
        LatencyPod read = LatencyPod.of(server).orElseThrow();
        assertThat(read.isServer()).isTrue();
        assertThat(read.clientNode()).isEqualTo("gpu-07");
        assertThat(read.peer()).isEqualTo(PEER);
        assertThat(read.round()).isEqualTo(3);
        assertThat(read.attempt()).isEqualTo(1);
        assertThat(read.tcpPort()).isEqualTo(18515);
        assertThat(read.runsOn()).isEqualTo("storage-01");

        Pod tampered = new PodBuilder(server).editMetadata().addToLabels("rdmastorage.io/round", "x").endMetadata().build();
        assertThat(LatencyPod.of(tampered)).isEmpty();
        Pod checkPod = new PodBuilder().withNewMetadata().withName("p").addToLabels("a", "b").endMetadata().build();
        assertThat(LatencyPod.of(checkPod)).isEmpty();
    }

    @Test
    void eachServedPairGetsItsOwnPortsUpToALimit() {
        assertThat(LatencyPods.freePort(List.of())).isEqualTo(18515);
        assertThat(LatencyPods.freePort(List.of(18515, 18519))).isEqualTo(18517);
        List<Integer> all = java.util.stream.IntStream.range(0, LatencyPods.MAX_SERVED_AT_ONCE)
                .mapToObj(i -> 18515 + 2 * i).toList();
        assertThat(LatencyPods.freePort(all)).isEqualTo(-1);

        Pod a = LatencyPods.server(PROFILE, "gpu-01", PEER, 1, 1, 18515, CONFIG);
        Pod b = LatencyPods.server(PROFILE, "gpu-02", PEER, 1, 1, 18517, CONFIG);
        Pod client = LatencyPods.client(PROFILE, LatencyPod.of(a).orElseThrow(), CONFIG);
        assertThat(LatencyPods.portsInUse(List.of(LatencyPod.of(a).orElseThrow(), LatencyPod.of(b).orElseThrow(),
                LatencyPod.of(client).orElseThrow()))).containsOnlyKeys("storage-01")
                .containsEntry("storage-01", List.of(18515, 18517));
    }

    @Test
    void aServerServesOnlyOnceItsContainerRuns() {
        Pod server = LatencyPods.server(PROFILE, "gpu-07", PEER, 1, 1, 18515, CONFIG);
        java.time.Instant t = java.time.Instant.parse("2024-05-01T10:00:00Z");
        assertThat(LatencyPods.serving(server)).isFalse();
        assertThat(LatencyPods.serving(LatencyTestPods.pending(server, t))).isFalse();
        assertThat(LatencyPods.serving(LatencyTestPods.running(server, t))).isTrue();
        assertThat(LatencyPods.serving(LatencyTestPods.finished(server, t, 0, "{}"))).isFalse();
    }
}
