package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a perftest latency tool ({@code ib_write_lat}, {@code ib_read_lat}, {@code ib_send_lat})
 * printed: its result table, the failure it reported, or neither.
 *
 * <p>The table is a banner of {@code key : value} pairs between dashed rules, then a column
 * header such as {@code #bytes #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec]
 * t_stdev[usec] 99% percentile[usec] 99.9% percentile[usec]} and one row per message size
 * ({@code -a} gives many). Columns are mapped by their header names, because perftest before 2013
 * printed only {@code t_min t_max t_typical} and newer releases may add more. Failures are found
 * by perftest's own wording anywhere in the output, not by whole lines: old releases glued two
 * messages onto one line.
 */
public final class PerftestLatency {

    /** One run's outcome: exactly one of {@link Measured}, {@link Failed}, {@link Unrecognised}. */
    public sealed interface Result permits Measured, Failed, Unrecognised {
    }

    /** A latency table with at least one row. */
    public record Measured(Map<String, String> banner, List<Row> rows) implements Result {
        public Measured {
            banner = Map.copyOf(banner);
            rows = List.copyOf(rows);
        }

        /** The row for a message size; perftest prints one per size. */
        public Optional<Row> row(long bytes) {
            return rows.stream().filter(r -> r.bytes() == bytes).findFirst();
        }

        public Optional<String> device() {
            return Optional.ofNullable(banner.get("Device"));
        }

        /** {@code IB} or {@code Ethernet} (RoCE, soft-RoCE). */
        public Optional<String> linkType() {
            return Optional.ofNullable(banner.get("Link type"));
        }
    }

    /**
     * One result row; times in microseconds. A time is null when this perftest release does not
     * print that column (or printed nan).
     */
    public record Row(long bytes, long iterations, Double tMin, Double tMax, Double tTypical, Double tAvg, Double tStdev,
                      Double p99, Double p999) {
    }

    /** perftest said why it could not measure; {@code text} is its own words, from the first error line on. */
    public record Failed(Failure failure, String text) implements Result {
    }

    /** Neither a latency table nor a known failure: {@code why} says what was found instead. */
    public record Unrecognised(String why) implements Result {
    }

    /** The kinds of failure perftest reports, from the most to the least specific. */
    public enum Failure {
        /** The named HCA does not exist on this node ("IB device mlx5_9 not found"). */
        DEVICE_MISSING,
        /** The two sides exchanged QP data but could not bring the RDMA connection up ("Failed to modify QP to RTS"). */
        RDMA_CONNECTION,
        /** RDMA traffic failed on the wire ("Completion with error at client", "Failed status 12"). */
        COMPLETION_ERROR,
        /** The out-of-band TCP exchange with the other side failed ("Couldn't connect to 10.0.0.2:18515"). */
        PEER_UNREACHABLE,
        /** This node could not set up its own verbs resources ("Couldn't get context for the device"). */
        LOCAL_SETUP
    }

    /** Failure wording per kind, matched as substrings; the order of {@link Failure} is the priority. */
    private static final Map<Failure, List<String>> MARKERS = markers();
    private static final Pattern DEVICE_NOT_FOUND = Pattern.compile("IB device \\S+ not found");
    /** "Dual-port : OFF   Device : mlx5_0" holds two pairs; values are single tokens. */
    private static final Pattern PAIR = Pattern.compile("([A-Za-z][A-Za-z0-9 .*/()_-]*?)\\s*:\\s*(\\S+)");
    /** Header cells are separated by two or more blanks, a tab, or follow a "[unit]"; "#bytes #iterations" by one. */
    static final Pattern CELL_GAP = Pattern.compile("\\s{2,}|\\t|(?<=])\\s+");
    private static final Pattern UNIT = Pattern.compile("\\[[^]]*]$");
    static final Pattern BLANKS = Pattern.compile("\\s+");
    private static final int MAX_TEXT = 400;

    private PerftestLatency() {
    }

    private static Map<Failure, List<String>> markers() {
        Map<Failure, List<String>> m = new LinkedHashMap<>();
        m.put(Failure.DEVICE_MISSING, List.of("No IB devices found", "Unable to find the Infiniband/RoCE device",
                "Did not detect devices"));
        m.put(Failure.RDMA_CONNECTION, List.of("QP to RTR", "QP to RTS", "Unable to Connect the HCA's through the link",
                "Incompatibility issue with GID types"));
        m.put(Failure.COMPLETION_ERROR, List.of("Completion with error", "Failed status", "Bad wc status"));
        m.put(Failure.PEER_UNREACHABLE, List.of("Couldn't connect to", "Unable to init the socket connection",
                "Unable to open file descriptor for socket connection", "Unable to set up socket connection",
                "Couldn't read remote address", "Problem in resolving basic address and port", "Unable to connect (retries",
                "Failed to exchange data between server and clients", "Unable to read from socket",
                "Unable to read to socket", "Unable to write to socket"));
        m.put(Failure.LOCAL_SETUP, List.of("Couldn't get context for the device", "Couldn't allocate context",
                "Couldn't create IB resources", "Unable to create RDMA_CM resources", "Failed to negotiate parameters"));
        return m;
    }

