package io.rdmastorage.probe.counters;

import io.rdmastorage.probe.counters.CounterKey.Source;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What each transport carried over one window, from its counters; pure. RDMA per port: packets
 * (IB {@code counters/port_{xmit,rcv}_packets}, else soft-RoCE's {@code hw_counters/{sent,rcvd}_pkts})
 * and, where the port counts them, bytes ({@code port_{xmit,rcv}_data}, 4-octet units); TCP per
 * storage peer ({@code address:port}) the bytes its sockets sent and received; GPFS per node.
 *
 * @param rdmaPorts port ({@code rxe0/1}) → what it carried
 * @param tcpPeers  peer ({@code 192.0.2.1:4420}) → its sockets' bytes with a delta (a socket without one is left out)
 * @param gpfsPeers GPFS node → its connections' bytes (mmdiag's MB)
 */
public record TransportTraffic(CounterWindow window, Map<String, PortTraffic> rdmaPorts, Map<String, PeerTraffic> tcpPeers,
                               Map<String, PeerTraffic> gpfsPeers) {

    public TransportTraffic {
        rdmaPorts = Collections.unmodifiableMap(new LinkedHashMap<>(rdmaPorts));
        tcpPeers = Collections.unmodifiableMap(new LinkedHashMap<>(tcpPeers));
        gpfsPeers = Collections.unmodifiableMap(new LinkedHashMap<>(gpfsPeers));
    }

    /**
     * One RDMA port over the window: packets and bytes, each empty without a delta, with the
     * reason ({@code problem}: "port_xmit_data at its maximum 4294967295 ..."); soft-RoCE has no
     * byte counters ({@code bytes} empty, no problem).
     */
    public record PortTraffic(OptionalLong packets, OptionalLong bytes, String problem) {
    }

    /** Bytes one peer's connections sent and received over the window. */
    public record PeerTraffic(long sent, long received) {
        public long total() {
            return sent + received;
        }
    }

    /** The traffic of {@code ports} ({@code dev/port}) and of every storage peer the window saw. */
    public static TransportTraffic of(CounterWindow window, List<String> ports) {
        Map<String, PortTraffic> rdma = new LinkedHashMap<>();
        for (String port : ports) {
            rdma.put(port, port(window, port));
        }
        Map<String, PeerTraffic> tcp = new LinkedHashMap<>();
        window.deltas(Source.TCP_SOCKET).forEach((key, d) -> d.amount().ifPresent(a ->
                tcp.merge(key.subject().substring(key.subject().indexOf(" -> ") + 4), peer(key.name().equals("bytes_sent"), a),
                        TransportTraffic::sum)));
        Map<String, PeerTraffic> gpfs = new LinkedHashMap<>();
        window.deltas(Source.GPFS_PEER).forEach((key, d) -> d.amount().ifPresent(a ->
                gpfs.merge(key.subject().split(" ")[0], peer(key.name().startsWith("sent"), a), TransportTraffic::sum)));
        return new TransportTraffic(window, rdma, tcp, gpfs);
    }

    /** Per second over this window. */
    public double perSecond(long amount) {
        return window.perSecond(amount);
    }

    private static PortTraffic port(CounterWindow window, String port) {
        String unreadable = window.unreadable().get(port);
        if (unreadable != null) {
            return new PortTraffic(OptionalLong.empty(), OptionalLong.empty(), unreadable);
        }
        CounterKey ibPackets = new CounterKey(Source.RDMA_PORT, port, "port_xmit_packets");
        boolean ib = window.before().get(ibPackets) != null || window.after().get(ibPackets) != null;
        Sum packets = ib ? sum(window, port, "port_xmit_packets", "port_rcv_packets")
                : sum(window, port, "hw_counters/sent_pkts", "hw_counters/rcvd_pkts");
        Sum bytes = ib ? sum(window, port, "port_xmit_data", "port_rcv_data") : new Sum(OptionalLong.empty(), "");
        return new PortTraffic(packets.amount(), bytes.amount(), packets.problem().isEmpty() ? bytes.problem() : packets.problem());
    }

    private record Sum(OptionalLong amount, String problem) {
    }

    private static Sum sum(CounterWindow window, String port, String... names) {
        long total = 0;
        for (String name : names) {
            CounterDelta d = window.delta(new CounterKey(Source.RDMA_PORT, port, name));
            if (!d.known()) {
                return new Sum(OptionalLong.empty(), name + " " + d.problem());
            }
            total += d.amount().getAsLong();
        }
        return new Sum(OptionalLong.of(total), "");
    }

    private static PeerTraffic peer(boolean sent, long amount) {
        return sent ? new PeerTraffic(amount, 0) : new PeerTraffic(0, amount);
    }

    private static PeerTraffic sum(PeerTraffic a, PeerTraffic b) {
        return new PeerTraffic(a.sent() + b.sent(), a.received() + b.received());
    }
}
