package io.rdmastorage.operator.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyPairingTest {

    private static Peer peer(String node) {
        return new Peer(node, "10.0.0." + node.substring(node.length() - 1));
    }

    private static List<Peer> peers(String... nodes) {
        return java.util.Arrays.stream(nodes).map(LatencyPairingTest::peer).toList();
    }

    @Test
    void aRingPairsEachNodeWithTheNextByNameAndTheOneAfterAsSecond() {
        List<String> nodes = List.of("n-3", "n-1", "n-5", "n-2", "n-4");
        LatencyPairing ring = LatencyPairing.ring(nodes, peers("n-1", "n-2", "n-3", "n-4", "n-5"));

        assertThat(ring.peersOf("n-1")).containsExactly(peer("n-2"), peer("n-3"));
        assertThat(ring.peersOf("n-4")).containsExactly(peer("n-5"), peer("n-1"));
        assertThat(ring.peersOf("n-5")).containsExactly(peer("n-1"), peer("n-2"));
        // N measurements, and every node serves exactly one first-choice client
        assertThat(nodes.stream().map(n -> ring.peersOf(n).get(0).node())).containsExactlyInAnyOrderElementsOf(nodes);
    }

    @Test
    void twoNodesMeasureEachOtherAndOneHasNoPeer() {
        LatencyPairing two = LatencyPairing.ring(List.of("a-1", "b-2"), peers("a-1", "b-2"));
        assertThat(two.peersOf("a-1")).containsExactly(peer("b-2"));
        assertThat(two.peersOf("b-2")).containsExactly(peer("a-1"));

        LatencyPairing one = LatencyPairing.ring(List.of("a-1"), peers("a-1"));
        assertThat(one.peersOf("a-1")).isEmpty();
        assertThat(one.peersOf("not-a-client")).isEmpty();
    }

    @Test
    void aNodeWithoutAnAddressIsSkippedAsAServerButStillMeasured() {
        LatencyPairing ring = LatencyPairing.ring(List.of("n-1", "n-2", "n-3"), peers("n-1", "n-3"));
        assertThat(ring.peersOf("n-1")).containsExactly(peer("n-3"));
        assertThat(ring.peersOf("n-2")).containsExactly(peer("n-3"), peer("n-1"));
        assertThat(ring.peersOf("n-3")).containsExactly(peer("n-1"));
    }

    @Test
    void referenceNodesSpreadTheClientsAndOfferTheNextAsSecond() {
        LatencyPairing refs = LatencyPairing.references(List.of("g-4", "g-1", "g-3", "g-2"), peers("s-2", "s-1"));
        assertThat(refs.peersOf("g-1")).containsExactly(peer("s-1"), peer("s-2"));
        assertThat(refs.peersOf("g-2")).containsExactly(peer("s-2"), peer("s-1"));
        assertThat(refs.peersOf("g-3")).containsExactly(peer("s-1"), peer("s-2"));

        // a reference node that is itself measured never measures against itself
        LatencyPairing alone = LatencyPairing.references(List.of("s-1", "g-1"), peers("s-1"));
        assertThat(alone.peersOf("s-1")).isEmpty();
        assertThat(alone.peersOf("g-1")).containsExactly(peer("s-1"));
    }
}
