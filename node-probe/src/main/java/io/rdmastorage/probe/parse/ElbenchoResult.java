package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * elbencho's result table, for a site that measures with elbencho instead of fio: one block per
 * phase ({@code READ}, {@code WRITE}, ...) of {@code RESULT TYPE : FIRST DONE LAST DONE} rows,
 * ended by {@code ---}. The {@code LAST DONE} column (all workers finished) is the phase's result.
 * elbencho 1.x writes {@code Elapsed ms : 6001}, 3.x {@code Elapsed time : 11.559s}; {@code --lat}
 * adds {@code IO latency us : [ min=91 avg=120 max=1583 ]} (no percentiles in this table).
 *
 * @param phase       {@code READ}
 * @param elapsedMillis the phase's wall time when all workers were done
 * @param iops        I/O operations per second
 * @param mibPerSecond throughput in MiB/s
 * @param latencyAvgMicros average I/O latency, null without {@code --lat}
 */
public record ElbenchoResult(String phase, long elapsedMillis, long iops, long mibPerSecond, Double latencyAvgMicros) {

    private static final Pattern ROW = Pattern.compile("^(\\S+)?\\s+(\\S.*?)\\s*:\\s*(.*)$");
    private static final Pattern SECONDS = Pattern.compile("(?:(\\d+)m)?(\\d+(?:\\.\\d+)?)s");
    private static final Pattern AVG = Pattern.compile("avg=(\\d+(?:\\.\\d+)?)");

    /** The first phase named {@code phase} in the table, or empty when it is not there or lacks a value. */
    public static Optional<ElbenchoResult> parse(String text, String phase) {
        String current = null;
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("---")) {
                if (phase.equals(current)) {
                    break;
                }
                current = null;
                continue;
            }
            Matcher m = ROW.matcher(line);
            if (!m.matches()) {
                continue;
            }
            if (m.group(1) != null) {
                current = m.group(1);
            }
            if (phase.equals(current)) {
                rows.put(m.group(2), m.group(3).strip());
            }
        }
        Optional<Long> elapsed = elapsedMillis(rows);
        Optional<Long> iops = lastDone(rows.get("IOPS"));
        Optional<Long> mib = lastDone(rows.get("Throughput MiB/s"));
        if (elapsed.isEmpty() || iops.isEmpty() || mib.isEmpty()) {
            return Optional.empty();
        }
        String latency = rows.get("IO latency us");
        Matcher avg = latency == null ? null : AVG.matcher(latency);
        Double avgMicros = avg != null && avg.find() ? Double.parseDouble(avg.group(1)) : null;
        return Optional.of(new ElbenchoResult(phase, elapsed.get(), iops.get(), mib.get(), avgMicros));
    }

    private static Optional<Long> elapsedMillis(Map<String, String> rows) {
        Optional<Long> ms = lastDone(rows.get("Elapsed ms"));
        if (ms.isPresent()) {
            return ms;
        }
        String time = rows.get("Elapsed time");
        if (time == null) {
            return Optional.empty();
        }
        List<String> columns = List.of(time.split("\\s+"));
        Matcher m = SECONDS.matcher(columns.get(columns.size() - 1));
        if (!m.matches()) {
            return Optional.empty();
        }
        double seconds = Double.parseDouble(m.group(2)) + (m.group(1) == null ? 0 : 60.0 * Long.parseLong(m.group(1)));
        return Optional.of(Math.round(seconds * 1000));
    }

    /** The LAST DONE column of a row of two numbers. */
    private static Optional<Long> lastDone(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String[] columns = value.split("\\s+");
        String last = columns[columns.length - 1];
        return last.matches("[0-9]{1,18}") ? Optional.of(Long.parseLong(last)) : Optional.empty();
    }
}
