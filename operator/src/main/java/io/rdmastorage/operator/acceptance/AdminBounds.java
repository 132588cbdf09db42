package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.nodes.NodeAvailability;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether a run stays where the cluster admin lets runs act ({@link AcceptanceBounds}), checked by
 * the planner before any pod exists: its nodes (the selector; never a control-plane node, by any of its marks
 * ({@link NodeAvailability#controlPlaneMark}), unless allowed), its deadline, and what node-probe checks again on the node (the directory's prefix,
 * the file's size, the NVMe-oF address, the workloads' time: {@code AcceptanceSpec.Bounds}).
 */
final class AdminBounds {

    private AdminBounds() {
    }

    /** Why the run is outside the bounds, naming the admin's setting; empty when it is inside. */
    static Optional<String> refusal(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes,
                                    Collection<ProbeSpec.Target> profileTargets, AcceptanceBounds bounds) {
        if (bounds.nodeSelector().isEmpty()) {
            // the safe default: a privileged pod goes only where the cluster admin said runs may go
            return Optional.of("no node takes acceptance runs until the cluster admin names the nodes that may: "
                    + "acceptance.nodeSelector is empty (the chart's value, e.g. rdmastorage.io/acceptance: \"true\")");
        }
        for (String name : new TreeSet<>(AcceptanceNodes.of(run))) {
            Node node = nodes.get(name);
            Map<String, String> labels = Optional.ofNullable(node).map(n -> n.getMetadata().getLabels()).orElse(Map.of());
            Optional<String> controlPlane = node == null ? Optional.empty() : NodeAvailability.controlPlaneMark(node);
            if (!bounds.allowControlPlane() && controlPlane.isPresent()) {
                return Optional.of("node " + name + " is a control-plane node (" + controlPlane.get()
                        + "); runs never go there unless the cluster admin sets acceptance.allowControlPlane");
            }
            for (Map.Entry<String, String> wanted : bounds.nodeSelector().entrySet()) {
                if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                    return Optional.of("node " + name + " lacks the label " + wanted.getKey() + "=" + wanted.getValue()
                            + " of acceptance.nodeSelector, which names the nodes that may take runs");
                }
            }
        }
        if (document.deadline().toSeconds() > bounds.maxDurationSeconds()) {
            return Optional.of("the run's deadline " + document.deadline().toSeconds() + " s is above acceptance.maxDurationSeconds "
                    + bounds.maxDurationSeconds() + "; shorten the workloads or spec.timeoutSeconds");
        }
        return document.target().outside(bounds.forProbe(profileTargets), document);
    }
}
