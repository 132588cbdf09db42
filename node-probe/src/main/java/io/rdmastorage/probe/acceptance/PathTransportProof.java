package io.rdmastorage.probe.acceptance;

import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import java.util.Map;

/**
 * Which transport carried a {@code path} run's reads, from the node's storage counters read just
 * before its first and just after its last workload: a file system does not say which transport it
 * uses, so the counters name it. RDMA: the RDMA ports carried at least half of what fio read (bytes,
 * or packets per read where a port counts no bytes) while the storage TCP sockets (NVMe/TCP, NFS,
 * Lustre's LNet, BeeGFS's servers, GPFS's per-connection MB) carried at most 1 %; TCP: the other way round. Anything else proves
 * neither (both moved: other traffic on the node; neither moved: a local file system or a cache),
 * and a side whose counters could not be read proves nothing. Pure.
 *
 * @param transport rdma, tcp, or {@value #UNPROVEN}
 * @param summary   what the counters showed, for the record
 * @param problem   empty when the transport is proven; else why not
 */
public record PathTransportProof(String transport, String summary, String problem) {

    public static final String UNPROVEN = "unknown";

    public static PathTransportProof of(TransportTraffic traffic, long fioBytes, long fioIos) {
        TransportProof.Rdma rdma = TransportProof.rdma(traffic);
        String socketsUnreadable = traffic.window().unreadable().get(StorageCounters.SOCKETS);
        long tcpBytes = total(traffic.tcpPeers()) + total(traffic.gpfsPeers());
        String tcpSeen = socketsUnreadable != null ? "storage TCP sockets not read (" + socketsUnreadable + ")"
                : "storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) " + tcpBytes + " bytes" + byProtocol(traffic);
        String summary = rdma.summary() + "; " + tcpSeen + "; fio read " + fioBytes + " bytes in " + fioIos + " reads";
        if (rdma.packets().isEmpty() || socketsUnreadable != null) {
            return new PathTransportProof(UNPROVEN, summary, "which transport carried the reads is not proven: "
                    + (rdma.packets().isEmpty() ? rdma.summary() : tcpSeen)
                    + "; the numbers are not attributed to rdma or tcp");
        }
        boolean rdmaCarried = rdma.bytes().isPresent() ? rdma.bytes().getAsLong() >= TransportProof.OWN_SHARE * fioBytes
                : rdma.packets().getAsLong() >= TransportProof.OWN_SHARE * fioIos;
        boolean rdmaQuiet = rdma.bytes().isPresent() ? rdma.bytes().getAsLong() <= TransportProof.FOREIGN_SHARE * fioBytes
                : rdma.packets().getAsLong() <= TransportProof.FOREIGN_SHARE * fioIos;
        boolean tcpCarried = tcpBytes >= TransportProof.OWN_SHARE * fioBytes;
        boolean tcpQuiet = tcpBytes <= TransportProof.FOREIGN_SHARE * fioBytes;
        if (rdmaCarried && tcpQuiet) {
            return new PathTransportProof("rdma", summary, "");
        }
        if (tcpCarried && rdmaQuiet) {
            return new PathTransportProof("tcp", summary, "");
        }
        String why = rdmaQuiet && tcpQuiet
                ? "neither the RDMA ports nor the storage TCP sockets carried what fio read: the directory is on a local "
                        + "file system, or its reads were served from a cache"
                : "the RDMA ports and the storage TCP sockets both moved data during the reads (other I/O on the node, or "
                        + "the file system splits its traffic): name the storage rails in storageNics so that the compute rails' traffic is "
                        + "left out, or run again while the node is otherwise idle";
        return new PathTransportProof(UNPROVEN, summary, why);
    }

    private static long total(Map<String, TransportTraffic.PeerTraffic> peers) {
        return peers.values().stream().mapToLong(TransportTraffic.PeerTraffic::total).sum();
    }

    /** Which protocols' sockets moved bytes ({@code " (Lustre 67371008, BeeGFS 67174400)"}); empty when none did. */
    static String byProtocol(TransportTraffic traffic) {
        Map<Integer, String> protocols = StorageCounters.protocols(null);
        Map<String, Long> bytes = new java.util.LinkedHashMap<>();
        traffic.tcpPeers().forEach((peer, t) -> {
            String name = protocols.getOrDefault(Integer.parseInt(peer.substring(peer.lastIndexOf(':') + 1)), "NVMe/TCP");
            bytes.merge(name, t.total(), Long::sum);
        });
        long gpfs = total(traffic.gpfsPeers());
        if (gpfs > 0) {
            bytes.merge("GPFS", gpfs, Long::sum);
        }
        bytes.values().removeIf(b -> b == 0);
        return bytes.isEmpty() ? "" : " (" + String.join(", ", bytes.entrySet().stream().map(e -> e.getKey() + " "
                + e.getValue()).toList()) + ")";
    }
}
