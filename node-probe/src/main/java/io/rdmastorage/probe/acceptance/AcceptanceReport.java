package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.acceptance.AcceptanceSchema;
import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.probe.parse.CpuUsage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one acceptance run measured: per transport, per workload, fio's numbers and the host's CPU
 * over exactly that workload. Written as the {@link AcceptanceSchema} document, compact, well under
 * the termination message's {@link ReportSchema#MAX_BYTES}.
 */
public record AcceptanceReport(String node, String probeVersion, String fioVersion, String startedAt, long durationMillis,
                               List<TransportRun> transports, List<String> disconnected, List<String> cleanupProblems) {

    /** Longest message kept per problem: the document must fit the termination message. */
    static final int MAX_MESSAGE = 300;

    public AcceptanceReport {
        transports = List.copyOf(transports);
        disconnected = List.copyOf(disconnected);
        cleanupProblems = List.copyOf(cleanupProblems);
    }

    /** One workload's numbers; latencies in µs, null when fio gave none; cpu empty when /proc/stat gave no delta. */
    public record Numbers(double iops, long bytesPerSecond, Double p50Micros, Double p99Micros, Double p999Micros,
                          Optional<CpuUsage> cpu) {
    }

    /**
     * One transport's measurements.
     *
     * @param problem empty when every workload was measured over this transport alone; else what
     *                went wrong, and the numbers (if any) must not be compared
     * @param traffic what the storage counters showed over the transport's workloads; empty when not read
     */
    public record TransportRun(String transport, String controller, String device, boolean connectedByProbe,
                               Map<Workload, Numbers> numbers, String problem, String traffic, Set<Workload> workloads) {
        public TransportRun {
            numbers = Map.copyOf(numbers);
            workloads = Set.copyOf(workloads);
        }

        /** An NVMe-oF transport's run: all three workloads. */
        public TransportRun(String transport, String controller, String device, boolean connectedByProbe,
                            Map<Workload, Numbers> numbers, String problem, String traffic) {
            this(transport, controller, device, connectedByProbe, numbers, problem, traffic, EnumSet.allOf(Workload.class));
        }

        public boolean valid() {
            return problem.isEmpty() && numbers.keySet().containsAll(workloads);
        }
    }

    /** Every transport measured by itself, and nothing this run connected is left behind. */
    public boolean complete() {
        return !transports.isEmpty() && transports.stream().allMatch(TransportRun::valid) && cleanupProblems.isEmpty();
    }

    /** The first thing that keeps the run from being complete, or empty. */
    public String message() {
        for (TransportRun t : transports) {
            if (!t.valid()) {
                return t.transport() + ": " + (t.problem().isEmpty() ? "not every workload was measured" : t.problem());
            }
        }
        return cleanupProblems.isEmpty() ? "" : cleanupProblems.get(0);
    }

    public String toJson() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put(AcceptanceSchema.F_API_VERSION, ReportSchema.API_VERSION);
        doc.put(AcceptanceSchema.F_KIND, AcceptanceSchema.KIND);
        doc.put(AcceptanceSchema.F_NODE, node);
        doc.put(AcceptanceSchema.F_PROBE_VERSION, probeVersion);
        doc.put(AcceptanceSchema.F_FIO_VERSION, fioVersion);
        doc.put(AcceptanceSchema.F_STARTED_AT, startedAt);
        doc.put(AcceptanceSchema.F_DURATION_MILLIS, durationMillis);
        doc.put(AcceptanceSchema.F_COMPLETE, complete());
        doc.put(AcceptanceSchema.F_MESSAGE, cut(message()));
        List<Object> list = new ArrayList<>();
        for (TransportRun t : transports) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put(AcceptanceSchema.T_TRANSPORT, t.transport());
            entry.put(AcceptanceSchema.T_CONTROLLER, t.controller());
            entry.put(AcceptanceSchema.T_DEVICE, t.device());
            entry.put(AcceptanceSchema.T_CONNECTED_BY_PROBE, t.connectedByProbe());
            if (!t.problem().isEmpty()) {
                entry.put(AcceptanceSchema.T_PROBLEM, cut(t.problem()));
            }
            if (!t.traffic().isEmpty()) {
                entry.put(AcceptanceSchema.T_TRAFFIC, cut(t.traffic()));
            }
            for (Workload w : Workload.values()) {
                Numbers n = t.numbers().get(w);
                if (n != null) {
                    entry.put(w.field(), numbers(n));
                }
            }
            list.add(entry);
        }
        doc.put(AcceptanceSchema.F_TRANSPORTS, list);
        doc.put(AcceptanceSchema.F_DISCONNECTED, disconnected);
        doc.put(AcceptanceSchema.F_CLEANUP_PROBLEMS, cleanupProblems.stream().map(AcceptanceReport::cut).toList());
        return Json.write(doc);
    }

    private static Map<String, Object> numbers(Numbers n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(AcceptanceSchema.W_IOPS, round(n.iops(), 1));
        m.put(AcceptanceSchema.W_BYTES_PER_SECOND, n.bytesPerSecond());
        putIfPresent(m, AcceptanceSchema.W_P50_MICROS, n.p50Micros());
        putIfPresent(m, AcceptanceSchema.W_P99_MICROS, n.p99Micros());
        putIfPresent(m, AcceptanceSchema.W_P999_MICROS, n.p999Micros());
        n.cpu().ifPresent(cpu -> {
            m.put(AcceptanceSchema.W_CORES_BUSY, round(cpu.coresBusy(), 3));
            m.put(AcceptanceSchema.W_SOFT_PERCENT, round(cpu.softPercent(), 2));
            m.put(AcceptanceSchema.W_SYS_PERCENT, round(cpu.sysPercent(), 2));
        });
        return m;
    }

    private static void putIfPresent(Map<String, Object> m, String key, Double value) {
        if (value != null) {
            m.put(key, round(value, 3));
        }
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    private static String cut(String text) {
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE - 1) + "…";
    }
}
