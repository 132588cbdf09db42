package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A test's edits of an object that others write too: a Node (its kubelet, the node controller, the
 * operator's markings) or a profile (the operator's status and finalizer). Where one field can be set
 * alone, a JSON merge patch of that field without a resourceVersion, as {@code kubectl label} and
 * {@code kubectl cordon} do. Where it cannot (the taints, an atomic list: a patch of the whole list
 * would drop a taint another writer added in between), a read-modify-write with the version it read,
 * written again on a 409 Conflict.
 */
public final class ContendedEdits {

    /** Writes of one edit before a conflict is the test's failure: each lost the race to another writer. */
    private static final int ATTEMPTS = 5;

    private ContendedEdits() {
    }

    /** {@code key=value} on {@code node}; a null value removes the label. */
    public static void label(KubernetesClient client, String node, String key, String value) {
        Map<String, Object> labels = new java.util.HashMap<>();
        labels.put(key, value);
        mergePatch(client, node, Map.of("metadata", Map.of("labels", labels)));
    }

    /** Marks {@code node} unschedulable, as {@code kubectl cordon} does. */
    public static void cordon(KubernetesClient client, String node) {
        mergePatch(client, node, Map.of("spec", Map.of("unschedulable", true)));
    }

    /** Changes what {@code edit} changes of {@code node}'s spec or metadata, again on a conflict. */
    public static void editNode(KubernetesClient client, String node, Consumer<Node> edit) {
        edit(client.nodes().withName(node), edit);
    }

    /** Changes what {@code edit} changes of {@code node}'s status, again on a conflict. */
    public static void editNodeStatus(KubernetesClient client, String node, Consumer<Node> edit) {
        Resource<Node> resource = client.nodes().withName(node);
        againOnConflict(() -> resource.editStatus(n -> {
            edit.accept(n);
            return n;
        }));
    }

    /** A read-modify-write of any object, written again (read afresh) on a 409 Conflict. */
    public static <T extends HasMetadata> void edit(Resource<T> resource, Consumer<T> edit) {
        againOnConflict(() -> resource.edit(o -> {
            edit.accept(o);
            return o;
        }));
    }

    private static void againOnConflict(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static void mergePatch(KubernetesClient client, String node, Map<String, Object> patch) {
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                client.getKubernetesSerialization().asJson(patch));
    }
}
