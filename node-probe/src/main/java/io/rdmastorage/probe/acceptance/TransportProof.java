package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import io.rdmastorage.probe.spec.IpAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Whether one transport's workloads really went over that transport, from the node's storage
 * counters read just before its first and just after its last workload ({@link TransportTraffic}):
 * an rdma run whose reads moved NVMe/TCP bytes to the target, or whose RDMA ports stayed quiet, and
 * a tcp run whose reads moved RDMA traffic, or no NVMe/TCP bytes, measured something else. Pure.
 * A counter that could not be read proves nothing either way: the summary says so, and only what
 * was read can invalidate the run.
 *
 * @param summary what the counters showed, for the record
 * @param problem empty, or why the run's numbers are not this transport's
 */
public record TransportProof(String summary, String problem) {

    /** Another transport's share of the run that makes it invalid: more than 1 % of what fio read. */
    static final double FOREIGN_SHARE = 0.01;
    /** The run's own transport must carry at least half of what fio read (IOs for packet counters). */
    static final double OWN_SHARE = 0.5;

    /**
     * @param fioBytes what fio read during the transport's workloads
     * @param fioIos   how many reads that was
     */
    public static TransportProof of(String transport, TransportTraffic traffic, ProbeSpec.Target target, long fioBytes,
                                    long fioIos) {
        Rdma rdma = rdma(traffic);
        String peer = IpAddress.withPort(target.address(), target.port());
        String socketsUnreadable = traffic.window().unreadable().get(StorageCounters.SOCKETS);
        long tcpBytes = 0;
        for (Map.Entry<String, TransportTraffic.PeerTraffic> e : traffic.tcpPeers().entrySet()) {
            if (reaches(e.getKey(), target)) {
                tcpBytes += e.getValue().total();
            }
        }
        String tcpSeen = socketsUnreadable != null ? "NVMe/TCP sockets not read (" + socketsUnreadable + ")"
                : "NVMe/TCP to " + peer + " " + tcpBytes + " bytes";
        String summary = rdma.summary + "; " + tcpSeen + "; fio read " + fioBytes + " bytes in " + fioIos + " reads";
        boolean tcpKnown = socketsUnreadable == null;
        if (transport.equals("rdma")) {
            if (tcpKnown && tcpBytes > FOREIGN_SHARE * fioBytes) {
                return new TransportProof(summary, "the rdma run moved " + tcpBytes + " bytes over NVMe/TCP to " + peer
                        + " (fio read " + fioBytes + "): part of its I/O went over tcp, so its numbers are not rdma's");
            }
            if (rdma.packets.isPresent() && rdma.packets.getAsLong() < OWN_SHARE * fioIos) {
                return new TransportProof(summary, "the RDMA ports moved " + rdma.packets.getAsLong() + " packets for "
                        + fioIos + " reads over rdma: the I/O did not go over RDMA");
            }
        } else {
            boolean rdmaMoved = rdma.bytes.isPresent() ? rdma.bytes.getAsLong() > FOREIGN_SHARE * fioBytes
                    : rdma.packets.isPresent() && rdma.packets.getAsLong() > FOREIGN_SHARE * fioIos;
            if (rdmaMoved) {
                return new TransportProof(summary, "the tcp run moved RDMA traffic (" + rdma.summary + ", fio read "
                        + fioBytes + " bytes in " + fioIos + " reads): part of its I/O went over rdma, so its numbers are not tcp's");
            }
            if (tcpKnown && tcpBytes < OWN_SHARE * fioBytes) {
                return new TransportProof(summary, "NVMe/TCP to " + peer + " moved " + tcpBytes + " bytes while fio read "
                        + fioBytes + " over tcp: the I/O did not go over these sockets");
            }
        }
        return new TransportProof(summary, "");
    }

