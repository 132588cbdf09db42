package io.rdmastorage.operator.helm;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.LocalControlPlane;
import java.util.Optional;

/** A profile on a real node (RealNode, the VM's kubelet), as a user writes it: the node labelled, the profile applied with kubectl. */
final class RealNodeProfile {

    static final String NODE_LABEL = "storage.example.com/client";

    private RealNodeProfile() {
    }

    /**
     * Labels {@code node} for the profile and applies profile {@code name} selecting it, with
     * {@code spec}: further spec lines, indented by two spaces.
     */
    static void apply(LocalControlPlane plane, String node, String name, String spec) {
        apply(plane, node, NODE_LABEL, name, spec);
    }

    /** {@link #apply(LocalControlPlane, String, String, String)} with the node label {@code label} instead of {@link #NODE_LABEL}. */
    static void apply(LocalControlPlane plane, String node, String label, String name, String spec) {
        label(plane, node, label);
        plane.kubectl().applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata:
                  name: %s
                spec:
                  nodeSelector:
                    matchLabels:
                      %s: "true"
                %s""".formatted(name, label, spec)).orThrow("apply profile " + name);
    }

    /** Sets {@code label}: "true" on {@code node}, as an admin marks the nodes a profile selects. */
    static void label(LocalControlPlane plane, String node, String label) {
        ContendedEdits.label(plane.adminClient(), node, label, "true");
    }

    /** The verdict's condition of {@code type}, empty before the first verdict. */
    static Optional<Condition> condition(RdmaStorageNode node, String type) {
        if (node == null || node.getStatus() == null || node.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return node.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }
}
