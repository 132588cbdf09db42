package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * {@code ss -tin}: the TCP sockets of one network namespace with the kernel's TCP_INFO, one socket
 * line ({@code ESTAB 0 0 192.0.2.2:48712 192.0.2.1:4420}) followed by {@code key:value} items on a
 * TAB-indented next line (or on the socket's own line, as the fallback below prints them), among them {@code bytes_sent} (kernel 4.19+), {@code bytes_acked} and
 * {@code bytes_received}: the bytes the socket carried since it was opened. ss leaves out a count
 * that is zero. Kernel sockets (NVMe/TCP, the NFS client, nvmet) are listed like any other.
 * Addresses are {@code a.b.c.d:port}, {@code [v6]:port}, either with a {@code %ifname} scope.
 *
 * <p>Without the kernel's {@code tcp_diag} module ss falls back to {@code /proc/net/tcp}, which has
 * no TCP_INFO: the items are then only {@code rto ato qack cwnd} (recorded on the VM node), and a
 * socket's bytes are unknown, not zero. TCP_INFO always has the sender MSS ({@code mss:}) of an
 * open socket, so its presence tells the two apart.
 *
 * @param recognized the ss header row was found (an empty table is still an answer)
 */
public record SsTcpInfo(boolean recognized, List<Socket> sockets) {

    private static final Pattern BLANKS = Pattern.compile("\\s+");

    public SsTcpInfo {
        sockets = List.copyOf(sockets);
    }

    /**
     * One socket: its addresses as ss prints them and the bytes it carried; both empty when ss had
     * no TCP_INFO for it (the /proc/net/tcp fallback). {@code sent} is bytes_sent, or bytes_acked
     * where an older kernel has no bytes_sent; a count ss left out of TCP_INFO is 0.
     */
    public record Socket(String state, String local, String peer, int localPort, int peerPort,
                         OptionalLong sent, OptionalLong received) {
        /** The peer's address without brackets or scope: {@code 192.0.2.1}, {@code fd00::1}. */
        public String peerAddress() {
            return host(peer);
        }
    }

    public static SsTcpInfo parse(String text) {
        boolean recognized = false;
        List<Socket> sockets = new ArrayList<>();
        String[] head = null;
        List<String> info = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.stripTrailing();
            if (line.isBlank()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                if (head != null) {
                    add(sockets, head, info);
                }
                head = null;
                info.clear();
                String[] tokens = BLANKS.split(line.strip());
                if (tokens[0].equals("State") || tokens[0].equals("Netid")) {
                    recognized = true;
                } else if (tokens.length >= 5) {
                    // State Recv-Q Send-Q Local Peer [info items]; with -a/-u ss puts a Netid column first
                    int offset = tokens[0].equals("tcp") ? 1 : 0;
                    if (tokens.length >= 5 + offset) {
                        head = new String[] {tokens[offset], tokens[offset + 3], tokens[offset + 4]};
                        info.add(String.join(" ", java.util.Arrays.copyOfRange(tokens, offset + 5, tokens.length)));
                    }
                }
            } else if (head != null) {
                info.add(line.strip());
            }
        }
        if (head != null) {
            add(sockets, head, info);
        }
        return new SsTcpInfo(recognized, sockets);
    }

    private static void add(List<Socket> sockets, String[] head, List<String> info) {
        int localPort = port(head[1]);
        int peerPort = port(head[2]);
        if (localPort < 0 || peerPort < 0) {
            return;   // not a socket line we know (a wrapped address, a heading)
        }
        OptionalLong sent = OptionalLong.empty();
        OptionalLong acked = OptionalLong.empty();
        OptionalLong received = OptionalLong.empty();
        boolean tcpInfo = false;
        for (String line : info) {
            for (String item : BLANKS.split(line)) {
                int colon = item.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String key = item.substring(0, colon);
                OptionalLong value = SysfsCounter.parse(item.substring(colon + 1));
                switch (key) {
                    case "bytes_sent" -> sent = value;
                    case "bytes_acked" -> acked = value;
                    case "bytes_received" -> received = value;
                    case "mss" -> tcpInfo = true;
                    default -> { }
                }
            }
        }
        OptionalLong zero = tcpInfo ? OptionalLong.of(0) : OptionalLong.empty();
        sockets.add(new Socket(head[0], head[1], head[2], localPort, peerPort,
                sent.isPresent() ? sent : acked.isPresent() ? acked : zero, received.isPresent() ? received : zero));
    }

    /** The port after the last colon; -1 when there is none ({@code *}). */
    private static int port(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0 || colon == address.length() - 1) {
            return -1;
        }
        String p = address.substring(colon + 1);
        if (p.length() > 5 || !p.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int port = Integer.parseInt(p);
        return port <= 65535 ? port : -1;
    }

    private static String host(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int scope = host.indexOf('%');
        return scope < 0 ? host : host.substring(0, scope);
    }
}
