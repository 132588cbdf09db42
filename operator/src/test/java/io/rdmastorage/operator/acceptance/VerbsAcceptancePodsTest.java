package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.latency.Peer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The verbs target's two pods and its spec document. */
class VerbsAcceptancePodsTest {

    private static final OperatorConfig CONFIG = new OperatorConfig("rso", "registry.example/node-probe:1", "IfNotPresent", false, 0);

    private static RdmaStorageAcceptance run(String peer, String device) {
        AcceptanceVerbsTarget verbs = new AcceptanceVerbsTarget();
        verbs.setPeerNode(peer);
        verbs.setDevice(device);
        verbs.setIterations(2000);
        verbs.setDurationSeconds(10);
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setVerbs(verbs);
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName("gpu-07-verbs").withUid("u-1").build());
        run.setSpec(spec);
        return run;
    }

    @Test
    void theServerRunsOnThePeerAndTheClientConnectsToItsAddress() throws InvalidSpecException {
        RdmaStorageAcceptance run = run("storage-01", "mlx5_0");
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run.getSpec());

        Pod server = VerbsAcceptancePods.server(run, document, CONFIG);
        Pod client = VerbsAcceptancePods.client(run, document, new Peer("storage-01", "10.68.20.11"), CONFIG);

        assertThat(server.getSpec().getNodeName()).isEqualTo("storage-01");
        assertThat(client.getSpec().getNodeName()).isEqualTo("gpu-07");
        assertThat(client.getMetadata().getName()).isEqualTo(AcceptancePods.podName(run));
        assertThat(server.getMetadata().getName()).isEqualTo(VerbsAcceptancePods.serverName(run)).endsWith("-acceptance-server");
        assertThat(server.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance-server")
                .containsSubsequence("--tool-timeout", "264s").containsSubsequence("--tcp-port", "18531");
        assertThat(client.getSpec().getContainers().get(0).getArgs())
                .startsWith("acceptance-client", "--peer", "10.68.20.11").containsSubsequence("--connect-timeout", "120s");
        for (Pod pod : List.of(server, client)) {
            assertThat(pod.getSpec().getHostNetwork()).isTrue();
            assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
            assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(264L);
            assertThat(pod.getMetadata().getLabels()).containsEntry(RdmaStorageAcceptance.RUN_LABEL, "gpu-07-verbs")
                    .containsEntry("app.kubernetes.io/component", AcceptancePods.COMPONENT);
            assertThat(pod.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo("u-1");
        }
        // 2000 ping-pongs at 1 ms (2 s) + 10 s + 60 s, per transport, + 120 s
        assertThat(document.deadline()).isEqualTo(Duration.ofSeconds(264));
        assertThat(document.json()).contains("\"device\":\"mlx5_0\"", "\"iterations\":2000", "\"durationSeconds\":10")
                .doesNotContain("storage-01");
    }

    @Test
    void oneRunPerNodeCountsThePeer() {
        assertThat(AcceptanceNodes.of(run("storage-01", "mlx5_0"))).isEqualTo(Set.of("gpu-07", "storage-01"));
        assertThat(AcceptanceStatuses.target(run("storage-01", "mlx5_0"))).isEqualTo("verbs mlx5_0 to storage-01");
    }

    @Test
    void aSpecTheSchemaShouldHaveRefusedNeverReachesThePods() {
        assertThatThrownBy(() -> AcceptanceSpecDocument.of(run("gpu-07", "mlx5_0").getSpec()))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("verbs.peerNode");
        assertThatThrownBy(() -> AcceptanceSpecDocument.of(run("storage-01", "mlx5_0 -R").getSpec()))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("verbs.device");
    }
}
