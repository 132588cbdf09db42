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
import io.rdmastorage.operator.api.NodeCounts;
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
 * <p>Label values stay bounded: profiles (a handful), check types (six plus Ready), three
 * statuses, and the fixed set of probe failure reasons. Removing a profile removes all its series,
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
     * {@code rdmastorage_fleet_distinct_values{profile, fact, allow_mixed}}: how many distinct values
     * an inventory fact has over the profile's nodes (1 = uniform); allow_mixed "true" when
     * fleet.allowMixed names the fact.
     */
    public static final String FLEET_DISTINCT_VALUES = "rdmastorage.fleet.distinct.values";
    public static final String FACT = "fact";
    public static final String ALLOW_MIXED = "allow_mixed";

    public static final String PROFILE = "profile";
    public static final String CHECK = "check";
    public static final String STATUS = "status";
    public static final String REASON = "reason";

    /** Histogram buckets for probe durations: a full probe takes about a second, a timeout minutes. */
    private static final Duration[] PROBE_BUCKETS = {
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
        Duration.ofSeconds(120), Duration.ofSeconds(300)
    };

    /** One gauge series; for {@link #FLEET_DISTINCT_VALUES}, {@code check} is the fact and {@code status} allow_mixed. */
    private record SeriesKey(String name, String profile, String check, String status) {
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

    /**
     * Sets a profile's fleet gauges: per inventory fact its number of distinct values over the
     * nodes; facts no node reports any more lose their series. Facts are a fixed dozen: bounded.
     */
    public void updateFleet(String profile, Map<String, Integer> distinctValues, java.util.Set<String> allowMixed) {
        Objects.requireNonNull(profile, "profile");
        java.util.Set<SeriesKey> current = new java.util.HashSet<>();
        distinctValues.forEach((fact, distinct) -> {
            SeriesKey key = new SeriesKey(FLEET_DISTINCT_VALUES, profile, fact, String.valueOf(allowMixed.contains(fact)));
            current.add(key);
            setGauge(key, distinct);
        });
        gauges.keySet().stream()
                .filter(k -> k.name().equals(FLEET_DISTINCT_VALUES) && k.profile().equals(profile) && !current.contains(k))
                .toList()
                .forEach(this::removeGauge);
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

    private void setGauge(SeriesKey key, long value) {
        gauges.computeIfAbsent(key, this::registerGauge).value().set(value);
    }

    private GaugeSeries registerGauge(SeriesKey key) {
        AtomicLong value = new AtomicLong();
        Gauge.Builder<AtomicLong> builder = Gauge.builder(key.name(), value, AtomicLong::get)
                .strongReference(true)
                .tag(PROFILE, key.profile());
        if (key.name().equals(FLEET_DISTINCT_VALUES)) {
            return new GaugeSeries(builder.tag(FACT, key.check()).tag(ALLOW_MIXED, key.status())
                    .description("Distinct values of one inventory fact over the profile's nodes (1 = uniform)")
                    .register(registry), value);
        }
        builder.tag(STATUS, key.status());
        if (key.check() != null) {
            builder.tag(CHECK, key.check());
        }
        builder.description(key.check() == null
                ? "Nodes matching the profile, by verdict"
                : "Nodes matching the profile, by the status of one check");
        return new GaugeSeries(builder.register(registry), value);
    }

    private void removeGauge(SeriesKey key) {
        GaugeSeries series = gauges.remove(key);
        if (series != null) {
            registry.remove(series.gauge());
        }
    }
}
