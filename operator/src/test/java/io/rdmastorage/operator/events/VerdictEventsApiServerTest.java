package io.rdmastorage.operator.events;

import io.rdmastorage.operator.verdict.VerdictChange;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.testing.LocalControlPlane;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Verdict events against a real kube-apiserver: its Event validation decides what is accepted. */
class VerdictEventsApiServerTest {

    private static LocalControlPlane plane;
    private static KubernetesClient admin;

    @BeforeAll
    static void applyCrds() throws InterruptedException {
        plane = LocalControlPlane.shared();
        admin = plane.adminClient();
        plane.kubectl().apply(Path.of("../crds")).orThrow("apply CRDs");
        plane.kubectl().awaitEstablished(Duration.ofSeconds(30), "crd/rdmastoragenodes.rdmastorage.io",
                "crd/rdmastorageprofiles.rdmastorage.io");
    }

    private static Condition c(String type, String status, String reason, String message) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message).build();
    }

    private static RdmaStorageNode createNode() {
        String node = "gpu-" + UUID.randomUUID().toString().substring(0, 8);
        RdmaStorageNode rsn = new RdmaStorageNode();
        rsn.setMetadata(new ObjectMetaBuilder().withName("gds." + node)
                .addToLabels(RdmaStorageNode.PROFILE_LABEL, "gds").addToLabels(RdmaStorageNode.NODE_LABEL, node).build());
        RdmaStorageNodeSpec spec = new RdmaStorageNodeSpec();
        spec.setProfile("gds");
        spec.setNodeName(node);
        rsn.setSpec(spec);
        return admin.resources(RdmaStorageNode.class).resource(rsn).create();
    }

    private static List<Event> eventsOf(io.fabric8.kubernetes.api.model.HasMetadata object) {
        return admin.v1().events().inNamespace("default")
                .withField("involvedObject.name", object.getMetadata().getName())
                .list().getItems().stream()
                .sorted(Comparator.comparing(e -> e.getMetadata().getName()))
                .toList();
    }

    @Test
    void oneEventPerStatusChangeOnTheRdmaStorageNode() {
        RdmaStorageNode rsn = createNode();
        VerdictEvents events = new VerdictEvents(admin, Clock.systemUTC(), "test-instance");

        List<VerdictChange> first = events.recordChanges(rsn, List.of(),
                List.of(c("Ready", "True", "AllChecksPassed", "all checks passed"),
                        c("GpfsVerbs", "True", "VerbsConnected", "4 peers over RDMA")));
        List<VerdictChange> second = events.recordChanges(rsn,
                List.of(c("Ready", "True", "AllChecksPassed", "all checks passed"),
                        c("GpfsVerbs", "True", "VerbsConnected", "4 peers over RDMA")),
                List.of(c("Ready", "False", "ChecksFailed", "GpfsVerbs: TcpFallback"),
                        c("GpfsVerbs", "False", "TcpFallback", "nsd01 over TCP; run mmfsadm test verbs conn")));
        List<VerdictChange> none = events.recordChanges(rsn,
                List.of(c("Ready", "False", "ChecksFailed", "a")), List.of(c("Ready", "False", "ChecksFailed", "b")));

        assertThat(first).hasSize(2);
        assertThat(second).hasSize(2);
        assertThat(none).isEmpty();
        List<Event> recorded = eventsOf(rsn);
        // the first verdict, all True, is no event; the change to False is one per condition
        assertThat(recorded).hasSize(2);
        assertThat(recorded).allSatisfy(e -> {
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("RdmaStorageNode");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(rsn.getMetadata().getUid());
            assertThat(e.getSource().getComponent()).isEqualTo("rdma-storage-operator");
            assertThat(e.getReportingComponent()).isEqualTo("rdma-storage-operator");
            assertThat(e.getCount()).isEqualTo(1);
        });
        assertThat(recorded).filteredOn(e -> "Warning".equals(e.getType()))
                .extracting(Event::getReason).containsExactlyInAnyOrder("ChecksFailed", "TcpFallback");
        assertThat(recorded).filteredOn(e -> "Normal".equals(e.getType())).isEmpty();
        assertThat(recorded).filteredOn(e -> "TcpFallback".equals(e.getReason())).singleElement()
                .satisfies(e -> assertThat(e.getMessage())
                        .isEqualTo("GpfsVerbs True -> False: nsd01 over TCP; run mmfsadm test verbs conn"));

        // kubectl describe finds them.
        String described = plane.kubectl().run("describe", "rdmastoragenode", rsn.getMetadata().getName()).orThrow("describe");
        assertThat(described).contains("TcpFallback").contains("rdma-storage-operator");
    }

    @Test
    void aProfileWhoseReadyChangesGetsOneEvent() {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("events-" + UUID.randomUUID().toString().substring(0, 8)).build());
        profile.setSpec(new RdmaStorageProfileSpec());
        RdmaStorageProfile created = admin.resources(RdmaStorageProfile.class).resource(profile).create();
        VerdictEvents events = new VerdictEvents(admin, Clock.systemUTC(), "test-instance");

        List<VerdictChange> ready = events.recordProfileChange(created,
                status(c("Ready", "Unknown", "NodesUnknown", "1000 of 1000 nodes unknown"), c("RdmaDevices", "Unknown", "x", "y")),
                status(c("Ready", "True", "AllNodesReady", "1000 of 1000 nodes ready"), c("RdmaDevices", "True", "x", "y")));
        List<VerdictChange> none = events.recordProfileChange(created,
                status(c("Ready", "True", "AllNodesReady", "999 of 999 nodes ready")),
                status(c("Ready", "True", "AllNodesReady", "1000 of 1000 nodes ready")));

        assertThat(ready).extracting(VerdictChange::type).containsExactly("Ready");
        assertThat(none).isEmpty();
        assertThat(eventsOf(created)).singleElement().satisfies(e -> {
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("RdmaStorageProfile");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(created.getMetadata().getUid());
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("AllNodesReady");
            assertThat(e.getMessage()).isEqualTo("Ready Unknown -> True: 1000 of 1000 nodes ready");
        });
    }

    private static RdmaStorageProfileStatus status(Condition... conditions) {
        RdmaStorageProfileStatus status = new RdmaStorageProfileStatus();
        status.setConditions(List.of(conditions));
        return status;
    }

    @Test
    void aFailedWriteIsLoggedNotThrown() {
        RdmaStorageNode rsn = createNode();
        // A service account without any RBAC: every event create is forbidden.
        KubernetesClient forbidden = plane.clientFor("default", "no-rights-" + UUID.randomUUID().toString().substring(0, 6));
        VerdictEvents events = new VerdictEvents(forbidden, Clock.systemUTC(), "test-instance");

        List<VerdictChange> changes = events.recordChanges(rsn, List.of(c("Ready", "True", "A", "a")),
                List.of(c("Ready", "False", "B", "b")));

        assertThat(changes).hasSize(1);
        assertThat(events.record(rsn, changes.get(0))).isFalse();
        assertThat(eventsOf(rsn)).isEmpty();
    }
}
