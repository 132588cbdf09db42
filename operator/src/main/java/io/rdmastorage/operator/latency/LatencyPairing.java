package io.rdmastorage.operator.latency;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who measures against whom, worked out again on every reconcile from the nodes that can take part
 * now (a round already under way keeps the peer its pods name).
 * <ul>
 * <li><b>Ring</b> (default): the measurable nodes in name order, each the client of the next one
 * that has an address, the last of the first: N nodes cost N measurements, not N², and every node
 * serves one client. The candidate after that is the second peer, tried when the first cannot be
 * reached.</li>
 * <li><b>Reference nodes</b> ({@code referenceNodeSelector}): client number i in name order starts
 * with reference i mod R, so the clients spread evenly; the next reference is its second peer.</li>
 * </ul>
 * A node is never its own peer; one node alone has none.
 */
public final class LatencyPairing {

    /** First peer, then the one to try when the first cannot be reached. */
    static final int CANDIDATES = 2;

    private final Map<String, List<Peer>> peers;

    private LatencyPairing(Map<String, List<Peer>> peers) {
        this.peers = peers;
    }

    /**
     * @param clients the measurable nodes of the profile (any order)
     * @param servers the same nodes as peers, for those that have an address
     */
    public static LatencyPairing ring(List<String> clients, List<Peer> servers) {
        List<String> ring = clients.stream().sorted().distinct().toList();
        Map<String, Peer> byNode = new HashMap<>();
        servers.forEach(p -> byNode.put(p.node(), p));
        Map<String, List<Peer>> peers = new HashMap<>();
        for (int i = 0; i < ring.size(); i++) {
            List<Peer> candidates = new ArrayList<>(CANDIDATES);
            for (int step = 1; step < ring.size() && candidates.size() < CANDIDATES; step++) {
                Peer next = byNode.get(ring.get((i + step) % ring.size()));
                if (next != null) {
                    candidates.add(next);
                }
            }
            peers.put(ring.get(i), List.copyOf(candidates));
        }
        return new LatencyPairing(peers);
    }

    /**
     * @param clients    the measurable nodes of the profile (any order)
     * @param references the reference nodes that can serve now (any order)
     */
    public static LatencyPairing references(List<String> clients, List<Peer> references) {
        List<String> ordered = clients.stream().sorted().distinct().toList();
        List<Peer> refs = references.stream().sorted(Comparator.comparing(Peer::node)).toList();
        Map<String, List<Peer>> peers = new HashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            String client = ordered.get(i);
            List<Peer> others = refs.stream().filter(p -> !p.node().equals(client)).toList();
            List<Peer> candidates = new ArrayList<>(CANDIDATES);
            for (int k = 0; k < Math.min(CANDIDATES, others.size()); k++) {
                candidates.add(others.get((i + k) % others.size()));
            }
            peers.put(client, List.copyOf(candidates));
        }
        return new LatencyPairing(peers);
    }

    /** The client's peers in the order to try them: at most two, empty when it has none (or is not a client). */
    public List<Peer> peersOf(String client) {
        return peers.getOrDefault(client, List.of());
    }
}
