package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.counters.CounterKey;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.counters.CounterReading;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.TransportTraffic;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which transport a path run's reads moved on, from counter windows built here: soft-RoCE's packet
 * counters (no byte counters), an NFS socket (port 2049) and a GPFS connection as StorageCounters keys them.
 */
class PathTransportProofTest {

    private static final String NFS_SOCKET = "192.0.2.2:871 -> 192.0.2.1:2049";
    private static final long READ = 64L * 1024 * 1024;
    private static final long IOS = 16384;

    /** rxe0/1 moved {@code packets}; the NFS socket {@code nfsBytes} (null: ss not readable); GPFS {@code gpfsMiB}. */
    private static TransportTraffic traffic(long packets, Long nfsBytes, long gpfsMiB) {
        CounterKey gpfs = new CounterKey(Source.GPFS_PEER, "nsd01 10.0.0.1 sock 12", "recvd(MB)");
        return TransportProofTest.window(packets, NFS_SOCKET, nfsBytes, (before, after) -> {
            before.put(gpfs, new CounterReading(100, 0, 1024 * 1024));
            after.put(gpfs, new CounterReading(100 + gpfsMiB, 0, 1024 * 1024));
        });
    }

    @Test
    void readsOnTheRdmaPortsAloneAreRdma() {
        PathTransportProof p = PathTransportProof.of(traffic(4 * IOS, 0L, 0), READ, IOS);

        assertThat(p.transport()).isEqualTo("rdma");
        assertThat(p.problem()).isEmpty();
        assertThat(p.summary()).contains("RDMA ports rxe0/1 65536 packets", "storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) 0 bytes");
    }

    @Test
    void readsOnAStorageSocketOrAGpfsConnectionAloneAreTcp() {
        PathTransportProof nfs = PathTransportProof.of(traffic(0, READ + 4096, 0), READ, IOS);
        PathTransportProof gpfs = PathTransportProof.of(traffic(0, 0L, 64), READ, IOS);

        assertThat(nfs.transport()).isEqualTo("tcp");
        assertThat(nfs.summary()).contains("storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) 67112960 bytes (NFS 67112960)");
        assertThat(gpfs.transport()).isEqualTo("tcp");
        assertThat(gpfs.problem()).isEmpty();
    }

    @Test
    void readsOnALustreOrBeegfsSocketAreTcpAndTheRecordNamesTheFileSystem() {
        PathTransportProof lustre = PathTransportProof.of(TransportProofTest.window(0, "10.20.0.5:1023 -> 10.20.0.10:988",
                READ, (before, after) -> { }), READ, IOS);
        PathTransportProof beegfs = PathTransportProof.of(TransportProofTest.window(0, "10.10.0.5:45012 -> 10.10.0.21:8003",
                READ, (before, after) -> { }), READ, IOS);

        assertThat(lustre.transport()).isEqualTo("tcp");
        assertThat(lustre.summary()).contains("67108864 bytes (Lustre 67108864)");
        assertThat(beegfs.transport()).isEqualTo("tcp");
        assertThat(beegfs.summary()).contains("(BeeGFS 67108864)");
    }

    @Test
    void bothMovingIsNeitherTransportsRun() {
        PathTransportProof p = PathTransportProof.of(traffic(4 * IOS, READ, 0), READ, IOS);

        assertThat(p.transport()).isEqualTo(PathTransportProof.UNPROVEN);
        assertThat(p.problem()).contains("both moved data", "otherwise idle");
    }

    @Test
    void neitherMovingIsALocalFileSystemOrACache() {
        PathTransportProof p = PathTransportProof.of(traffic(10, 4096L, 0), READ, IOS);

        assertThat(p.transport()).isEqualTo(PathTransportProof.UNPROVEN);
        assertThat(p.problem()).contains("neither the RDMA ports nor the storage TCP sockets", "local file system");
    }

    @Test
    void unreadSocketsProveNothingEvenWhenRdmaMoved() {
        PathTransportProof p = PathTransportProof.of(traffic(4 * IOS, null, 0), READ, IOS);

        assertThat(p.transport()).isEqualTo(PathTransportProof.UNPROVEN);
        assertThat(p.problem()).startsWith("which transport carried the reads is not proven")
                .contains("nsenter not found under the host root");
    }

    @Test
    void aNodeWithoutRdmaPortsProvesNothingEither() {
        CounterSnapshot empty = new CounterSnapshot.Builder(0, Instant.EPOCH).build();
        TransportTraffic none = TransportTraffic.of(new CounterWindow(empty, empty), List.of());

        PathTransportProof p = PathTransportProof.of(none, READ, IOS);

        assertThat(p.transport()).isEqualTo(PathTransportProof.UNPROVEN);
        assertThat(p.problem()).contains("no RDMA port to read");
    }
}
