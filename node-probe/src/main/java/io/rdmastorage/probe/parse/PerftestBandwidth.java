package io.rdmastorage.probe.parse;

import io.rdmastorage.probe.parse.PerftestLatency.Failed;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a perftest bandwidth tool ({@code ib_write_bw}, {@code ib_send_bw}, ...) printed: its
 * result table, the failure it reported (found as {@link PerftestLatency} finds them: perftest's
 * own wording, the same kinds), or neither.
 *
 * <p>The table is the banner, then {@code #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec]
 * MsgRate[Mpps]} and one row per message size. The unit is in the header: {@code Gb/sec} with
 * {@code --report_gbits} (10^9 bits), else {@code MB/sec} (perftest's MB are MiB, 2^20 bytes, as
 * its help says) or {@code MiB/sec} in newer releases. Duration mode ({@code -D}) reports a peak
 * of 0.00: it measures no peak, so a zero peak is absent here.
 */
public final class PerftestBandwidth {

    /** One run's outcome: a table ({@link Measured}) or none ({@link NotMeasured}). */
    public sealed interface Result permits Measured, NotMeasured {
    }

    /** A bandwidth table with at least one row. */
    public record Measured(List<Row> rows) implements Result {
        public Measured {
            rows = List.copyOf(rows);
        }

        /** The last row for a message size. */
        public Optional<Row> row(long bytes) {
            return rows.stream().filter(r -> r.bytes() == bytes).reduce((a, b) -> b);
        }
    }

    /** perftest's failure, or no table: {@code why} is perftest's words or what was found instead. */
    public record NotMeasured(Optional<Failed> failure, String why) implements Result {
    }

    /**
     * One result row.
     *
     * @param peakBytesPerSecond null when perftest measured no peak (duration mode)
     * @param messagesPerSecond  null when this release prints no MsgRate column
     */
    public record Row(long bytes, long iterations, Double peakBytesPerSecond, double averageBytesPerSecond,
                      Double messagesPerSecond) {
    }

    private PerftestBandwidth() {
    }

    /** Parses stdout and stderr of one run (concatenated, in any order). Never throws. */
    public static Result parse(String output) {
        String text = output == null ? "" : output;
        String[] lines = text.split("\r\n|\r|\n", -1);
        Optional<Failed> failed = PerftestLatency.failure(lines);
        if (failed.isPresent()) {
            return new NotMeasured(failed, failed.get().text());
        }
        int header = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].strip().startsWith("#bytes")) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            return new NotMeasured(Optional.empty(), text.isBlank() ? "no output" : "no perftest result table");
        }
        List<String> cells = cells(lines[header]);
        int peak = indexOf(cells, "BW peak[");
        int average = indexOf(cells, "BW average[");
        int rate = indexOf(cells, "MsgRate[Mpps]");
        Optional<Double> unit = average < 0 ? Optional.empty() : bytesPerSecond(cells.get(average));
        if (average < 0 || unit.isEmpty()) {
            return new NotMeasured(Optional.empty(), "a perftest table without a BW average column in a known unit ("
                    + String.join(", ", cells) + "), not a bandwidth table");
        }
        List<Row> rows = new ArrayList<>();
        for (int i = header + 1; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("---")) {
                break;
            }
            String[] values = PerftestLatency.BLANKS.split(line);
            if (line.isEmpty() || values.length != cells.size()) {
                continue;
            }
            Optional<Long> bytes = PerftestLatency.wholeNumber(values[0]);
            Optional<Long> iterations = PerftestLatency.wholeNumber(values[1]);
            Optional<Double> avg = PerftestLatency.decimal(values[average]).filter(Double::isFinite);
            if (bytes.isEmpty() || iterations.isEmpty() || avg.isEmpty()) {
                continue;
            }
            Double peakValue = peak < 0 ? null : PerftestLatency.decimal(values[peak])
                    .filter(d -> Double.isFinite(d) && d > 0).map(d -> d * unit.get()).orElse(null);
            Double rateValue = rate < 0 ? null : PerftestLatency.decimal(values[rate])
                    .filter(Double::isFinite).map(d -> d * 1e6).orElse(null);
            rows.add(new Row(bytes.get(), iterations.get(), peakValue, avg.get() * unit.get(), rateValue));
        }
        if (rows.isEmpty()) {
            return new NotMeasured(Optional.empty(), "a bandwidth table header without result rows");
        }
        return new Measured(rows);
    }

    /** Header cells with their units: "#bytes", "#iterations", "BW peak[Gb/sec]", ... */
    private static List<String> cells(String header) {
        List<String> names = new ArrayList<>();
        for (String cell : PerftestLatency.CELL_GAP.split(header.strip())) {
            if (cell.startsWith("#")) {
                names.addAll(List.of(PerftestLatency.BLANKS.split(cell)));
            } else if (!cell.isEmpty()) {
                names.add(cell.strip());
            }
        }
        return names;
    }

    private static int indexOf(List<String> cells, String prefix) {
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    /** Bytes per second in one unit of the column: Gb/sec, MB/sec (MiB), MiB/sec. */
    private static Optional<Double> bytesPerSecond(String cell) {
        String unit = cell.substring(cell.indexOf('[') + 1).replace("]", "").toLowerCase(Locale.ROOT);
        return switch (unit) {
            case "gb/sec" -> Optional.of(1e9 / 8);
            case "mb/sec", "mib/sec" -> Optional.of(1024.0 * 1024.0);
            default -> Optional.empty();
        };
    }
}
