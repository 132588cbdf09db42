package io.rdmastorage.operator.metrics;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.checks.RdmaTraffic;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operator's own Prometheus metrics, per profile and check. Micrometer names use dots; the
 * Prometheus registry turns them into the exported names given with each constant.
 *
 * <p>Label values stay bounded: profiles (a handful), check types (a dozen plus Ready), three
 * statuses, the reasons the checks declare, two transports, and the fixed set of probe failure reasons. Removing a profile removes all its series,
 * so a deleted profile does not linger on dashboards as a frozen gauge.
 */
public final class OperatorMetrics {

    /** {@code rdmastorage_nodes{profile, status=ready|not_ready|unknown}}: matching nodes by verdict. */
    public static final String NODES = "rdmastorage.nodes";
    /** {@code rdmastorage_check_nodes{profile, check, status=true|false|unknown}}: nodes by one check's condition status. */
    public static final String CHECK_NODES = "rdmastorage.check.nodes";
    /** {@code rdmastorage_probe_duration_seconds{profile}}: histogram of how long probes took. */
    public static final String PROBE_DURATION = "rdmastorage.probe.duration";
    /** {@code rdmastorage_probe_failures_total{profile, reason}}: probes that gave no report. */
    public static final String PROBE_FAILURES = "rdmastorage.probe.failures";
    /** {@code rdmastorage_verdict_changes_total{profile, check}}: condition status changes on nodes. */
    public static final String VERDICT_CHANGES = "rdmastorage.verdict.changes";
    /**
     * {@code rdmastorage_check_reason_nodes{profile, check, reason}}: nodes by one check's reason
     * (DataOnTcp, TcpFallback, TransportTcp, ...); only reasons some node has are exported.
     */
    public static final String CHECK_REASON_NODES = "rdmastorage.check.reason.nodes";
    /**
     * {@code rdmastorage_storage_bytes_per_second{profile, transport=rdma|tcp}}: the storage bytes per
     * second the profile's nodes moved in their last RdmaTraffic window, summed (rdma: ports that
     * count bytes; soft-RoCE counts packets only).
     */
    public static final String STORAGE_BYTES = "rdmastorage.storage.bytes.per.second";
    /** {@code rdmastorage_storage_packets_per_second{profile, transport=rdma}}: RDMA packets per second, likewise. */
    public static final String STORAGE_PACKETS = "rdmastorage.storage.packets.per.second";

    public static final String PROFILE = "profile";
    public static final String CHECK = "check";
    public static final String STATUS = "status";
    public static final String REASON = "reason";
    public static final String TRANSPORT = "transport";
    /** The RdmaTraffic check's condition type and the facts of its details that the traffic gauges sum. */
    static final String TRAFFIC_CHECK = RdmaTraffic.DESCRIPTOR.conditionType();

    /** Histogram buckets for probe durations: a full probe takes about a second, a timeout minutes. */
    private static final Duration[] PROBE_BUCKETS = {
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
        Duration.ofSeconds(120), Duration.ofSeconds(300)
    };

    /** One gauge series: {@code status} is the value of its last label, named {@code label} (status, transport, reason). */
    private record SeriesKey(String name, String profile, String check, String label, String status) {
        SeriesKey(String name, String profile, String check, String status) {
            this(name, profile, check, STATUS, status);
        }
    }

    /**
     * The profile's storage traffic from its nodes' last RdmaTraffic windows: bytes per second over
     * RDMA (where counted) and over TCP, RDMA packets per second, and how many nodes reported.
     */
    public record StorageTraffic(long rdmaBytesPerSecond, long tcpBytesPerSecond, long rdmaPacketsPerSecond, int nodes) {
    }

    private record GaugeSeries(Gauge gauge, AtomicLong value) {
    }

    private final MeterRegistry registry;
    private final Map<SeriesKey, GaugeSeries> gauges = new ConcurrentHashMap<>();

