package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code lnetctl peer show [-v N]}: the LNet peers this node has talked to, each with its NIDs (peer
 * NIs), their state ({@code up}, {@code down}, or {@code NA} when discovery did not mark it) and,
 * from {@code -v 3} on, their health value. lnetctl prints nothing when there is no peer.
 */
public record LnetPeers(List<Peer> peers) {

    public LnetPeers {
        peers = List.copyOf(peers);
    }

    public record Peer(LnetNid primaryNid, List<PeerNi> nis) {
        public Peer {
            nis = List.copyOf(nis);
        }
    }

    public record PeerNi(LnetNid nid, String state, OptionalInt health) {
        public boolean down() {
            return state.equals("down");
        }
    }

    /** The peers; empty when the text is not a {@code peer:} list (an empty text is no peer). */
    public static Optional<LnetPeers> parse(String text) {
        if (text.isBlank()) {
            return Optional.of(new LnetPeers(List.of()));
        }
        Optional<Map<String, Object>> doc = LnetctlYaml.parse(text);
        if (doc.isEmpty() || !(doc.get().get("peer") instanceof List)) {
            return Optional.empty();
        }
        List<Peer> peers = new ArrayList<>();
        for (Map<String, Object> peer : LnetctlYaml.maps(doc.get(), "peer")) {
            Optional<LnetNid> primary = LnetctlYaml.text(peer, "primary nid").flatMap(LnetNid::parse);
            if (primary.isEmpty()) {
                return Optional.empty();
            }
            List<PeerNi> nis = new ArrayList<>();
            for (Map<String, Object> ni : LnetctlYaml.maps(peer, "peer ni")) {
                Optional<LnetNid> nid = LnetctlYaml.text(ni, "nid").flatMap(LnetNid::parse);
                if (nid.isEmpty()) {
                    return Optional.empty();
                }
                nis.add(new PeerNi(nid.get(), LnetctlYaml.text(ni, "state").orElse("NA"), LnetNets.health(ni)));
            }
            peers.add(new Peer(primary.get(), nis));
        }
        return Optional.of(new LnetPeers(peers));
    }
}
