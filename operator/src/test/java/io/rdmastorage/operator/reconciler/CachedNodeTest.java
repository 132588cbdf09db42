package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.cluster.LeanItemStore;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.PeerAddressType;
import io.rdmastorage.operator.latency.Peer;
import io.rdmastorage.operator.nodes.DesiredMarkings;
import io.rdmastorage.operator.nodes.MarkingOptions;
import io.rdmastorage.operator.nodes.MarkingPatches;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the Node cache keeps ({@link CachedNode}): every field a decision reads, nothing a real kubelet adds besides. */
class CachedNodeTest {

    private static final String PROFILE = "gds";
    private static final String KEY = "rdmastorage.io/gds";

    /** A Node as a real GPU node's kubelet, cloud and add-ons report it, marked by profile gds. */
    private static Node realNode() {
        return new NodeBuilder()
                .withNewMetadata().withName("gpu-01").withUid("9f0c").withResourceVersion("4711")
                .addToLabels("kubernetes.io/hostname", "gpu-01").addToLabels("rdma", "true").addToLabels(KEY, "not-ready")
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .addToAnnotations("csi.volume.kubernetes.io/nodeid", "{\"csi.tigera.io\":\"gpu-01\"}")
                .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubelet").build())
                .endMetadata()
                .withNewSpec().withPodCIDR("10.244.1.0/24").withProviderID("cloud://region-1/i-01")
                .addNewTaint().withKey("nvidia.com/gpu").withValue("present").withEffect("NoSchedule").endTaint()
                .addNewTaint().withKey(KEY).withValue("not-ready").withEffect("NoSchedule").endTaint()
                .endSpec()
                .withNewStatus()
                .addNewCondition().withType("MemoryPressure").withStatus("False").withReason("KubeletHasSufficientMemory")
                .withMessage("kubelet has sufficient memory available").endCondition()
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady").endCondition()
                .addNewCondition().withType(KEY).withStatus("False").withReason("NodesNotReady").withMessage("GdsReady: IommuEnabled")
                .withLastHeartbeatTime("2026-01-01T00:00:00Z").withLastTransitionTime("2026-01-01T00:00:00Z").endCondition()
                .addNewAddress().withType("Hostname").withAddress("gpu-01").endAddress()
                .addNewAddress().withType("InternalIP").withAddress("10.0.0.1").endAddress()
                .addNewAddress().withType("ExternalIP").withAddress("192.0.2.1").endAddress()
                .addToCapacity("nvidia.com/gpu", new Quantity("8")).addToAllocatable("nvidia.com/gpu", new Quantity("8"))
                .addNewImage().withNames("nvcr.io/nvidia/driver@sha256:0123", "nvcr.io/nvidia/driver:550").withSizeBytes(900_000_000L)
                .endImage()
                .withNewNodeInfo().withKernelVersion("6.8.0").withKubeletVersion("v1.34.4").endNodeInfo()
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(10250).endKubeletEndpoint().endDaemonEndpoints()
                .addToVolumesInUse("kubernetes.io/csi/rbd^vol-1")
                .endStatus()
                .build();
    }

    @Test
    void keepsIdentityLabelsCordonTaintsAddressesAndTheConditionsThatAreRead() {
        Node node = realNode();
        Node kept = CachedNode.trim(realNode());

        assertThat(kept.getMetadata().getName()).isEqualTo("gpu-01");
        assertThat(kept.getMetadata().getUid()).isEqualTo("9f0c");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("4711");
        assertThat(kept.getMetadata().getLabels()).isEqualTo(node.getMetadata().getLabels());
        assertThat(kept.getSpec().getTaints()).isEqualTo(node.getSpec().getTaints());
        assertThat(kept.getStatus().getAddresses()).isEqualTo(node.getStatus().getAddresses());
        assertThat(kept.getStatus().getConditions()).extracting(NodeCondition::getType).containsExactly("Ready", KEY);
        assertThat(kept.getStatus().getConditions().get(1)).isEqualTo(node.getStatus().getConditions().get(2));
    }

    @Test
    void dropsWhatNoDecisionReads() {
        Node kept = CachedNode.trim(realNode());

        assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(kept.getSpec().getPodCIDR()).isNull();
        assertThat(kept.getSpec().getProviderID()).isNull();
        assertThat(kept.getStatus().getImages()).isNullOrEmpty();
        assertThat(kept.getStatus().getNodeInfo()).isNull();
        assertThat(kept.getStatus().getCapacity()).isNullOrEmpty();
        assertThat(kept.getStatus().getAllocatable()).isNullOrEmpty();
        assertThat(kept.getStatus().getDaemonEndpoints()).isNull();
        assertThat(kept.getStatus().getVolumesInUse()).isNullOrEmpty();
    }

    @Test
    void everyDecisionOnTheTrimmedNodeIsTheOneOnTheWholeNode() {
        for (boolean cordoned : List.of(false, true)) {
            Node node = realNode();
            node.getSpec().setUnschedulable(cordoned ? true : null);
            Node kept = CachedNode.trim(node);

            // selection and probeability
            assertThat(NodeSelection.matches(new LabelSelectorBuilder().addToMatchLabels("rdma", "true").build(),
                    kept.getMetadata().getLabels())).isTrue();
            assertThat(NodeAvailability.whyNotMeasurable(kept)).isEqualTo(NodeAvailability.whyNotMeasurable(node));
            // a latency pair's server address, by either type
            for (PeerAddressType type : PeerAddressType.values()) {
                assertThat(Peer.of(kept, type)).isEqualTo(Peer.of(node, type));
            }
            // markings: the taint patch (the whole list, guarded by resourceVersion) and our condition
            for (Condition verdict : List.of(verdict("True"), verdict("False"))) {
                DesiredMarkings desired = DesiredMarkings.of(PROFILE, MarkingOptions.ALL, verdict);
                assertThat(MarkingPatches.metadataPatch(kept, desired)).isEqualTo(MarkingPatches.metadataPatch(node, desired));
                Instant now = Instant.parse("2026-01-01T00:01:00Z");
                assertThat(MarkingPatches.statusPatch(kept, desired, now, Duration.ofMinutes(5)))
                        .isEqualTo(MarkingPatches.statusPatch(node, desired, now, Duration.ofMinutes(5)));
            }
            assertThat(MarkingPatches.carriesMarkings(kept, KEY)).isTrue();
        }
    }

    @Test
    void theCacheKeepsTheTrimmedNodeAndHandsItBack() {
        LeanItemStore<Node> store = new LeanItemStore<>(CachedNode::trim);
        Node arrived = realNode();
        String key = store.getKey(arrived);

        assertThat(store.put(key, arrived)).isNull();
        Node cached = store.get(key);
        assertThat(cached.getStatus().getImages()).isNullOrEmpty();
        assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("4711");
        // what the cache holds survives a JSON round trip unchanged (nothing in it depends on the dropped fields)
        assertThat(Serialization.unmarshal(Serialization.asJson(cached), Node.class)).isEqualTo(cached);

        Node next = realNode();
        next.getMetadata().setResourceVersion("4712");
        assertThat(store.put(key, next)).isSameAs(cached);
        assertThat(store.get(key).getMetadata().getResourceVersion()).isEqualTo("4712");
    }

    private static Condition verdict(String status) {
        return new ConditionBuilder().withType("Ready").withStatus(status).withReason("R").withMessage("m").build();
    }
}
