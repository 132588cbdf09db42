package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.GpfsFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No public sample of mmfsadm test verbs conn exists: every input here is constructed. */
class VerbsConnectionsTest {

    @Test
    void peersAreMatchedAsWholeTokens() {
        VerbsConnections conns = VerbsConnections.parse(GpfsFixtures.verbsConn(false));

        assertThat(conns.mentionsAny(List.of("nsd-01"))).isTrue();
        assertThat(conns.mentionsAny(List.of("10.10.0.2"))).isTrue();
        assertThat(conns.mentionsAny(List.of("10.10.0.12", "gpu-02-ib"))).isFalse();   // 10.10.0.1 is no prefix match
        assertThat(conns.mentionsAny(List.of("nsd"))).isFalse();
        assertThat(conns.mentionsAny(List.of("mlx5_0/1"))).isFalse();
    }

    @Test
    void separatorsPortsDomainsAndCase() {
        VerbsConnections conns = VerbsConnections.parse(
                "conn 0: nsd-01.cluster.example(10.10.0.1:1191) <GPU-02-IB> dest=[fe80::1]\tpeer 10.10.0.9.\r\n");

        assertThat(conns.mentionsAny(List.of("10.10.0.1"))).isTrue();
        assertThat(conns.mentionsAny(List.of("nsd-01"))).isTrue();
        assertThat(conns.mentionsAny(List.of("NSD-01.cluster.example"))).isTrue();
        assertThat(conns.mentionsAny(List.of("gpu-02-ib.other.example"))).isTrue();
        assertThat(conns.mentionsAny(List.of("fe80::1"))).isTrue();
        assertThat(conns.mentionsAny(List.of("10.10.0.9"))).isTrue();
        assertThat(conns.mentionsAny(List.of("10.10"))).isFalse();
    }

    @Test
    void emptyOutputMentionsNobody() {
        assertThat(VerbsConnections.parse("").isEmpty()).isTrue();
        assertThat(VerbsConnections.parse("\n  \n").mentionsAny(List.of("nsd-01"))).isFalse();
    }

    @Test
    void tenThousandPeers() {
        StringBuilder s = new StringBuilder("RDMA Connections between nodes:\n");
        for (int i = 0; i < 10_000; i++) {
            s.append("  10.").append(i / 256 / 256 % 256).append('.').append(i / 256 % 256).append('.').append(i % 256)
                    .append(" (node-").append(i).append(")  0  mlx5_0  1  0x").append(Integer.toHexString(i)).append("  RTS\n");
        }

        VerbsConnections conns = VerbsConnections.parse(s.toString());

        assertThat(conns.mentionsAny(List.of("node-9999"))).isTrue();
        assertThat(conns.mentionsAny(List.of("10.0.39.15"))).isTrue();
        assertThat(conns.mentionsAny(List.of("node-10000"))).isFalse();
    }

    @Test
    void sameHost() {
        assertThat(VerbsConnections.sameHost("nsd-01", "NSD-01.example")).isTrue();
        assertThat(VerbsConnections.sameHost("10.10.0.1", "10.10.0.12")).isFalse();
        assertThat(VerbsConnections.sameHost("", "")).isFalse();
    }
}
