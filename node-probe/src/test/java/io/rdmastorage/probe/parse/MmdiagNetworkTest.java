package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MmdiagNetworkTest {

    @Test
    void recordedMrotTableHasTwoRowsPerPeer() {
        MmdiagNetwork network = MmdiagNetwork.parse(Samples.body("gpfs/mmdiag-network_mrot-tcp_storage-node.txt"));

        assertThat(network.recognized()).isTrue();
        assertThat(network.connections()).hasSize(14);
        assertThat(network.connections().get(0))
                .isEqualTo(new MmdiagNetwork.TcpConnection("scale-cluster-storage-3", "<c0n1>", "10.241.1.25", "connected", 126,
                        OptionalLong.of(0), OptionalLong.of(0)));
        assertThat(network.connectedPeers()).extracting(MmdiagNetwork.TcpConnection::hostname).containsExactly(
                "scale-cluster-storage-3", "scale-cluster-storage-2", "scale-cluster-storage-4",
                "scale-cluster-compute-1-sec", "scale-cluster-compute-4-sec", "scale-cluster-compute-3-sec",
                "scale-cluster-compute-2-sec");
    }

    @Test
    void olderLayoutWithDeviceGroupsAndNoIdxColumn() {
        // constructed after the 4.x layout: rows grouped under "Device <if>:", no idx column
        String text = "=== mmdiag: network ===\n\nPending messages:\n  (none)\n"
                + "TCP Connections between nodes:\n"
                + "  Device ib0:\n"
                + "    hostname                            node     destination     status     err  sock  sent(MB)  recvd(MB)  ostype\n"
                + "    nsd-01                              <c0n0>   10.10.0.1       connected  0    32    5         7          Linux/L\n"
                + "    nsd-02                              <c0n1>   10.10.0.2       disconnected 0  -1    0         0          Linux/L\n"
                + "  Device eth0:\n"
                + "    hostname                            node     destination     status     err  sock  sent(MB)  recvd(MB)  ostype\n"
                + "    gpu-02-ib                           <c1n4>   192.168.1.12    connected  0    33    0         0          Linux/L\n"
                + "diag verbs: VERBS RDMA class not initialized\n";

        MmdiagNetwork network = MmdiagNetwork.parse(text.replace("\n", "\r\n"));

        assertThat(network.connections()).extracting(MmdiagNetwork.TcpConnection::status)
                .containsExactly("connected", "disconnected", "connected");
        // the MB each connection carried: what RdmaTraffic takes deltas of
        assertThat(network.connections()).extracting(MmdiagNetwork.TcpConnection::sentMegabytes)
                .containsExactly(OptionalLong.of(5), OptionalLong.of(0), OptionalLong.of(0));
        assertThat(network.connections().get(0).receivedMegabytes()).hasValue(7);
        assertThat(network.connections().get(0).socket()).isEqualTo(32);
        assertThat(network.connections().get(1).socket()).isEqualTo(-1);
        assertThat(network.connectedPeers()).extracting(MmdiagNetwork.TcpConnection::destination)
                .containsExactly("10.10.0.1", "192.168.1.12");
    }

    @Test
    void noConnectionsYet() {
        MmdiagNetwork network = MmdiagNetwork.parse("=== mmdiag: network ===\n\nTCP Connections between nodes:\n");

        assertThat(network.recognized()).isTrue();
        assertThat(network.connectedPeers()).isEmpty();
    }

    @Test
    void garbageIsNotRecognized() {
        assertThat(MmdiagNetwork.parse("Segmentation fault\n   hostname x\n").recognized()).isFalse();
        assertThat(MmdiagNetwork.parse("").recognized()).isFalse();
    }
}
