package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.operator.api.PeerAddressType;
import java.util.Optional;

/** A node that can run the server side of a latency pair, with the address its client connects to. */
public record Peer(String node, String address) {

    /**
     * The node as a peer: its first {@code status.addresses} entry of {@code type} that is an IP
     * address (node-probe's {@code --peer} takes nothing else); empty when it has none.
     */
    public static Optional<Peer> of(Node node, PeerAddressType type) {
        if (node.getStatus() == null || node.getStatus().getAddresses() == null) {
            return Optional.empty();
        }
        String wanted = (type == null ? PeerAddressType.InternalIP : type).name();
        return node.getStatus().getAddresses().stream()
                .filter(a -> wanted.equals(a.getType()))
                .map(NodeAddress::getAddress)
                .filter(a -> a != null && Rules.isIpAddress(a))
                .findFirst()
                .map(address -> new Peer(node.getMetadata().getName(), address));
    }

    @Override
    public String toString() {
        return node + " (" + address + ")";
    }
}
