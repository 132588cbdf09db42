package io.rdmastorage.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;

/**
 * Sets or removes one label of a Node the way an admin's {@code kubectl label} does: a JSON merge
 * patch of that label alone, without a resourceVersion. A read-modify-write ({@code edit}) carries
 * the version it read and is refused with 409 Conflict when a real kubelet (or the operator's
 * marking) updated the Node in between.
 */
public final class NodeLabels {

    private NodeLabels() {
    }

    /** {@code key=value} on {@code node}; a null value removes the label. */
    public static void set(KubernetesClient client, String node, String key, String value) {
        Map<String, Object> labels = new java.util.HashMap<>();
        labels.put(key, value);
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("labels", labels))));
    }
}
