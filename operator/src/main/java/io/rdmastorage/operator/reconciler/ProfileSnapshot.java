package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.acceptance.AcceptanceTransportHolds;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.LatencyPod;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.verdict.NotProbed;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one reconcile knows of a profile, read once from the informer caches: the nodes, which of
 * them the profile selects and which can be probed now, the stored verdicts and the probe pods.
 * Everything a plan is made from; nothing here changes while the reconcile runs.
 *
 * @param matching     the nodes the profile's selector selects, by name
 * @param notProbeable why a node cannot be probed now (NotReady, cordoned, held by an acceptance run); absent = it can
 * @param storageNodes the profile's RdmaStorageNodes (each holding one node's verdict) by node
 * @param probePods    the node probes' pods by the node they run on
 * @param latencyPods  the latency pairs' pods
 * @param strays       latency pods whose marks do not read back: never harvested, only deleted
 */
record ProfileSnapshot(RdmaStorageProfile profile, ProfileSettings settings, Map<String, Node> nodes,
                       Set<String> matching, Map<String, NotProbed> notProbeable, Map<String, RdmaStorageNode> storageNodes,
                       Map<String, List<Pod>> probePods, List<LatencyPod> latencyPods, List<Pod> strays) {

    static ProfileSnapshot of(RdmaStorageProfile profile, Collection<Node> nodes, Collection<RdmaStorageNode> storageNodes,
                              Collection<Pod> pods) {
        return of(profile, nodes, storageNodes, pods, List.of());
    }

    /** @param runs the acceptance runs: a node one of them holds is not probed ({@link AcceptanceTransportHolds}) */
    static ProfileSnapshot of(RdmaStorageProfile profile, Collection<Node> nodes, Collection<RdmaStorageNode> storageNodes,
                              Collection<Pod> pods, Collection<RdmaStorageAcceptance> runs) {
        Set<String> held = AcceptanceTransportHolds.heldNodes(runs);
        Map<String, Node> byName = new HashMap<>();
        Set<String> matching = new TreeSet<>();
        Map<String, NotProbed> notProbeable = new HashMap<>();
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            byName.putIfAbsent(name, node);
            if (NodeSelection.matches(profile.getSpec().getNodeSelector(), node.getMetadata().getLabels())) {
                matching.add(name);
            }
            NodeAvailability.whyNotMeasurable(node, held).ifPresent(why -> notProbeable.put(name, why));
        }
        Map<String, RdmaStorageNode> byNode = new HashMap<>();
        for (RdmaStorageNode v : storageNodes) {
            if (v.getSpec() != null && v.getSpec().getNodeName() != null) {
                byNode.putIfAbsent(v.getSpec().getNodeName(), v);
            }
        }
        Map<String, List<Pod>> probePods = new HashMap<>();
        List<LatencyPod> latencyPods = new ArrayList<>();
        List<Pod> strays = new ArrayList<>();
        for (Pod p : pods) {
            if (p.getSpec() == null || p.getSpec().getNodeName() == null) {
                continue;
            }
            if (p.getMetadata().getLabels() != null && p.getMetadata().getLabels().containsKey(LatencyPods.ROLE)) {
                LatencyPod.of(p).ifPresentOrElse(latencyPods::add, () -> strays.add(p));
            } else {
                probePods.computeIfAbsent(p.getSpec().getNodeName(), n -> new ArrayList<>()).add(p);
            }
        }
        return new ProfileSnapshot(profile, ProfileSettings.of(profile.getSpec()), byName, matching, notProbeable,
                byNode, probePods, latencyPods, strays);
    }

    long generation() {
        return profile.getMetadata().getGeneration();
    }

    /** Every node the profile has to do with: selected now, or holding a verdict or pods of it. */
    Set<String> concerned() {
        Set<String> concerned = new TreeSet<>(storageNodes.keySet());
        concerned.addAll(probePods.keySet());
        concerned.addAll(matching);
        return concerned;
    }

    /** A node in the cluster that can be probed now, selected or not (a reference node, say). */
    boolean probeable(String node) {
        return nodes.containsKey(node) && !notProbeable.containsKey(node);
    }

    Optional<NotProbed> whyNotProbeable(String node) {
        return Optional.ofNullable(notProbeable.get(node));
    }
}
