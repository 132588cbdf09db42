package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** lnetctl's net and peer documents, read from the recorded samples. */
class LnetctlParsersTest {

    static final String HEALTHY = "lustre/lnetctl-net-show-v_o2ib-2ni-health-1000_lustrefs-exporter-fixture.txt";
    static final String DEGRADED = "lustre/lnetctl-net-show-v4_o2ib-health-1000-979-66_nvidia-gds-troubleshooting.txt";
    static final String NI_DOWN = "lustre/lnetctl-net-show_o2ib-ni-down_tcp-up_iml-agent-test.txt";
    static final String DOWN = "lustre/lnetctl-net-show_errno-100-network-down_lustrefs-exporter-fixture.txt";
    static final String MULTIRAIL = "lustre/lnetctl-net+peer-show_mounts_multirail-o2ib-o2ib1_nvidia-gds-troubleshooting.txt";
    static final String PEERS_V3 = "lustre/lnetctl-peer-show-v3_o2ib-down-tcp-up_peer-health-400_constructed.txt";
    static final String PEERS_TCP = "lustre/lnetctl-peer-show_tcp-and-efa-peers_fsx-client-log.txt";

    static String part(String sample, String command) {
        return io.rdmastorage.probe.testing.LustreFixtures.part(sample, command);
    }

    @Test
    void healthyO2ibNisAreUpWithFullHealth() {
        LnetNets nets = LnetNets.parse(Samples.body(HEALTHY)).orElseThrow();

        assertThat(nets.names()).containsExactly("o2ib");
        assertThat(nets.net("o2ib").orElseThrow().nis()).extracting(n -> n.nid().toString(), LnetNets.Ni::up, LnetNets.Ni::health)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("172.16.0.24@o2ib", true, OptionalInt.of(1000)),
                        org.assertj.core.groups.Tuple.tuple("172.16.0.28@o2ib", true, OptionalInt.of(1000)));
        assertThat(nets.net("o2ib").orElseThrow().nis().get(1).interfaces()).containsExactly("ib1");
    }

    @Test
    void degradedHealthValuesAreRead() {
        LnetNets nets = LnetNets.parse(Samples.body(DEGRADED)).orElseThrow();

        assertThat(nets.net("o2ib").orElseThrow().nis()).extracting(LnetNets.Ni::health)
                .containsExactly(OptionalInt.of(1000), OptionalInt.of(979), OptionalInt.of(66));
    }

    @Test
    void aDownNiBesideTcpAndNoHealthWithoutVerbose() {
        LnetNets nets = LnetNets.parse(Samples.body(NI_DOWN)).orElseThrow();

        assertThat(nets.names()).containsExactly("tcp", "o2ib");
        assertThat(nets.net("o2ib").orElseThrow().nis()).extracting(LnetNets.Ni::status).containsExactly("down", "up");
        assertThat(nets.net("o2ib").orElseThrow().nis().get(0).interfaces()).containsExactly("ib0", "ib3");
        assertThat(nets.net("o2ib").orElseThrow().nis().get(0).health()).isEmpty();
    }

    @Test
    void theNetworkDownDocumentIsAnErrorNotNetworks() {
        LnetNets nets = LnetNets.parse(Samples.body(DOWN)).orElseThrow();

        assertThat(nets.nets()).isEmpty();
        assertThat(nets.error()).contains("cannot get networks: Network is down");
    }

    @Test
    void multiRailPeersHaveTheirO2ibAndO2ib1Nids() {
        LnetNets nets = LnetNets.parse(part(MULTIRAIL, "lnetctl net show")).orElseThrow();
        LnetPeers peers = LnetPeers.parse(part(MULTIRAIL, "lnetctl peer show")).orElseThrow();

        assertThat(nets.names()).containsExactly("o2ib", "o2ib1");
        assertThat(peers.peers()).hasSize(2);
        assertThat(peers.peers().get(0).nis()).extracting(n -> n.nid().network()).containsExactly("o2ib", "o2ib1");
        assertThat(peers.peers().get(0).nis()).extracting(LnetPeers.PeerNi::state).containsOnly("NA");
    }

    @Test
    void peerStatesAndHealthAtVerbose3() {
        LnetPeers peers = LnetPeers.parse(Samples.body(PEERS_V3)).orElseThrow();

        assertThat(peers.peers().get(0).nis()).extracting(n -> n.nid().toString(), LnetPeers.PeerNi::down)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("10.10.0.11@o2ib", true),
                        org.assertj.core.groups.Tuple.tuple("192.168.0.11@tcp", false));
        assertThat(peers.peers().get(1).nis().get(0).health()).isEqualTo(OptionalInt.of(400));
    }

    @Test
    void tcpAndEfaPeersHaveNoO2ibNid() {
        LnetPeers peers = LnetPeers.parse(Samples.body(PEERS_TCP)).orElseThrow();

        assertThat(peers.peers()).hasSize(7);
        assertThat(peers.peers()).allSatisfy(p -> assertThat(p.nis()).noneMatch(n -> n.nid().rdma()));
        assertThat(peers.peers().get(2).primaryNid().network()).isEqualTo("tcp1");
    }

    @Test
    void garbageAndOtherDocumentsAreNotRead() {
        assertThat(LnetNets.parse("lnetctl: command not found\n")).isEmpty();
        assertThat(LnetNets.parse(Samples.body(PEERS_TCP))).isEmpty();
        assertThat(LnetPeers.parse("net:\n    - net type: lo\n")).isEmpty();
        assertThat(LnetNets.parse("net:\n    - net type: o2ib\n      local NI(s):\n        - nid: 10.0.0.1@o2ib\n")).isEmpty();
        assertThat(LnetPeers.parse("")).hasValueSatisfying(p -> assertThat(p.peers()).isEmpty());
    }

    @Test
    void nidsAndMountDevices() {
        assertThat(LnetNid.parse("10.0.0.1@o2ib0").orElseThrow().network()).isEqualTo("o2ib");
        assertThat(LnetNid.parse("mds01@tcp0").orElseThrow()).satisfies(n -> assertThat(n.rdma()).isFalse());
        assertThat(LnetNid.parse("10.0.0.1@o2ib12").orElseThrow().rdma()).isTrue();
        assertThat(LnetNid.parse("no-network")).isEmpty();
        String device = part(MULTIRAIL, "/proc/1/mounts").split(" ")[0];
        assertThat(LnetNid.ofMountDevice(device)).extracting(LnetNid::toString)
                .containsExactly("192.168.1.61@o2ib", "192.168.1.62@o2ib1");
        assertThat(LnetNid.fsname(device)).contains("ai200");
        assertThat(LnetNid.ofMountDevice("10.0.0.1@tcp:10.0.0.2@tcp:/fs")).hasSize(2);
        assertThat(LnetNid.ofMountDevice("/dev/sdb")).isEmpty();
    }
}