    /** Parses stdout and stderr of one run (concatenated, in any order). Never throws. */
    public static Result parse(String output) {
        String text = output == null ? "" : output;
        String[] lines = text.split("\r\n|\r|\n", -1);
        Optional<Failed> failed = failure(lines);
        if (failed.isPresent()) {
            return failed.get();
        }
        int header = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].strip().startsWith("#bytes")) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            return new Unrecognised(text.isBlank() ? "no output" : "no perftest result table");
        }
        List<String> columns = columns(lines[header]);
        if (!columns.contains("t_typical") && !columns.contains("t_min") && !columns.contains("t_avg")) {
            boolean bandwidth = columns.stream().anyMatch(c -> c.startsWith("BW "));
            return new Unrecognised((bandwidth ? "a perftest bandwidth table" : "a perftest table without latency columns")
                    + " (" + String.join(", ", columns) + "), not a latency table");
        }
        List<Row> rows = new ArrayList<>();
        for (int i = header + 1; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("---")) {
                break;
            }
            row(line, columns).ifPresent(rows::add);
        }
        if (rows.isEmpty()) {
            return new Unrecognised("a latency table header without result rows");
        }
        return new Measured(banner(lines, header), rows);
    }

    /** The most specific failure found, with perftest's text from its first error line on. */
    static Optional<Failed> failure(String[] lines) {
        Failure worst = null;
        int first = -1;
        for (int i = 0; i < lines.length; i++) {
            Failure f = classify(lines[i]);
            if (f != null) {
                first = first < 0 ? i : first;
                worst = worst == null || f.ordinal() < worst.ordinal() ? f : worst;
            }
        }
        if (worst == null) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        for (int i = first; i < lines.length && text.length() < MAX_TEXT; i++) {
            String line = lines[i].strip();
            if (!line.isEmpty() && !line.startsWith("---")) {
                text.append(text.length() == 0 ? "" : "; ").append(line);
            }
        }
        String s = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT - 1) + "…" : text.toString();
        return Optional.of(new Failed(worst, s));
    }

    private static Failure classify(String line) {
        if (line.indexOf(' ') >= 0 && DEVICE_NOT_FOUND.matcher(line).find()) {
            return Failure.DEVICE_MISSING;
        }
        for (Map.Entry<Failure, List<String>> e : MARKERS.entrySet()) {
            for (String marker : e.getValue()) {
                if (line.contains(marker)) {
                    return e.getKey();
                }
            }
        }
        return null;
    }

    /** Column names without their unit: "#bytes", "t_typical", "99% percentile", "BW peak". */
    private static List<String> columns(String header) {
        List<String> names = new ArrayList<>();
        for (String cell : CELL_GAP.split(header.strip())) {
            if (cell.isEmpty()) {
                continue;
            }
            if (cell.startsWith("#")) {
                names.addAll(List.of(BLANKS.split(cell)));   // "#bytes #iterations" share one gap
            } else {
                names.add(UNIT.matcher(cell).replaceFirst("").strip());
            }
        }
        return names;
    }

    /** A data row has one number per column; anything else between header and rule is skipped. */
    private static Optional<Row> row(String line, List<String> columns) {
        if (line.isEmpty()) {
            return Optional.empty();
        }
        String[] cells = BLANKS.split(line);
        if (cells.length != columns.size()) {
            return Optional.empty();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        long bytes = -1;
        long iterations = -1;
        for (int i = 0; i < cells.length; i++) {
            String name = columns.get(i);
            if (name.equals("#bytes") || name.equals("#iterations")) {
                Optional<Long> n = wholeNumber(cells[i]);
                if (n.isEmpty()) {
                    return Optional.empty();
                }
                if (name.equals("#bytes")) {
                    bytes = n.get();
                } else {
                    iterations = n.get();
                }
            } else {
                Optional<Double> d = decimal(cells[i]);
                if (d.isEmpty()) {
                    return Optional.empty();
                }
                values.put(name, Double.isNaN(d.get()) ? null : d.get());
            }
        }
        if (bytes < 0) {
            return Optional.empty();
        }
        return Optional.of(new Row(bytes, iterations, values.get("t_min"), values.get("t_max"), values.get("t_typical"),
                values.get("t_avg"), values.get("t_stdev"), values.get("99% percentile"), values.get("99.9% percentile")));
    }

    static Optional<Long> wholeNumber(String s) {
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(s));
    }

    /** A %f number; C prints "nan"/"-nan" when a statistic is undefined, kept as NaN. */
    static Optional<Double> decimal(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("nan") || lower.equals("-nan")) {
            return Optional.of(Double.NaN);
        }
        if (s.isEmpty() || !s.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == '-')) {
            return Optional.empty();
        }
        try {
            return Optional.of(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The banner's key/value pairs, first occurrence wins ("Device", "Link type", "Mtu", ...). */
    static Map<String, String> banner(String[] lines, int header) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i < header; i++) {
            Matcher m = PAIR.matcher(lines[i]);
            while (m.find()) {
                pairs.putIfAbsent(m.group(1).strip(), m.group(2));
            }
        }
        return pairs;
    }
}
