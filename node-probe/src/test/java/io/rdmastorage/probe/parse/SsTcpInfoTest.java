package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.CounterSamples;
import io.rdmastorage.probe.testing.Samples;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SsTcpInfoTest {

    static final String FALLBACK = "counters/ss-tin_nvme-tcp-sockets_proc-net-tcp-fallback-no-tcp_diag_vm-6.1.txt";

    @Test
    void withoutTcpDiagTheKernelSocketsAreListedButTheirBytesAreUnknownNotZero() {
        SsTcpInfo table = SsTcpInfo.parse(Samples.body(FALLBACK));

        assertThat(table.recognized()).isTrue();
        assertThat(table.sockets()).hasSize(3).allSatisfy(s -> {
            assertThat(s.peerPort()).isEqualTo(4420);
            assertThat(s.peerAddress()).isEqualTo("192.0.2.1");
            assertThat(s.sent()).isEmpty();
            assertThat(s.received()).isEmpty();
        });
        assertThat(table.sockets().get(0).local()).isEqualTo("192.0.2.1:58954");
    }

    @Test
    void theRecordedNvmeTcpQueueSocketsCarryTheReadInBytesReceived() {
        SsTcpInfo before = SsTcpInfo.parse(CounterSamples.ssRead(false));
        SsTcpInfo after = SsTcpInfo.parse(CounterSamples.ssRead(true));

        assertThat(before.sockets()).extracting(SsTcpInfo.Socket::local)
                .containsExactly("192.0.2.1:47358", "192.0.2.1:47380", "192.0.2.1:47370");
        assertThat(before.sockets().get(0).sent()).hasValue(2664);
        assertThat(before.sockets().get(0).received()).hasValue(46448);
        long read = 0;
        for (int i = 0; i < 3; i++) {
            read += after.sockets().get(i).received().getAsLong() - before.sockets().get(i).received().getAsLong();
        }
        assertThat(read).isEqualTo(2 * 33_555_968L);   // the 64 MiB read (67,108,864) and 3 KiB of NVMe/TCP PDU headers
    }

    @Test
    void infoOnTheNextIndentedLineWithAnOlderKernelsCounters() {
        // constructed after the iproute2 4.x layout: TCP_INFO without bytes_sent (kernels before 4.19)
        String text = "State      Recv-Q Send-Q Local Address:Port   Peer Address:Port\n"
                + "ESTAB      0      0      10.0.0.5:51000        10.0.0.9:2049\n"
                + "\t cubic wscale:7,7 rto:204 rtt:0.25/0.12 ato:40 mss:8948 cwnd:10 bytes_acked:5333 "
                + "bytes_received:734003200 segs_out:20 segs_in:27\n"
                + "ESTAB      0      0      [fd00::5]:51002        [fd00::9%eth1]:4420\n"
                + "\t cubic rto:204 rtt:0.1/0.05 mss:8948 cwnd:10 bytes_sent:4096 bytes_acked:4097\n";

        SsTcpInfo table = SsTcpInfo.parse(text);

        assertThat(table.sockets()).hasSize(2);
        SsTcpInfo.Socket nfs = table.sockets().get(0);
        assertThat(nfs.peerPort()).isEqualTo(2049);
        assertThat(nfs.sent()).hasValue(5333);   // no bytes_sent on kernels before 4.19: bytes_acked
        assertThat(nfs.received()).hasValue(734003200);
        SsTcpInfo.Socket v6 = table.sockets().get(1);
        assertThat(v6.peerAddress()).isEqualTo("fd00::9");
        assertThat(v6.localPort()).isEqualTo(51002);
        assertThat(v6.sent()).hasValue(4096);
        assertThat(v6.received()).isEqualTo(OptionalLong.of(0));   // TCP_INFO there, count left out: zero
    }

    @Test
    void anEmptyTableIsAnAnswerGarbageIsNot() {
        assertThat(SsTcpInfo.parse("State Recv-Q Send-Q Local Address:Port Peer Address:PortProcess\n").recognized()).isTrue();
        SsTcpInfo garbage = SsTcpInfo.parse("nsenter: cannot open /proc/1/ns/net: Permission denied\n");
        assertThat(garbage.recognized()).isFalse();
        assertThat(garbage.sockets()).isEmpty();
    }
}
