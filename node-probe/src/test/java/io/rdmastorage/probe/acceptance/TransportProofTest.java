package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.CounterKey;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.counters.CounterReading;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Which transport a run's bytes moved on, from counter windows built here (the soft-RoCE counter
 * names and the NVMe/TCP socket keys that StorageCounters reads on the VM node).
 */
class TransportProofTest {

    private static final ProbeSpec.Target TARGET = new ProbeSpec.Target("nqn.2014-08.org.example:vm-target", "192.0.2.1", 4420);
    private static final String SOCKET = "192.0.2.2:48712 -> 192.0.2.1:4420";
    private static final long READ = 64L * 1024 * 1024;
    private static final long IOS = 16384;

    /** rxe0/1 moved {@code packets}; the NVMe/TCP socket {@code tcpBytes} (null: ss not readable). */
    private static TransportTraffic traffic(long packets, Long tcpBytes) {
        return window(packets, SOCKET, tcpBytes, (before, after) -> { });
    }

    /**
     * A 10 s window in which soft-RoCE's rxe0/1 moved {@code packets} (packet counters, no bytes) and
     * {@code socket} received {@code socketBytes} (null: ss not readable); {@code more} adds readings
     * of other sources to both snapshots. Also the path run's proof test's windows.
     */
    static TransportTraffic window(long packets, String socket, Long socketBytes,
                                   BiConsumer<CounterSnapshot.Builder, CounterSnapshot.Builder> more) {
        CounterSnapshot.Builder before = new CounterSnapshot.Builder(0, Instant.EPOCH);
        CounterSnapshot.Builder after = new CounterSnapshot.Builder(10_000_000_000L, Instant.EPOCH.plusSeconds(10));
        before.put(new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/sent_pkts"), CounterReading.of(1000));
        before.put(new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/rcvd_pkts"), CounterReading.of(1000));
        after.put(new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/sent_pkts"), CounterReading.of(1000 + packets / 2));
        after.put(new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/rcvd_pkts"), CounterReading.of(1000 + packets - packets / 2));
        if (socketBytes == null) {
            before.unreadable(StorageCounters.SOCKETS, "nsenter not found under the host root");
        } else {
            before.put(new CounterKey(Source.TCP_SOCKET, socket, "bytes_received"), CounterReading.of(5000));
            after.put(new CounterKey(Source.TCP_SOCKET, socket, "bytes_received"), CounterReading.of(5000 + socketBytes));
        }
        more.accept(before, after);
        return TransportTraffic.of(new CounterWindow(before.build(), after.build()), List.of("rxe0/1"));
    }

    @Test
    void anRdmaRunOnTheRdmaPortsAndATcpRunOnItsSocketsAreTheirOwn() {
        TransportProof rdma = TransportProof.of("rdma", traffic(4 * IOS, 0L), TARGET, READ, IOS);
        TransportProof tcp = TransportProof.of("tcp", traffic(0, READ + 4096), TARGET, READ, IOS);

        assertThat(rdma.problem()).isEmpty();
        assertThat(rdma.summary()).contains("RDMA ports rxe0/1 65536 packets", "NVMe/TCP to 192.0.2.1:4420 0 bytes");
        assertThat(tcp.problem()).isEmpty();
        assertThat(tcp.summary()).contains("rxe0/1 0 packets", "NVMe/TCP to 192.0.2.1:4420 67112960 bytes");
    }

    @Test
    void aTcpRunThatMovedRdmaTrafficIsInvalid() {
        TransportProof p = TransportProof.of("tcp", traffic(4 * IOS, READ), TARGET, READ, IOS);

        assertThat(p.problem()).startsWith("the tcp run moved RDMA traffic").contains("not tcp's");
    }

    @Test
    void anRdmaRunThatMovedTcpBytesIsInvalid() {
        TransportProof p = TransportProof.of("rdma", traffic(4 * IOS, READ / 2), TARGET, READ, IOS);

        assertThat(p.problem()).startsWith("the rdma run moved 33554432 bytes over NVMe/TCP to 192.0.2.1:4420");
    }

    @Test
    void quietOwnCountersAreNoMeasurementOfThatTransport() {
        assertThat(TransportProof.of("rdma", traffic(10, 0L), TARGET, READ, IOS).problem())
                .contains("moved 10 packets for 16384 reads", "did not go over RDMA");
        assertThat(TransportProof.of("tcp", traffic(0, 4096L), TARGET, READ, IOS).problem())
                .contains("moved 4096 bytes while fio read 67108864");
    }

    @Test
    void countersThatWereNotReadProveNothing() {
        TransportProof p = TransportProof.of("tcp", traffic(0, null), TARGET, READ, IOS);

        assertThat(p.problem()).isEmpty();
        assertThat(p.summary()).contains("NVMe/TCP sockets not read (nsenter not found under the host root)");
    }
}
