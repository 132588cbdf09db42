package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.cluster.SharedTexts;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.rdmastorage.operator.nodes.MarkingKey;
import java.util.List;

/**
 * What the operator keeps of a Node in its informer cache: the fields its decisions read, and
 * nothing else. A real node's kubelet reports far more (up to 50 images by digest and tag, system
 * info, capacity and allocatable, daemon endpoints, the pressure conditions' messages; add-ons add
 * annotations), several KiB per node that a cache of every node in the cluster would hold for
 * nothing. Kept, and who reads it:
 * <ul>
 * <li>name, uid, resourceVersion: identity; the resourceVersion guards the taint patch
 * ({@code MarkingPatches.metadataPatch}), which replaces the whole taint list;</li>
 * <li>every label: profiles' node selectors ({@link NodeSelection}), our marking label; their values
 * held once across nodes ({@link SharedTexts}: most are the same on every node of a kind);</li>
 * <li>{@code spec.unschedulable}: a cordoned node is not probed ({@link NodeAvailability#whyNotMeasurable});</li>
 * <li>every taint: the taint patch rewrites the list, so it must know the others' taints too;</li>
 * <li>the Ready condition ({@link NodeSelection}) and the profiles' own conditions, types under
 * {@link MarkingKey#PREFIX} ({@code MarkingPatches}); the kubelet's pressure conditions are dropped;</li>
 * <li>every address: a latency pair's server is reached at one ({@code latency.Peer}).</li>
 * </ul>
 * Acceptance runs read Nodes from the API server, not from this cache.
 */
final class CachedNode {

    static final String READY = "Ready";

    private CachedNode() {
    }

    /** A new Node holding only the fields listed above, sharing their values with {@code node}. */
    static Node trim(Node node) {
        Node kept = new Node();
        ObjectMeta metadata = new ObjectMeta();
        if (node.getMetadata() != null) {
            metadata.setName(node.getMetadata().getName());
            metadata.setUid(node.getMetadata().getUid());
            metadata.setResourceVersion(node.getMetadata().getResourceVersion());
            metadata.setLabels(SharedTexts.values(node.getMetadata().getLabels()));
        }
        kept.setMetadata(metadata);
        if (node.getSpec() != null) {
            NodeSpec spec = new NodeSpec();
            spec.setUnschedulable(node.getSpec().getUnschedulable());
            spec.setTaints(node.getSpec().getTaints());
            kept.setSpec(spec);
        }
        if (node.getStatus() != null) {
            NodeStatus status = new NodeStatus();
            status.setConditions(node.getStatus().getConditions() == null ? null
                    : node.getStatus().getConditions().stream().filter(CachedNode::read).toList());
            status.setAddresses(node.getStatus().getAddresses());
            kept.setStatus(status);
        }
        return kept;
    }

    private static boolean read(NodeCondition condition) {
        String type = condition.getType();
        return type != null && (READY.equals(type) || type.startsWith(MarkingKey.PREFIX));
    }
}
