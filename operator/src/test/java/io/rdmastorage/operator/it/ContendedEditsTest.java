package io.rdmastorage.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.testing.ContendedEdits;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tests' edits of a Node another writer also writes (the operator's markings, a kubelet): a 409
 * Conflict, which a real API server gives only when a write falls between the read and the write,
 * is injected here on demand.
 */
class ContendedEditsTest {

    private static final Predicate<String> TRAY_A = p -> p.startsWith("/api/v1/nodes/tray-a");
    private static final Taint OTHER_TOOL = new Taint("NoSchedule", "other-tool/maintenance", null, "planned");

    private FaultyApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void trayA() {
        server = new FaultyApiServer();
        client = server.client(Duration.ofSeconds(10));
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("tray-a").addToLabels("pool", "gb200")
                .endMetadata().withNewSpec().endSpec().build()).create();
    }

    @AfterEach
    void close() {
        client.close();
        server.close();
    }

    @Test
    void anEditThatMeetsAConflictIsReadAfreshAndWrittenAgain() {
        server.fail("PATCH", TRAY_A, 2, 409);

        ContendedEdits.editNode(client, "tray-a", n -> n.getSpec().setTaints(List.of(OTHER_TOOL)));

        assertThat(requests("PATCH")).extracting(FaultyApiServer.Request::faulted).containsExactly(true, true, false);
        assertThat(requests("PATCH")).extracting(FaultyApiServer.Request::body).as("the version read, which a write between refuses")
                .allSatisfy(body -> assertThat(body).contains("/metadata/resourceVersion"));
        assertThat(requests("GET")).as("each write after a read of its own").hasSize(3);
        assertThat(node().getSpec().getTaints()).extracting(Taint::getKey).containsExactly("other-tool/maintenance");
    }

    @Test
    void conflictsOnEveryAttemptFailTheEditWithTheConflict() {
        server.fail("PATCH", TRAY_A, 5, 409);

        assertThatThrownBy(() -> ContendedEdits.editNode(client, "tray-a", n -> n.getSpec().setTaints(List.of(OTHER_TOOL))))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(requests("PATCH")).hasSize(5);
        assertThat(node().getSpec().getTaints()).isNullOrEmpty();
    }

    @Test
    void aCordonAndALabelArePatchesOfTheirFieldAloneWithoutAVersionToConflictOn() {
        ContendedEdits.cordon(client, "tray-a");
        ContendedEdits.label(client, "tray-a", "rdmastorage.test/touched", "yes");

        assertThat(requests("PATCH")).extracting(FaultyApiServer.Request::body)
                .containsExactly("{\"spec\":{\"unschedulable\":true}}", "{\"metadata\":{\"labels\":{\"rdmastorage.test/touched\":\"yes\"}}}");
        assertThat(node().getSpec().getUnschedulable()).isTrue();
        assertThat(node().getMetadata().getLabels()).containsEntry("pool", "gb200").containsEntry("rdmastorage.test/touched", "yes");
    }

    private Node node() {
        return client.nodes().withName("tray-a").get();
    }

    private List<FaultyApiServer.Request> requests(String method) {
        return server.requests().stream().filter(r -> r.method().equals(method) && TRAY_A.test(r.path())).toList();
    }
}