    /**
     * The verbs target's proof, from the measured RDMA port alone: its TCP runs open connections
     * that close with them, so no socket is left to read afterwards. A tcp run that moved RDMA
     * traffic (a TCP-to-RDMA interposer such as SMC-R or rsocket preloads) is not tcp's, and an rdma
     * run whose port did not carry its messages went over another device. Where the port's counters
     * cannot be read, the run cannot be shown to be its transport's, and that is the problem.
     *
     * @param bytes    what the tool moved (both ways for a ping-pong)
     * @param messages how many messages that was
     */
    public static TransportProof ofPort(String transport, TransportTraffic traffic, long bytes, long messages) {
        Rdma rdma = rdma(traffic);
        String summary = rdma.summary + "; the run moved " + bytes + " bytes in " + messages + " messages";
        if (rdma.packets.isEmpty()) {
            return new TransportProof(summary, "the RDMA port's counters could not be read (" + rdma.summary
                    + "), so nothing shows that the " + transport + " run went over " + transport + " alone");
        }
        long packets = rdma.packets.getAsLong();
        if (transport.equals("rdma")) {
            if (packets < OWN_SHARE * messages) {
                return new TransportProof(summary, "the RDMA port moved " + packets + " packets for " + messages
                        + " messages over rdma: the traffic did not go over this port");
            }
        } else {
            boolean rdmaMoved = rdma.bytes.isPresent() ? rdma.bytes.getAsLong() > FOREIGN_SHARE * bytes
                    : packets > FOREIGN_SHARE * messages;
            if (rdmaMoved) {
                return new TransportProof(summary, "the tcp run moved RDMA traffic (" + rdma.summary + " for " + bytes
                        + " bytes over TCP): something carries this node's TCP over RDMA (SMC-R, an rsocket preload), "
                        + "so its numbers are not tcp's");
            }
        }
        return new TransportProof(summary, "");
    }

    /** What the RDMA ports carried: packets and bytes, each empty when not every port gave a delta. */
    record Rdma(OptionalLong packets, OptionalLong bytes, String summary) {
    }

    /** Every RDMA port's packets (and bytes where the port counts them), summed; empty if any port had no delta. */
    static Rdma rdma(TransportTraffic traffic) {
        long packets = 0;
        long bytes = 0;
        boolean allBytes = !traffic.rdmaPorts().isEmpty();
        List<String> unread = new ArrayList<>();
        for (Map.Entry<String, TransportTraffic.PortTraffic> e : traffic.rdmaPorts().entrySet()) {
            TransportTraffic.PortTraffic p = e.getValue();
            if (p.packets().isEmpty()) {
                unread.add(e.getKey() + (p.problem().isEmpty() ? "" : " (" + p.problem() + ")"));
                continue;
            }
            packets += p.packets().getAsLong();
            if (p.bytes().isPresent()) {
                bytes += p.bytes().getAsLong();
            } else {
                allBytes = false;
            }
        }
        if (traffic.rdmaPorts().isEmpty()) {
            return new Rdma(OptionalLong.empty(), OptionalLong.empty(), "no RDMA port to read");
        }
        if (!unread.isEmpty()) {
            return new Rdma(OptionalLong.empty(), OptionalLong.empty(), "RDMA ports not read: " + String.join(", ", unread));
        }
        return new Rdma(OptionalLong.of(packets), allBytes ? OptionalLong.of(bytes) : OptionalLong.empty(),
                "RDMA ports " + String.join(", ", traffic.rdmaPorts().keySet()) + " " + packets + " packets"
                        + (allBytes ? ", " + bytes + " bytes" : ""));
    }

    /** A peer as TransportTraffic names it ({@code 192.0.2.1:4420}, {@code [fd00::1]:4420}) is the target. */
    private static boolean reaches(String peer, ProbeSpec.Target target) {
        int colon = peer.lastIndexOf(':');
        if (colon < 0 || !peer.substring(colon + 1).equals(Integer.toString(target.port()))) {
            return false;
        }
        String address = peer.substring(0, colon).replaceAll("^\\[|\\]$", "");
        return IpAddress.same(address, target.address());
    }
}
