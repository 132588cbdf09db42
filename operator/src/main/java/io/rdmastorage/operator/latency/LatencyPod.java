package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.Labels;
import java.util.Map;
import java.util.Optional;

/**
 * One side of a latency pair as read back from its pod: all the state of a measurement under way
 * lives in its pods' labels and annotations, so a restarted operator picks it up where it was.
 *
 * @param role       {@link LatencyPods#SERVER} or {@link LatencyPods#CLIENT}
 * @param clientNode the node being measured (the client side), whichever side this pod is
 * @param peer       the server side's node and address
 * @param round      the client node's latency round
 * @param attempt    1 for the first peer, 2 for the second
 * @param tcpPort    perftest's out-of-band TCP port for this pair
 */
public record LatencyPod(Pod pod, String role, String clientNode, Peer peer, long round, int attempt, int tcpPort) {

    public boolean isServer() {
        return LatencyPods.SERVER.equals(role);
    }

    /** The node the pod runs on. */
    public String runsOn() {
        return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    }

    /** The pod as a latency pod; empty for any other pod, or one whose marks were tampered with. */
    public static Optional<LatencyPod> of(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        if (labels == null || annotations == null) {
            return Optional.empty();
        }
        String role = labels.get(LatencyPods.ROLE);
        String client = annotations.get(LatencyPods.CLIENT_NODE_ANNOTATION);
        String peerNode = annotations.get(LatencyPods.PEER_NODE_ANNOTATION);
        String peerAddress = annotations.get(LatencyPods.PEER_ADDRESS_ANNOTATION);
        if (!LatencyPods.SERVER.equals(role) && !LatencyPods.CLIENT.equals(role) || client == null || peerNode == null
                || peerAddress == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LatencyPod(pod, role, client, new Peer(peerNode, peerAddress),
                    Long.parseLong(labels.getOrDefault(Labels.ROUND, "")),
                    Integer.parseInt(labels.getOrDefault(LatencyPods.ATTEMPT, "")),
                    Integer.parseInt(annotations.getOrDefault(LatencyPods.TCP_PORT_ANNOTATION, ""))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
