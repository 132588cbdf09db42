package io.rdmastorage.operator.nodes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.rdmastorage.operator.verdict.NotProbed;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a node may be measured now: the one place the profile rounds, the latency pairs and the
 * acceptance runs ask. A NotReady kubelet would never run the pod; a cordoned node is being drained
 * or repaired; a node whose NVMe-oF transport an acceptance run holds would be judged on the run's
 * extra transport, not its own. Acceptance runs ask one thing more, whether the node is part of the
 * control plane ({@link #controlPlaneMark}), which the admin's bounds keep them off.
 */
public final class NodeAvailability {

    /** The role labels a control-plane node carries: kubeadm's, kubeadm's before 1.24 (and k3s'), RKE2's and k3s' etcd role. */
    public static final List<String> CONTROL_PLANE_LABELS = List.of("node-role.kubernetes.io/control-plane",
            "node-role.kubernetes.io/master", "node-role.kubernetes.io/etcd");
    /** The taint keys that keep workloads off a control-plane node (the first two are kubeadm's, the third RKE2's etcd). */
    public static final List<String> CONTROL_PLANE_TAINTS = List.of("node-role.kubernetes.io/control-plane",
            "node-role.kubernetes.io/master", "node-role.kubernetes.io/etcd");

    private NodeAvailability() {
    }

    /** Why {@code node} cannot be measured now, or empty when it can: NotReady, or cordoned. */
    public static Optional<NotProbed> whyNotMeasurable(Node node) {
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            return Optional.of(NotProbed.NODE_UNSCHEDULABLE);
        }
        boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        return ready ? Optional.empty() : Optional.of(NotProbed.NODE_NOT_READY);
    }

    /**
     * As {@link #whyNotMeasurable(Node)}, and held by an acceptance run: the node's own state first,
     * since a cordoned node is not measured whatever a run does there.
     *
     * @param heldByRuns the nodes whose transport an acceptance run holds
     */
    public static Optional<NotProbed> whyNotMeasurable(Node node, Set<String> heldByRuns) {
        return whyNotMeasurable(node).or(() -> heldByRuns.contains(node.getMetadata().getName())
                ? Optional.of(NotProbed.ACCEPTANCE_RUN_IN_PROGRESS) : Optional.empty());
    }

    /**
     * What marks {@code node} as part of the control plane: a role label or a control-plane taint
     * ({@code label …} or {@code taint …}); empty for a worker. Clusters name it differently (kubeadm
     * since 1.24, before it, RKE2 and k3s' etcd servers), and any of them is enough.
     */
    public static Optional<String> controlPlaneMark(Node node) {
        Map<String, String> labels = node.getMetadata() == null || node.getMetadata().getLabels() == null ? Map.of()
                : node.getMetadata().getLabels();
        for (String label : CONTROL_PLANE_LABELS) {
            if (labels.containsKey(label)) {
                return Optional.of("label " + label);
            }
        }
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
        return taints.stream().map(Taint::getKey).filter(CONTROL_PLANE_TAINTS::contains).findFirst().map(key -> "taint " + key);
    }
}
