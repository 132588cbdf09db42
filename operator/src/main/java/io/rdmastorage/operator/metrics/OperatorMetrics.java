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
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operator's own Prometheus metrics, per profile and check. Micrometer names use dots; the
 * Prometheus registry turns them into the exported names given with each constant.
 *
 * <p>Label values stay bounded: profiles (a handful), check types, three statuses, the fixed sets
 * of check and probe failure reasons, two transports; only the verbs latency (two series per node of a
 * profile with a latency section) and the recommended actions (one per node's check that asks for
 * one: failing nodes, not all) are per node. Removing a profile removes all its series, so a deleted profile
 * does not linger on dashboards as a frozen gauge.
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
     * {@code rdmastorage_check_reason_nodes{profile, check, status, reason}}: nodes by one check's
     * condition status and reason (TcpFallback, TransportTcp, ProbeTimedOut, ...): why checks fail.
     */
    public static final String CHECK_REASON_NODES = "rdmastorage.check.reason.nodes";
    /**
     * {@code rdmastorage_verbs_latency_seconds{profile, node, statistic=typical|p99}}: the last
     * verbs latency measurement of each node (perftest's t_typical and 99th percentile), while it
     * counts: a node whose VerbsLatency is Unknown (expired, not measured) has no series.
     */
    public static final String VERBS_LATENCY = "rdmastorage.verbs.latency.seconds";
    /**
     * {@code rdmastorage_node_recommended_action{profile, node, check, reason, action}}: 1 for each
     * node's check whose condition recommends an action other than None (ReseatCable, ReplaceNIC,
     * FixConfig, RestartDaemon, InvestigateNode), as its {@code status.details[<check>].recommendedAction}
     * says: per node, but only while something is to be done there.
     */
    public static final String RECOMMENDED_ACTION = "rdmastorage.node.recommended.action";
    public static final String ACTION = "action";
    /**
     * {@code rdmastorage_fleet_distinct_values{profile, fact, allow_mixed}}: how many distinct values
     * an inventory fact has over the profile's nodes (1 = uniform); allow_mixed "true" when
     * fleet.allowMixed names the fact.
     */
    public static final String FLEET_DISTINCT_VALUES = "rdmastorage.fleet.distinct.values";
    public static final String FACT = "fact";
    public static final String ALLOW_MIXED = "allow_mixed";
    /**
     * {@code rdmastorage_storage_bytes_per_second{profile, transport=rdma|tcp}}: the storage bytes per
     * second the profile's nodes moved in their last RdmaTraffic window, summed (rdma: ports that
     * count bytes; soft-RoCE counts packets only).
     */
    public static final String STORAGE_BYTES = "rdmastorage.storage.bytes.per.second";
    /** {@code rdmastorage_storage_packets_per_second{profile, transport=rdma}}: RDMA packets per second, likewise. */
    public static final String STORAGE_PACKETS = "rdmastorage.storage.packets.per.second";
    /**
     * {@code rdmastorage_storage_rails{profile, state=carrying|idle}}: the storage clients' rails over
     * the profile's nodes' last traffic windows ({@link StorageRailCounts}).
     */
    public static final String STORAGE_RAILS = "rdmastorage.storage.rails";
    public static final String STATE = "state";

    /** Acceptance runs that ended, by target, phase and RdmaEffective (counter: rdmastorage_acceptance_runs_total). */
    public static final String ACCEPTANCE_RUNS = "rdmastorage.acceptance.runs";
    /** TCP divided by RDMA in a node's last acceptance run that compared them, by target and statistic. */
    public static final String ACCEPTANCE_RATIO = "rdmastorage.acceptance.ratio";
    public static final String TARGET = "target";
    public static final String PHASE = "phase";
    public static final String RDMA_EFFECTIVE = "rdma_effective";
    public static final String PROFILE = "profile";
    public static final String CHECK = "check";
    public static final String STATUS = "status";
    public static final String REASON = "reason";
    public static final String NODE = "node";
    public static final String STATISTIC = "statistic";
    public static final String TRANSPORT = "transport";

    /** Histogram buckets for probe durations: a full probe takes about a second, a timeout minutes. */
    private static final Duration[] PROBE_BUCKETS = {
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
        Duration.ofSeconds(120), Duration.ofSeconds(300)
    };

    /** One gauge series: its name, its profile and its other labels. */
    private record SeriesKey(String name, String profile, Map<String, String> labels) {

        SeriesKey {
            labels = Map.copyOf(labels);
        }

        static SeriesKey of(String name, String profile, String... labelPairs) {
            Map<String, String> labels = new TreeMap<>();
            for (int i = 0; i < labelPairs.length; i += 2) {
                labels.put(labelPairs[i], labelPairs[i + 1]);
            }
            return new SeriesKey(name, profile, labels);
        }
    }

    /** A gauge's value: whole counts, or a measurement (latency in seconds) as the bits of a double. */
    private record GaugeSeries(Gauge gauge, AtomicLong bits) {
    }

    private static final Map<String, String> DESCRIPTIONS = Map.of(
            NODES, "Nodes matching the profile, by verdict",
            CHECK_NODES, "Nodes matching the profile, by the status of one check",
            CHECK_REASON_NODES, "Nodes matching the profile, by the status and reason of one check",
            VERBS_LATENCY, "The node's last verbs latency measurement (ib_write_lat) that counts, by statistic",
            RECOMMENDED_ACTION, "1 for each node's check whose condition recommends an action other than None",
            FLEET_DISTINCT_VALUES, "Distinct values of one inventory fact over the profile's nodes (1 = uniform)",
            STORAGE_BYTES, "Storage bytes per second the profile's nodes moved in their last traffic window, by transport",
            STORAGE_PACKETS, "RDMA packets per second the profile's nodes moved in their last traffic window",
            STORAGE_RAILS, "Storage rails of the profile's nodes in their last traffic window, carrying their share or idle");

    private final MeterRegistry registry;
    private final Map<SeriesKey, GaugeSeries> gauges = new ConcurrentHashMap<>();
    /** Acceptance gauges: per node, not per profile (a run belongs to no profile). */
    private final Map<Map<String, String>, GaugeSeries> acceptanceGauges = new ConcurrentHashMap<>();

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
        setGauge(SeriesKey.of(NODES, profile, STATUS, "ready"), nodes.getReady());
        setGauge(SeriesKey.of(NODES, profile, STATUS, "not_ready"), nodes.getNotReady());
        setGauge(SeriesKey.of(NODES, profile, STATUS, "unknown"), nodes.getUnknown());
        Map<SeriesKey, Double> checks = new HashMap<>();
        checkNodes.forEach((check, counts) -> {
            checks.put(SeriesKey.of(CHECK_NODES, profile, CHECK, check, STATUS, "true"), (double) counts.getReady());
            checks.put(SeriesKey.of(CHECK_NODES, profile, CHECK, check, STATUS, "false"), (double) counts.getNotReady());
            checks.put(SeriesKey.of(CHECK_NODES, profile, CHECK, check, STATUS, "unknown"), (double) counts.getUnknown());
        });
        setFamily(CHECK_NODES, profile, checks);
    }

    /**
     * Sets a profile's {@code rdmastorage_check_reason_nodes} from its nodes' conditions; a reason
     * no node has any more loses its series.
     *
     * @param reasonNodes how many nodes have a check's condition with a status and reason
     */
    public void updateCheckReasons(String profile, Map<VerdictCounts.CheckReason, Long> reasonNodes) {
        Map<SeriesKey, Double> series = new HashMap<>();
        reasonNodes.forEach((r, count) -> series.put(SeriesKey.of(CHECK_REASON_NODES, profile, CHECK, r.check(),
                STATUS, r.status().toLowerCase(Locale.ROOT), REASON, r.reason()), count.doubleValue()));
        setFamily(CHECK_REASON_NODES, profile, series);
    }

    /**
     * Sets a profile's {@code rdmastorage_verbs_latency_seconds} per node; nodes absent here (no
     * measurement that counts) lose their series.
     */
    public void updateVerbsLatency(String profile, Map<String, LatencyResult> byNode) {
        Map<SeriesKey, Double> series = new HashMap<>();
        byNode.forEach((node, latency) -> {
            if (latency.getTypicalMicros() != null) {
                series.put(SeriesKey.of(VERBS_LATENCY, profile, NODE, node, STATISTIC, "typical"), latency.getTypicalMicros() / 1e6);
            }
            if (latency.getP99Micros() != null) {
                series.put(SeriesKey.of(VERBS_LATENCY, profile, NODE, node, STATISTIC, "p99"), latency.getP99Micros() / 1e6);
            }
        });
        setFamily(VERBS_LATENCY, profile, series);
    }

    /**
     * Sets a profile's {@code rdmastorage_node_recommended_action}: 1 per node's check in
     * {@code actions}; the others lose their series.
     */
    public void updateRecommendedActions(String profile, Collection<VerdictCounts.NodeAction> actions) {
        Map<SeriesKey, Double> series = new HashMap<>();
        actions.forEach(a -> series.put(SeriesKey.of(RECOMMENDED_ACTION, profile, NODE, a.node(), CHECK, a.check(),
                REASON, a.reason(), ACTION, a.action().wire()), 1.0));
        setFamily(RECOMMENDED_ACTION, profile, series);
    }

    /**
     * Sets a profile's fleet gauges: per inventory fact its number of distinct values over the
     * nodes; facts no node reports any more lose their series. Facts are a fixed dozen: bounded.
     */
    public void updateFleet(String profile, Map<String, Integer> distinctValues, java.util.Set<String> allowMixed) {
        Map<SeriesKey, Double> series = new HashMap<>();
        distinctValues.forEach((fact, distinct) -> series.put(SeriesKey.of(FLEET_DISTINCT_VALUES, profile, FACT, fact,
                ALLOW_MIXED, String.valueOf(allowMixed.contains(fact))), distinct.doubleValue()));
        setFamily(FLEET_DISTINCT_VALUES, profile, series);
    }

    /** Sets a profile's storage traffic gauges; a profile without any node's traffic window has none. */
    public void updateTraffic(String profile, VerdictCounts.StorageTraffic traffic) {
        Objects.requireNonNull(profile, "profile");
        Map<SeriesKey, Double> bytes = new HashMap<>();
        Map<SeriesKey, Double> packets = new HashMap<>();
        if (traffic.nodes() > 0) {
            bytes.put(SeriesKey.of(STORAGE_BYTES, profile, TRANSPORT, "rdma"), (double) traffic.rdmaBytesPerSecond());
            bytes.put(SeriesKey.of(STORAGE_BYTES, profile, TRANSPORT, "tcp"), (double) traffic.tcpBytesPerSecond());
            packets.put(SeriesKey.of(STORAGE_PACKETS, profile, TRANSPORT, "rdma"), (double) traffic.rdmaPacketsPerSecond());
        }
        setFamily(STORAGE_BYTES, profile, bytes);
        setFamily(STORAGE_PACKETS, profile, packets);
    }

    /** Sets a profile's rail gauges; a profile without any node's traffic window has none. */
    public void updateRails(String profile, StorageRailCounts rails) {
        Objects.requireNonNull(profile, "profile");
        Map<SeriesKey, Double> series = new HashMap<>();
        if (rails.windows() > 0) {
            series.put(SeriesKey.of(STORAGE_RAILS, profile, STATE, "carrying"), (double) rails.carrying());
            series.put(SeriesKey.of(STORAGE_RAILS, profile, STATE, "idle"), (double) rails.idle());
        }
        setFamily(STORAGE_RAILS, profile, series);
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
     * An acceptance run ended.
     *
     * @param target        nvmeof or path (the spec's target)
     * @param phase         Succeeded or Failed
     * @param rdmaEffective its RdmaEffective status: True, False or Unknown
     */
    public void recordAcceptanceRun(String target, String phase, String rdmaEffective) {
        acceptanceRuns(target, phase, rdmaEffective).increment();
    }

    /**
     * Every series of {@code rdmastorage_acceptance_runs_total} at 0, before any run ends: a counter
     * that first appears at 1 has no increase in Prometheus, and the first failed run would alert
     * nobody. Targets × 2 phases × 3 statuses: a dozen or two series.
     */
    public void registerAcceptanceRuns(List<String> targets) {
        for (String target : targets) {
            for (String phase : List.of("Succeeded", "Failed")) {
                for (String status : List.of("True", "False", "Unknown")) {
                    acceptanceRuns(target, phase, status);
                }
            }
        }
    }

    private Counter acceptanceRuns(String target, String phase, String rdmaEffective) {
        return Counter.builder(ACCEPTANCE_RUNS)
                .description("Acceptance runs that ended, by target, phase and RdmaEffective")
                .tag(TARGET, target)
                .tag(PHASE, phase)
                .tag(RDMA_EFFECTIVE, rdmaEffective)
                .register(registry);
    }

    /**
     * Sets a node's acceptance ratios for one target (statistic latency, latency_p99, cpu_per_io,
     * bandwidth → TCP/RDMA); statistics absent here lose their series. One series per node that
     * ran an acceptance run and statistic: bounded by the nodes commissioned, not by runs.
     */
    public void setAcceptanceRatios(String node, String target, Map<String, Double> byStatistic) {
        acceptanceGauges.keySet().stream()
                .filter(k -> k.get(NODE).equals(node) && k.get(TARGET).equals(target) && !byStatistic.containsKey(k.get(STATISTIC)))
                .toList().forEach(k -> registry.remove(acceptanceGauges.remove(k).gauge()));
        byStatistic.forEach((statistic, value) -> {
            Map<String, String> labels = Map.of(NODE, node, TARGET, target, STATISTIC, statistic);
            GaugeSeries series = acceptanceGauges.computeIfAbsent(labels, l -> {
                AtomicLong bits = new AtomicLong();
                Gauge.Builder<AtomicLong> builder = Gauge.builder(ACCEPTANCE_RATIO, bits, b -> Double.longBitsToDouble(b.get()))
                        .strongReference(true)
                        .description("TCP divided by RDMA in the node's last acceptance run that compared them (above 1: RDMA "
                                + "is faster or cheaper)");
                l.forEach(builder::tag);
                return new GaugeSeries(builder.register(registry), bits);
            });
            series.bits().set(Double.doubleToLongBits(value));
        });
    }

    private void setGauge(SeriesKey key, double value) {
        gauges.computeIfAbsent(key, this::registerGauge).bits().set(Double.doubleToLongBits(value));
    }

    /** Sets a profile's series of one metric and removes the ones of that metric not among them. */
    private void setFamily(String name, String profile, Map<SeriesKey, Double> series) {
        series.forEach(this::setGauge);
        gauges.keySet().stream()
                .filter(k -> k.name().equals(name) && k.profile().equals(profile) && !series.containsKey(k))
                .toList()
                .forEach(this::removeGauge);
    }

    private GaugeSeries registerGauge(SeriesKey key) {
        AtomicLong bits = new AtomicLong(Double.doubleToLongBits(0));
        Gauge.Builder<AtomicLong> builder = Gauge.builder(key.name(), bits, b -> Double.longBitsToDouble(b.get()))
                .strongReference(true)
                .tag(PROFILE, key.profile())
                .description(DESCRIPTIONS.get(key.name()));
        key.labels().forEach(builder::tag);
        return new GaugeSeries(builder.register(registry), bits);
    }

    private void removeGauge(SeriesKey key) {
        GaugeSeries series = gauges.remove(key);
        if (series != null) {
            registry.remove(series.gauge());
        }
    }
}
