package io.rdmastorage.probe.counters;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.parse.SsTcpInfo;
import io.rdmastorage.probe.testing.CounterSamples;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransportTrafficTest {

    /** A snapshot as StorageCounters takes it: the recorded ss table's sockets, and rxe0's hw_counters. */
    static CounterSnapshot snapshot(long nanos, boolean after) {
        CounterSnapshot.Builder s = new CounterSnapshot.Builder(nanos, Instant.EPOCH);
        for (SsTcpInfo.Socket socket : SsTcpInfo.parse(CounterSamples.ssRead(after)).sockets()) {
            String subject = socket.local() + " -> " + socket.peer();
            s.put(new CounterKey(Source.TCP_SOCKET, subject, "bytes_sent"), CounterReading.of(socket.sent().getAsLong()));
            s.put(new CounterKey(Source.TCP_SOCKET, subject, "bytes_received"), CounterReading.of(socket.received().getAsLong()));
        }
        CounterSamples.rxe0(after).forEach((name, v) ->
                s.put(new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/" + name), CounterReading.of(v)));
        return s.build();
    }

    @Test
    void theRecordedReadOverNvmeTcpIsOnePeersBytesAndRxeCountsPacketsOnly() {
        TransportTraffic traffic = TransportTraffic.of(new CounterWindow(snapshot(0, false), snapshot(2_000_000_000L, true)),
                List.of("rxe0/1", "rxe1/1"));

        assertThat(traffic.tcpPeers()).containsOnlyKeys("192.0.2.1:4420");
        assertThat(traffic.tcpPeers().get("192.0.2.1:4420").received()).isEqualTo(67_111_936L);
        assertThat(traffic.tcpPeers().get("192.0.2.1:4420").sent()).isEqualTo(3528 - 1224 + 3744 - 1440);
        assertThat(traffic.perSecond(traffic.tcpPeers().get("192.0.2.1:4420").total())).isGreaterThan(33e6);
        TransportTraffic.PortTraffic rxe0 = traffic.rdmaPorts().get("rxe0/1");
        assertThat(rxe0.packets()).hasValue(67015 - 195 + 67011 - 191);
        assertThat(rxe0.bytes()).isEmpty();
        assertThat(rxe0.problem()).isEmpty();
        // a port the snapshots never read has no delta, and says why
        assertThat(traffic.rdmaPorts().get("rxe1/1").packets()).isEmpty();
        assertThat(traffic.rdmaPorts().get("rxe1/1").problem()).isEqualTo("hw_counters/sent_pkts not read");
    }
}
