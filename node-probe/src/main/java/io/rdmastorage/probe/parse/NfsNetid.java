package io.rdmastorage.probe.parse;

import java.util.Locale;
import java.util.Optional;

/**
 * The netid an NFS mount names in its {@code proto=} option (RFC 5665): a transport and an address
 * family. The kernel writes {@code tcp6}, {@code udp6} and {@code rdma6} for a server reached over
 * IPv6, while {@code /proc/self/mountstats} names the transport alone ({@code xprt: rdma}) in
 * either family.
 *
 * @param transport {@code rdma}, {@code tcp} or {@code udp}: what mountstats' {@code xprt:} lines say
 * @param ipv6      the netid's family is IPv6 (the trailing {@code 6})
 */
public record NfsNetid(String transport, boolean ipv6) {

    public static final String RDMA = "rdma";

    /** A netid of the three transports NFS runs on, in either family; empty for anything else. */
    public static Optional<NfsNetid> parse(String proto) {
        String p = proto.toLowerCase(Locale.ROOT);
        boolean six = p.endsWith("6");
        String transport = six ? p.substring(0, p.length() - 1) : p;
        return switch (transport) {
            case RDMA, "tcp", "udp" -> Optional.of(new NfsNetid(transport, six));
            default -> Optional.empty();
        };
    }

    public boolean rdma() {
        return transport.equals(RDMA);
    }

    /** The netid a remount over RDMA needs in this family: {@code rdma}, or {@code rdma6} for an IPv6 server. */
    public String rdmaNetid() {
        return RDMA + (ipv6 ? "6" : "");
    }

    /** The netid as the kernel writes it. */
    public String name() {
        return transport + (ipv6 ? "6" : "");
    }
}
