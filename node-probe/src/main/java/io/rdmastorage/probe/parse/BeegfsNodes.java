package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A BeeGFS client's {@code /proc/fs/beegfs/<clientID>/storage_nodes} or {@code meta_nodes} (what
 * {@code beegfs-net} prints): per server a line {@code <alias> [ID: <numID>]}, an optional
 * {@code Root: <yes>}, and {@code Connections: TCP: 4 (10.0.0.1:8003); RDMA: 2 (10.0.0.1:8003); }
 * or {@code Connections: <none>}. The peer of each type is the first available connection's, with
 * {@code [fallback route]} where it is not on the server's primary interface.
 */
public record BeegfsNodes(List<Node> nodes) {

    private static final Pattern NODE = Pattern.compile("^(\\S.*?) \\[ID: ([0-9]+)]\\s*$");
    private static final Pattern CONNECTIONS = Pattern.compile("^\\s+Connections: (.*)$");
    private static final Pattern CONNECTION = Pattern.compile("([A-Za-z]+): ([0-9]+)(?: \\(([^ )]+)( \\[fallback route])?\\))?;");

    public BeegfsNodes {
        nodes = List.copyOf(nodes);
    }

    /** One connection type of a server: TCP, RDMA (or the old SDP), how many, the first one's peer. */
    public record Connection(String type, int count, String peer, boolean fallbackRoute) {
        public boolean rdma() {
            return type.equals("RDMA");
        }
    }

    /** A server as the client knows it; no connections when it has none established now. */
    public record Node(String alias, String id, boolean root, List<Connection> connections) {
        public Node {
            connections = List.copyOf(connections);
        }

        /** {@code storage01 [ID: 1]}, as the file names it. */
        public String name() {
            return alias + " [ID: " + id + "]";
        }

        public boolean connected() {
            return !connections.isEmpty();
        }

        public List<Connection> notRdma() {
            return connections.stream().filter(c -> !c.rdma()).toList();
        }

        public int rdmaCount() {
            return connections.stream().filter(Connection::rdma).mapToInt(Connection::count).sum();
        }
    }

    /** Empty when a non-blank text has no server line or a line this layout does not have: never a guess. */
    public static Optional<BeegfsNodes> parse(String text) {
        List<Node> nodes = new ArrayList<>();
        String alias = null;
        String id = null;
        boolean root = false;
        List<Connection> connections = new ArrayList<>();
        for (String line : text.split("\r\n|\r|\n")) {
            if (line.isBlank()) {
                continue;
            }
            Matcher node = NODE.matcher(line);
            Matcher conns = CONNECTIONS.matcher(line);
            if (node.matches()) {
                if (alias != null) {
                    nodes.add(new Node(alias, id, root, connections));
                }
                alias = node.group(1);
                id = node.group(2);
                root = false;
                connections = new ArrayList<>();
            } else if (alias != null && line.strip().equals("Root: <yes>")) {
                root = true;
            } else if (alias != null && conns.matches()) {
                String list = conns.group(1).strip();
                if (!list.equals("<none>") && !parseConnections(list, connections)) {
                    return Optional.empty();
                }
            } else {
                return Optional.empty();
            }
        }
        if (alias != null) {
            nodes.add(new Node(alias, id, root, connections));
        }
        return Optional.of(new BeegfsNodes(nodes));
    }

    private static boolean parseConnections(String list, List<Connection> into) {
        Matcher m = CONNECTION.matcher(list + (list.endsWith(";") ? "" : ";"));
        int end = 0;
        while (m.find()) {
            if (!list.substring(Math.min(end, list.length()), Math.min(m.start(), list.length())).isBlank()) {
                return false;
            }
            into.add(new Connection(m.group(1), Integer.parseInt(m.group(2)), m.group(3) == null ? "" : m.group(3),
                    m.group(4) != null));
            end = m.end();
        }
        return end > 0;
    }
}
