package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a simulated node is registered: its name, labels, taints, readiness, schedulability, the
 * fixture directory that stands for its host file system ({@code --host-root}), and its initial fault.
 * Immutable; each {@code with...} returns a copy.
 */
public record SimulatedNode(String name, Map<String, String> labels, List<Taint> taints, boolean ready,
                            boolean unschedulable, Path hostRoot, NodeFault fault) {

    public SimulatedNode {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
        Objects.requireNonNull(fault, "fault");
    }

    /** A Ready, schedulable node without labels, taints or host root. */
    public static SimulatedNode named(String name) {
        return new SimulatedNode(name, Map.of(), List.of(), true, false, null, NodeFault.NONE);
    }

    public SimulatedNode withLabel(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(labels);
        copy.put(key, value);
        return new SimulatedNode(name, copy, taints, ready, unschedulable, hostRoot, fault);
    }

    public SimulatedNode withLabels(Map<String, String> more) {
        Map<String, String> copy = new LinkedHashMap<>(labels);
        copy.putAll(more);
        return new SimulatedNode(name, copy, taints, ready, unschedulable, hostRoot, fault);
    }

    /** Adds a taint, e.g. {@code withTaint("nvidia.com/gpu", "present", "NoSchedule")}. */
    public SimulatedNode withTaint(String key, String value, String effect) {
        List<Taint> copy = new ArrayList<>(taints);
        copy.add(new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
        return new SimulatedNode(name, labels, copy, ready, unschedulable, hostRoot, fault);
    }

    /** A NotReady node: its kubelet does not act on pods until {@link SimulatedCluster#setReady}. */
    public SimulatedNode notReady() {
        return withReady(false);
    }

    public SimulatedNode withReady(boolean isReady) {
        return new SimulatedNode(name, labels, taints, isReady, unschedulable, hostRoot, fault);
    }

    /** A cordoned node ({@code spec.unschedulable}). */
    public SimulatedNode cordoned() {
        return new SimulatedNode(name, labels, taints, ready, true, hostRoot, fault);
    }

    /** The directory node-probe gets as {@code --host-root} for pods on this node. */
    public SimulatedNode withHostRoot(Path dir) {
        return new SimulatedNode(name, labels, taints, ready, unschedulable, dir, fault);
    }

    public SimulatedNode withFault(NodeFault newFault) {
        return new SimulatedNode(name, labels, taints, ready, unschedulable, hostRoot, newFault);
    }
}
