package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The "TCP Connections between nodes" table of {@code mmdiag --network}: which peers the daemon
 * has a connection to, by name and address. The table has no {@code -Y} form, so columns are
 * found by the header row ({@code hostname node [idx] destination status ...}); releases differ in
 * the columns they print (5.1 added {@code idx}, one row per connection of a multi-rail peer) and
 * older ones group rows under {@code Device <if>:} lines.
 *
 * @param recognized  the text is mmdiag --network output (its banner or the table was found)
 * @param connections one entry per table row
 */
public record MmdiagNetwork(boolean recognized, List<TcpConnection> connections) {

    private static final Pattern BLANKS = Pattern.compile("\\s+");

    public MmdiagNetwork {
        connections = List.copyOf(connections);
    }

    /**
     * One row: {@code node} is GPFS's {@code <cXnY>} node id, {@code status} e.g. connected,
     * disconnected; {@code socket} the {@code sock} column (-1 when absent); {@code sentMegabytes},
     * {@code receivedMegabytes} the {@code sent(MB)}/{@code recvd(MB)} columns, the MB this connection
     * carried since it was opened (empty when the release prints no such column).
     */
    public record TcpConnection(String hostname, String node, String destination, String status, int socket,
                                OptionalLong sentMegabytes, OptionalLong receivedMegabytes) {

        /** A row without the socket and traffic columns. */
        public TcpConnection(String hostname, String node, String destination, String status) {
            this(hostname, node, destination, status, -1, OptionalLong.empty(), OptionalLong.empty());
        }

        public boolean connected() {
            return "connected".equals(status);
        }
    }

    /** Peers with a live connection, one per host name (a multi-rail peer has a row per rail). */
    public List<TcpConnection> connectedPeers() {
        Map<String, TcpConnection> peers = new LinkedHashMap<>();
        for (TcpConnection c : connections) {
            if (c.connected()) {
                peers.putIfAbsent(c.hostname().isEmpty() ? c.destination() : c.hostname(), c);
            }
        }
        return List.copyOf(peers.values());
    }

    public static MmdiagNetwork parse(String text) {
        boolean recognized = text.contains("=== mmdiag: network ===");
        boolean inTable = false;
        Map<String, Integer> columns = null;
        List<TcpConnection> rows = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.stripTrailing();
            if (line.isBlank()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                // a new top-level block ("Connection details:", "diag verbs: ...") ends the table
                inTable = line.startsWith("TCP Connections");
                recognized |= inTable;
                columns = null;
                continue;
            }
            if (!inTable) {
                continue;
            }
            String[] tokens = BLANKS.split(line.strip());
            if (columns == null || tokens[0].equals("hostname")) {
                Map<String, Integer> header = header(tokens);
                if (header != null) {
                    columns = header;
                }
                continue;   // header row, or "Device eth0:" before it
            }
            TcpConnection row = row(tokens, columns);
            if (row != null) {
                rows.add(row);
            }
        }
        return new MmdiagNetwork(recognized, rows);
    }

    private static Map<String, Integer> header(String[] tokens) {
        Map<String, Integer> columns = new LinkedHashMap<>();
        for (int i = 0; i < tokens.length; i++) {
            columns.putIfAbsent(tokens[i], i);
        }
        return columns.containsKey("hostname") && columns.containsKey("destination") && columns.containsKey("status")
                ? columns : null;
    }

    private static TcpConnection row(String[] tokens, Map<String, Integer> columns) {
        int status = columns.get("status");
        if (tokens.length <= status) {
            return null;
        }
        Integer node = columns.get("node");
        String nodeId = node == null ? "" : tokens[node];
        if (node != null && !(nodeId.startsWith("<c") && nodeId.endsWith(">"))) {
            return null;   // not a connection row: the layout we know puts the <cXnY> id here
        }
        OptionalLong sock = column(tokens, columns, "sock");
        return new TcpConnection(tokens[columns.get("hostname")], nodeId, tokens[columns.get("destination")],
                tokens[status], sock.isPresent() && sock.getAsLong() <= Integer.MAX_VALUE ? (int) sock.getAsLong() : -1,
                column(tokens, columns, "sent(MB)"), column(tokens, columns, "recvd(MB)"));
    }

    /** A numeric column of a row; empty when the header has no such column or the row no number there. */
    private static OptionalLong column(String[] tokens, Map<String, Integer> columns, String name) {
        Integer i = columns.get(name);
        return i == null || i >= tokens.length ? OptionalLong.empty() : SysfsCounter.parse(tokens[i]);
    }
}