    public OperatorMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * The registry the operator exports: Prometheus text format, what {@link HealthServer} serves.
     * With the JVM's own meters (heap and non-heap by pool, GC pauses, threads, process CPU time
     * and usage), so an operator's memory and CPU can be watched and its limits sized from them.
     */
    public static PrometheusMeterRegistry newPrometheusRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        // GC notifications are listened to for the JVM's lifetime: one registry per process
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        return registry;
    }

    /**
     * java-operator-sdk's own metrics (reconciliations, events, failures, queue sizes) on the same
     * registry, for {@code ConfigurationServiceOverrider.withMetrics}. Per-resource series are on:
     * the primary resources are profiles, a handful; JOSDK drops a deleted profile's series after
     * the clean-up delay.
     */
    public static Metrics josdkMetrics(MeterRegistry registry) {
        return MicrometerMetrics.newPerResourceCollectingMicrometerMetricsBuilder(registry)
                .withCleanUpDelayInSeconds(300)
                .withCleaningThreadNumber(1)
                .build();
    }

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Sets a profile's gauges from its aggregated status.
     *
     * @param nodes      the profile's node counts (ready / notReady / unknown)
     * @param checkNodes per check type (RdmaDevices, GpfsVerbs, ...), how many nodes have it
     *                   True (ready), False (notReady) and Unknown; checks absent here lose their series
     */
    public void updateProfile(String profile, NodeCounts nodes, Map<String, NodeCounts> checkNodes) {
        Objects.requireNonNull(profile, "profile");
        setGauge(new SeriesKey(NODES, profile, null, "ready"), nodes.getReady());
        setGauge(new SeriesKey(NODES, profile, null, "not_ready"), nodes.getNotReady());
        setGauge(new SeriesKey(NODES, profile, null, "unknown"), nodes.getUnknown());
        checkNodes.forEach((check, counts) -> {
            setGauge(new SeriesKey(CHECK_NODES, profile, check, "true"), counts.getReady());
            setGauge(new SeriesKey(CHECK_NODES, profile, check, "false"), counts.getNotReady());
            setGauge(new SeriesKey(CHECK_NODES, profile, check, "unknown"), counts.getUnknown());
        });
        gauges.keySet().stream()
                .filter(k -> k.name().equals(CHECK_NODES) && k.profile().equals(profile)
                        && !checkNodes.containsKey(k.check()))
                .toList()
                .forEach(this::removeGauge);
    }

    /** Sets a profile's reason gauges: per check type, per reason, how many nodes have it; absent reasons lose their series. */
    public void updateReasons(String profile, Map<String, Map<String, Long>> reasonNodes) {
        Objects.requireNonNull(profile, "profile");
        reasonNodes.forEach((check, reasons) -> reasons.forEach((reason, count) ->
                setGauge(new SeriesKey(CHECK_REASON_NODES, profile, check, REASON, reason), count)));
        gauges.keySet().stream()
                .filter(k -> k.name().equals(CHECK_REASON_NODES) && k.profile().equals(profile)
                        && !reasonNodes.getOrDefault(k.check(), Map.of()).containsKey(k.status()))
                .toList()
                .forEach(this::removeGauge);
    }

    /** Sets a profile's storage traffic gauges; a profile without any node's traffic window has none. */
    public void updateTraffic(String profile, StorageTraffic traffic) {
        Objects.requireNonNull(profile, "profile");
        List<SeriesKey> keys = List.of(new SeriesKey(STORAGE_BYTES, profile, null, TRANSPORT, "rdma"),
                new SeriesKey(STORAGE_BYTES, profile, null, TRANSPORT, "tcp"),
                new SeriesKey(STORAGE_PACKETS, profile, null, TRANSPORT, "rdma"));
        if (traffic.nodes() == 0) {
            keys.forEach(this::removeGauge);
            return;
        }
        setGauge(keys.get(0), traffic.rdmaBytesPerSecond());
        setGauge(keys.get(1), traffic.tcpBytesPerSecond());
        setGauge(keys.get(2), traffic.rdmaPacketsPerSecond());
    }

    /** Removes every series of the profile: gauges, probe durations, failures, verdict changes. */
    public void removeProfile(String profile) {
        gauges.keySet().stream().filter(k -> k.profile().equals(profile)).toList().forEach(this::removeGauge);
        for (String name : List.of(PROBE_DURATION, PROBE_FAILURES, VERDICT_CHANGES)) {
            registry.find(name).tag(PROFILE, profile).meters().forEach(registry::remove);
        }
    }

    /** A probe that produced a report, however long it took. */
    public void recordProbeDuration(String profile, Duration duration) {
        Timer.builder(PROBE_DURATION)
                .description("How long node probes took, from the probe's own report")
                .tag(PROFILE, profile)
                .serviceLevelObjectives(PROBE_BUCKETS)
                .register(registry)
                .record(duration);
    }

    /**
     * A probe that gave no usable report.
     *
     * @param reason the Unknown reason it became: ProbeTimedOut, ProbeFailedToStart, ReportUnparseable, ...
     */
    public void recordProbeFailure(String profile, String reason) {
        Counter.builder(PROBE_FAILURES)
                .description("Probes that did not give a usable report, by reason")
                .tag(PROFILE, profile)
                .tag(REASON, reason == null ? "Unknown" : reason)
                .register(registry)
                .increment();
    }

    /** One node's condition of this check type changed status (Ready counts as a check here). */
    public void recordVerdictChange(String profile, String check) {
        Counter.builder(VERDICT_CHANGES)
                .description("Changes of a node's condition status, per check")
                .tag(PROFILE, profile)
                .tag(CHECK, check)
                .register(registry)
                .increment();
    }

    /**
     * Per check type, how many nodes have that condition True, False and Unknown, from each node's
     * conditions; {@code Ready} is left out (it is {@code rdmastorage_nodes}).
     */
    public static Map<String, NodeCounts> countChecks(Iterable<? extends List<Condition>> nodeConditions) {
        Map<String, NodeCounts> counts = new TreeMap<>();
        for (List<Condition> conditions : nodeConditions) {
            if (conditions == null) {
                continue;
            }
            for (Condition c : conditions) {
                if (c.getType() == null || "Ready".equals(c.getType())) {
                    continue;
                }
                NodeCounts n = counts.computeIfAbsent(c.getType(), t -> new NodeCounts());
                n.setMatched(n.getMatched() + 1);
                switch (String.valueOf(c.getStatus())) {
                    case "True" -> n.setReady(n.getReady() + 1);
                    case "False" -> n.setNotReady(n.getNotReady() + 1);
                    default -> n.setUnknown(n.getUnknown() + 1);
                }
            }
        }
        return counts;
    }

    /** Per check type (Ready left out), per reason, how many nodes have their condition with it. */
    public static Map<String, Map<String, Long>> countReasons(Iterable<? extends List<Condition>> nodeConditions) {
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (List<Condition> conditions : nodeConditions) {
            if (conditions == null) {
                continue;
            }
            for (Condition c : conditions) {
                if (c.getType() == null || c.getReason() == null || "Ready".equals(c.getType())) {
                    continue;
                }
                counts.computeIfAbsent(c.getType(), t -> new TreeMap<>()).merge(c.getReason(), 1L, Long::sum);
            }
        }
        return counts;
    }

    /**
     * The storage traffic of nodes whose RdmaTraffic condition carries one of the probe's own
     * reasons (a measured window: not expired, not a failed probe), from that check's details.
     */
    public static StorageTraffic storageTraffic(Iterable<RdmaStorageNodeStatus> nodes) {
        long rdma = 0;
        long tcp = 0;
        long packets = 0;
        int measured = 0;
        for (RdmaStorageNodeStatus node : nodes) {
            if (node == null || node.getConditions() == null || node.getDetails() == null) {
                continue;
            }
            boolean windowed = node.getConditions().stream().anyMatch(c -> TRAFFIC_CHECK.equals(c.getType())
                    && RdmaTraffic.DESCRIPTOR.reasons().stream().anyMatch(r -> r.name().equals(c.getReason())));
            JsonNode facts = node.getDetails().get(TRAFFIC_CHECK);
            if (!windowed || facts == null) {
                continue;
            }
            measured++;
            rdma += facts.path("rdmaBytesPerSecond").asLong(0);
            tcp += facts.path("tcpBytesPerSecond").asLong(0);
            packets += facts.path("rdmaPacketsPerSecond").asLong(0);
        }
        return new StorageTraffic(rdma, tcp, packets, measured);
    }

    private void setGauge(SeriesKey key, long value) {
        gauges.computeIfAbsent(key, this::registerGauge).value().set(value);
    }

    private GaugeSeries registerGauge(SeriesKey key) {
        AtomicLong value = new AtomicLong();
        Gauge.Builder<AtomicLong> builder = Gauge.builder(key.name(), value, AtomicLong::get)
                .strongReference(true)
                .tag(PROFILE, key.profile())
                .tag(key.label(), key.status());
        if (key.check() != null) {
            builder.tag(CHECK, key.check());
        }
        builder.description(switch (key.name()) {
            case NODES -> "Nodes matching the profile, by verdict";
            case CHECK_NODES -> "Nodes matching the profile, by the status of one check";
            case CHECK_REASON_NODES -> "Nodes matching the profile, by the reason of one check";
            case STORAGE_BYTES -> "Storage bytes per second the profile's nodes moved in their last traffic window, by transport";
            default -> "RDMA packets per second the profile's nodes moved in their last traffic window";
        });
        return new GaugeSeries(builder.register(registry), value);
    }

    private void removeGauge(SeriesKey key) {
        GaugeSeries series = gauges.remove(key);
        if (series != null) {
            registry.remove(series.gauge());
        }
    }
}
