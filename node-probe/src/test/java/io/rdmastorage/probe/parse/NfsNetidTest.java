package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every netid of each family NFS runs on (RFC 5665), as /proc/mounts writes them in proto=. */
class NfsNetidTest {

    @Test
    void eachTransportInBothFamilies() {
        for (String transport : new String[] {"rdma", "tcp", "udp"}) {
            NfsNetid v4 = NfsNetid.parse(transport).orElseThrow();
            NfsNetid v6 = NfsNetid.parse(transport + "6").orElseThrow();
            assertThat(v4.transport()).isEqualTo(transport);
            assertThat(v6.transport()).isEqualTo(transport);
            assertThat(v4.ipv6()).isFalse();
            assertThat(v6.ipv6()).isTrue();
            assertThat(v4.rdma()).isEqualTo(v6.rdma()).isEqualTo(transport.equals("rdma"));
            assertThat(v6.name()).isEqualTo(transport + "6");
        }
    }

    @Test
    void theRdmaNetidKeepsTheFamily() {
        assertThat(NfsNetid.parse("tcp").orElseThrow().rdmaNetid()).isEqualTo("rdma");
        assertThat(NfsNetid.parse("tcp6").orElseThrow().rdmaNetid()).isEqualTo("rdma6");
        assertThat(NfsNetid.parse("udp6").orElseThrow().rdmaNetid()).isEqualTo("rdma6");
    }

    @Test
    void otherNamesAreNoNetid() {
        assertThat(NfsNetid.parse("local")).isEmpty();
        assertThat(NfsNetid.parse("6")).isEmpty();
        assertThat(NfsNetid.parse("")).isEmpty();
    }
}
