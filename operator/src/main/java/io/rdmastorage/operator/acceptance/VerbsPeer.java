package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.PeerAddressType;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.latency.Peer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code verbs} target: RDMA against TCP between the run's node and a peer node ({@link VerbsAcceptancePods}). */
record VerbsPeer(AcceptanceVerbsTarget section) implements AcceptanceTarget {

    public static final String NAME = "verbs";
    /** The latency workload: a round trip is microseconds; this leaves room for a slow soft-RoCE. */
    static final Duration PER_PING_PONG = Duration.ofMillis(1);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return "verbs " + section.getDevice() + " to " + section.getPeerNode();
    }

    /** The peer runs the server pod: one run per node at a time holds there too. */
    @Override
    public Set<String> otherNodes() {
        return section.getPeerNode() == null ? Set.of() : Set.of(section.getPeerNode());
    }

    /**
     * The verbs commands' document ({@link VerbsAcceptanceSpec}: the device, port and lengths; the
     * peer node stays here, node-probe gets its address); per transport a generous
     * {@link #PER_PING_PONG} per ping-pong, the stream and the overhead.
     */
    @Override
    public AcceptanceSpecDocument document(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException {
        if (section.getPeerNode() == null || !Rules.isNodeName(section.getPeerNode())
                || section.getPeerNode().equals(spec.getNodeName())) {
            throw new InvalidSpecException("verbs.peerNode", "must be a node name other than nodeName");
        }
        VerbsAcceptanceSpec contract = AcceptanceSpecDocument.derive(spec, VerbsAcceptanceSpec.class, Map.of(),
                SpecReader::readVerbsAcceptance);
        VerbsAcceptanceSpec.Verbs verbs = contract.verbs();
        Duration perTransport = PER_PING_PONG.multipliedBy(verbs.iterations()).plusSeconds(verbs.durationSeconds())
                .plus(AcceptanceSpecDocument.PER_TRANSPORT_OVERHEAD);
        return AcceptanceSpecDocument.of(this, contract, spec, perTransport.multipliedBy(2)
                .plus(AcceptanceSpecDocument.START_OVERHEAD), "rdma then tcp from " + verbs.device() + " port " + verbs.port());
    }

    /** The peer must exist and have an address for the client to connect to. */
    @Override
    public Optional<String> missingNode(Map<String, Node> nodes) {
        String peerNode = section.getPeerNode();
        if (!nodes.containsKey(peerNode)) {
            return Optional.of("peer node " + peerNode + " does not exist; check spec.verbs.peerNode (kubectl get nodes)");
        }
        return peer(nodes).isPresent() ? Optional.empty() : Optional.of("peer node " + peerNode
                + " has no InternalIP address in its status for the client to connect to");
    }

    /** The server on the peer and the client on the run's node. */
    @Override
    public List<Pod> pods(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes,
                          OperatorConfig config) {
        return List.of(VerbsAcceptancePods.server(run, document, config),
                VerbsAcceptancePods.client(run, document, peer(nodes).orElseThrow(), config));
    }

    @Override
    public String measuring(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes) {
        return "rdma then tcp between " + run.getSpec().getNodeName() + " and " + peer(nodes).orElseThrow();
    }

    @Override
    public List<String> podNames(RdmaStorageAcceptance run) {
        return List.of(AcceptancePods.podName(run), VerbsAcceptancePods.serverName(run));
    }

    /** The server pod on the peer failed: no client can be served any more. */
    @Override
    public Optional<String> failure(Set<Pod> pods, RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                    Instant now, Duration deadline) {
        return VerbsServerState.failure(pods, run, previous, now, deadline);
    }

    @Override
    public Table judge(AcceptanceSnapshot snapshot, List<AcceptanceTransportResult> reported, double minLatencyRatio) {
        return new Table(reported, RdmaEffectiveness.judge(reported, minLatencyRatio, VerbsAcceptanceMarkdown.WORDING));
    }

    @Override
    public String markdown(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                           RdmaEffectiveness.Ruling ruling) {
        return VerbsAcceptanceMarkdown.markdown(run, document, result, ruling);
    }

    private Optional<Peer> peer(Map<String, Node> nodes) {
        Node node = nodes.get(section.getPeerNode());
        return node == null ? Optional.empty() : Peer.of(node, PeerAddressType.InternalIP);
    }
}
