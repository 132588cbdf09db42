package io.rdmastorage.probe.parse;

import io.rdmastorage.probe.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What fio printed with {@code --output-format=json}: the read side of its jobs (or the write side, {@link #parseWrite}). One job (fio's
 * {@code group_reporting}) gives the completion-latency percentiles too; several jobs are summed,
 * and then have no percentiles (percentiles of separate jobs cannot be combined).
 *
 * <p>fio prints notes such as "note: both iodepth >= 1 and synchronous I/O engine are selected"
 * on stdout before the document, so the document starts at the first line that opens an object.
 */
public final class FioJson {

    /** fio's percentile keys, as its JSON writes them. */
    static final String P50 = "50.000000";
    static final String P99 = "99.000000";
    static final String P999 = "99.900000";

    /**
     * The read side of a run. Latencies are completion latencies ({@code clat_ns}) in microseconds,
     * null when fio did not report that percentile (several jobs, or percentiles turned off).
     *
     * @param error the first non-zero job {@code error} (an errno), 0 when every job ran clean
     */
    public record Run(String version, int jobs, double iops, long bytesPerSecond, Double p50Micros, Double p99Micros,
                      Double p999Micros, long runtimeMillis, long totalIos, int error) {
    }

    private FioJson() {
    }

    /** The run, or empty when {@code stdout} holds no fio JSON document with at least one job. */
    public static Optional<Run> parse(String stdout) {
        return parse(stdout, "read");
    }

    /**
     * The write side of a run, the same way: the verbs target's TCP runs write to a listener over
     * fio's {@code net} engine (nothing is written to a device).
     */
    public static Optional<Run> parseWrite(String stdout) {
        return parse(stdout, "write");
    }

    private static Optional<Run> parse(String stdout, String side) {
        int start = documentStart(stdout);
        if (start < 0) {
            return Optional.empty();
        }
        Object root;
        try {
            root = Json.parse(stdout.substring(start));
        } catch (Json.JsonSyntaxException e) {
            return Optional.empty();
        }
        if (!(root instanceof Map<?, ?> doc) || !(doc.get("jobs") instanceof List<?> jobs) || jobs.isEmpty()) {
            return Optional.empty();
        }
        double iops = 0;
        long bytesPerSecond = 0;
        long runtime = 0;
        long ios = 0;
        int error = 0;
        for (Object job : jobs) {
            if (!(job instanceof Map<?, ?> j) || !(j.get(side) instanceof Map<?, ?> read)) {
                return Optional.empty();
            }
            iops += number(read.get("iops"));
            bytesPerSecond += (long) number(read.get("bw_bytes"));
            runtime = Math.max(runtime, (long) number(read.get("runtime")));
            ios += (long) number(read.get("total_ios"));
            int e = (int) number(j.get("error"));
            error = error != 0 ? error : e;
        }
        Map<?, ?> percentiles = jobs.size() == 1 ? percentiles(jobs.get(0), side) : Map.of();
        return Optional.of(new Run(doc.get("fio version") instanceof String v ? v : "", jobs.size(), iops, bytesPerSecond,
                micros(percentiles.get(P50)), micros(percentiles.get(P99)), micros(percentiles.get(P999)),
                runtime, ios, error));
    }

    private static int documentStart(String text) {
        if (text.startsWith("{")) {
            return 0;
        }
        int i = text.indexOf("\n{");
        return i < 0 ? -1 : i + 1;
    }

    private static Map<?, ?> percentiles(Object job, String side) {
        if (job instanceof Map<?, ?> j && j.get(side) instanceof Map<?, ?> read
                && read.get("clat_ns") instanceof Map<?, ?> clat && clat.get("percentile") instanceof Map<?, ?> p) {
            return p;
        }
        return Map.of();
    }

    /** Nanoseconds to microseconds; fio writes 0 for a percentile it has no sample for. */
    private static Double micros(Object nanos) {
        return nanos instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() / 1000.0 : null;
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : 0;
    }
}
