package io.rdmastorage.probe.parse;

import io.rdmastorage.contract.json.Json;
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
 * A run stopped by a signal prints "fio: terminating on signal N" there, then the figures of the
 * time it ran: {@link Run#signal()}.
 *
 * <p>fio 2.x wrote latencies in microseconds ({@code clat}, {@code lat}, percentiles in usec),
 * bandwidth in KiB/s ({@code bw}) and {@code io_bytes} in KiB, and before 2.2 no {@code total_ios};
 * fio 3 writes {@code clat_ns}, {@code bw_bytes} and bytes. Both are read, each in its own unit.
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
     * @param totalIos the I/Os fio counted; {@link #IOS_NOT_REPORTED} where fio (before 2.2) did not count them
     * @param error    the first non-zero job {@code error} (an errno), 0 when every job ran clean
     * @param ioBytes  what the side moved, in bytes
     * @param signal   the signal that stopped the run ("fio: terminating on signal N"), 0 when none did
     */
    public record Run(String version, int jobs, double iops, long bytesPerSecond, Double p50Micros, Double p99Micros,
                      Double p999Micros, long runtimeMillis, long totalIos, int error, long ioBytes, int signal) {

        /** fio before 2.2 has no {@code total_ios}. */
        public static final long IOS_NOT_REPORTED = -1;

        /** Whether the run moved data: by its I/O count, or by its bytes where fio counted no I/Os. */
        public boolean movedData() {
            return totalIos > 0 || ioBytes > 0;
        }

        /** A signal stopped it: its figures cover part of the asked duration. */
        public boolean interrupted() {
            return signal != 0;
        }

        /** "12,345 I/Os in 3.2 s, 3,858 IOPS": the figures a partial run has, for a message. */
        public String figures() {
            String ios = totalIos >= 0 ? String.format(java.util.Locale.ROOT, "%,d I/Os", totalIos)
                    : String.format(java.util.Locale.ROOT, "%,d bytes", ioBytes);
            return String.format(java.util.Locale.ROOT, "%s in %.1f s, %,.0f IOPS%s", ios, runtimeMillis / 1000.0, iops,
                    p50Micros == null ? "" : String.format(java.util.Locale.ROOT, ", p50 %.1f µs", p50Micros));
        }
    }

    private static final java.util.regex.Pattern TERMINATED = java.util.regex.Pattern.compile(
            "(?m)^fio: terminating on signal (\\d{1,2})$");

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
            // lenient: fio 2.x repeats the "0.00" key in its percentile tables (the last one wins, all are 0)
            root = Json.parseLenient(stdout.substring(start));
        } catch (Json.JsonSyntaxException e) {
            return Optional.empty();
        }
        if (!(root instanceof Map<?, ?> doc) || !(doc.get("jobs") instanceof List<?> all)) {
            return Optional.empty();
        }
        // an interrupted run may list jobs that never started: only those with the side count
        List<Map<?, ?>> jobs = all.stream().filter(j -> j instanceof Map<?, ?> m && m.get(side) instanceof Map<?, ?>)
                .<Map<?, ?>>map(j -> (Map<?, ?>) j).toList();
        if (jobs.isEmpty()) {
            return Optional.empty();
        }
        double iops = 0;
        long bytesPerSecond = 0;
        long runtime = 0;
        long ios = 0;
        long bytes = 0;
        boolean counted = true;
        int error = 0;
        for (Map<?, ?> j : jobs) {
            Map<?, ?> read = (Map<?, ?>) j.get(side);
            // fio 3: bw_bytes and io_bytes in bytes; fio 2.x: bw in KiB/s and io_bytes in KiB
            boolean v3 = read.containsKey("bw_bytes");
            iops += number(read.get("iops"));
            bytesPerSecond += v3 ? (long) number(read.get("bw_bytes")) : (long) number(read.get("bw")) * 1024;
            bytes += v3 ? (long) number(read.get("io_bytes")) : (long) number(read.get("io_bytes")) * 1024;
            runtime = Math.max(runtime, (long) number(read.get("runtime")));
            counted &= read.containsKey("total_ios");
            ios += (long) number(read.get("total_ios"));
            int e = (int) number(j.get("error"));
            error = error != 0 ? error : e;
        }
        Latencies p = jobs.size() == 1 ? percentiles(jobs.get(0), side) : Latencies.NONE;
        return Optional.of(new Run(doc.get("fio version") instanceof String v ? v : "", jobs.size(), iops, bytesPerSecond,
                p.micros(P50), p.micros(P99), p.micros(P999), runtime, counted ? ios : Run.IOS_NOT_REPORTED, error, bytes,
                signal(stdout.substring(0, start))));
    }

    /** The signal fio says stopped it ("fio: terminating on signal 2"), 0 when {@code text} says none did. */
    public static int signal(String text) {
        java.util.regex.Matcher m = TERMINATED.matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static int documentStart(String text) {
        if (text.startsWith("{")) {
            return 0;
        }
        int i = text.indexOf("\n{");
        return i < 0 ? -1 : i + 1;
    }

    /** One job's completion-latency percentiles and the unit fio wrote them in (ns per microsecond). */
    private record Latencies(Map<?, ?> percentiles, double perMicro) {
        static final Latencies NONE = new Latencies(Map.of(), 1);

        /** In microseconds; fio writes 0 for a percentile it has no sample for. */
        Double micros(String key) {
            return percentiles.get(key) instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() / perMicro : null;
        }
    }

    /** fio 3's {@code clat_ns} (nanoseconds), else fio 2.x's {@code clat} (microseconds). */
    private static Latencies percentiles(Map<?, ?> job, String side) {
        Map<?, ?> read = (Map<?, ?>) job.get(side);
        if (read.get("clat_ns") instanceof Map<?, ?> clat && clat.get("percentile") instanceof Map<?, ?> p) {
            return new Latencies(p, 1000.0);
        }
        if (read.get("clat") instanceof Map<?, ?> clat && clat.get("percentile") instanceof Map<?, ?> p) {
            return new Latencies(p, 1.0);
        }
        return Latencies.NONE;
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : 0;
    }
}
