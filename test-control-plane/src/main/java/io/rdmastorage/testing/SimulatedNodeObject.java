package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddressBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Node object of a {@link SimulatedCluster}'s node: what the simulation needs and no more ({@link RealisticNodes} adds the rest). */
final class SimulatedNodeObject {

    private SimulatedNodeObject() {
    }

    /**
     * The Node {@code node} is registered as: labelled with the cluster's id, tainted as the node
     * lifecycle controller taints its state, Ready as its kubelet reports it, at {@code hostIp}.
     */
    static Node of(SimulatedNode node, String clusterId, String hostIp, String kubeletVersion) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", node.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put(SimulatedCluster.CLUSTER_LABEL, clusterId);
        labels.putAll(node.labels());
        List<Taint> taints = new ArrayList<>(node.taints());
        // what the node lifecycle controller adds for these states
        if (node.unschedulable()) {
            taints.add(new TaintBuilder().withKey("node.kubernetes.io/unschedulable").withEffect("NoSchedule").build());
        }
        if (!node.ready()) {
            taints.add(new TaintBuilder().withKey("node.kubernetes.io/not-ready").withEffect("NoSchedule").build());
        }
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity("64"), "memory", new Quantity("512Gi"),
                "pods", new Quantity("110"), "ephemeral-storage", new Quantity("1Ti"));
        String now = PodStatuses.time(Instant.now());
        return new NodeBuilder()
                .withNewMetadata().withName(node.name()).withLabels(labels).endMetadata()
                .withNewSpec().withTaints(taints).withUnschedulable(node.unschedulable() ? true : null).endSpec()
                .withNewStatus()
                .withConditions(readyCondition(node.ready(), now))
                .withAddresses(new NodeAddressBuilder().withType("InternalIP").withAddress(hostIp).build(),
                        new NodeAddressBuilder().withType("Hostname").withAddress(node.name()).build())
                .withCapacity(capacity)
                .withAllocatable(capacity)
                .withNewNodeInfo()
                .withArchitecture("amd64").withOperatingSystem("linux").withOsImage("Simulated Linux")
                .withKernelVersion("6.1.0-simulated").withContainerRuntimeVersion("simulated://1.0")
                .withKubeletVersion(kubeletVersion).withKubeProxyVersion("")
                .withMachineID(node.name()).withSystemUUID(node.name()).withBootID(node.name())
                .endNodeInfo()
                .endStatus()
                .build();
    }

    private static NodeCondition readyCondition(boolean ready, String now) {
        return new NodeConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False")
                .withReason(ready ? "KubeletReady" : "KubeletNotReady")
                .withMessage(ready ? "kubelet is posting ready status" : "simulated: kubelet stopped posting node status")
                .withLastHeartbeatTime(now).withLastTransitionTime(now).build();
    }
}
