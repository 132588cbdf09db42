package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptanceRatios;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rdmastorage_acceptance_ratio}: per node and target, the ratios of the node's latest
 * Succeeded run that compared RDMA with TCP. Fed by every finished run the reconciler sees, so an
 * operator restart shows them again from the runs' statuses; a run without ratios (a path run with
 * nothing to compare with) leaves the last comparison shown.
 */
final class AcceptanceGauges {

    private record Shown(String run, Instant completed) {
    }

    private final OperatorMetrics metrics;
    private final Map<String, Shown> shown = new ConcurrentHashMap<>();

    AcceptanceGauges(OperatorMetrics metrics) {
        this.metrics = metrics;
    }

    /** A finished run, with the status it has (or is about to have). */
    void show(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status) {
        AcceptanceRatios ratios = status.getRatios();
        if (ratios == null || !Reasons.Acceptance.SUCCEEDED.equals(status.getPhase()) || status.getCompletionTime() == null) {
            return;
        }
        Instant completed = Timestamps.parse(status.getCompletionTime()).orElse(Instant.EPOCH);
        String node = run.getSpec().getNodeName();
        String target = AcceptanceTarget.name(run.getSpec());
        Shown before = shown.get(node + "/" + target);
        if (before != null && before.completed().isAfter(completed)) {
            return;
        }
        shown.put(node + "/" + target, new Shown(run.getMetadata().getName(), completed));
        Map<String, Double> values = new LinkedHashMap<>();
        put(values, "latency", ratios.getLatency());
        put(values, "latency_p99", ratios.getLatencyP99());
        put(values, "cpu_per_io", ratios.getCpuPerIo());
        put(values, "bandwidth", ratios.getBandwidth());
        metrics.setAcceptanceRatios(node, target, values);
    }

    /** A deleted run: the node's series go when they were this run's (no older run is looked for). */
    void forget(RdmaStorageAcceptance run) {
        if (run.getSpec() == null) {
            return;
        }
        String key = run.getSpec().getNodeName() + "/" + AcceptanceTarget.name(run.getSpec());
        Shown s = shown.get(key);
        if (s != null && s.run().equals(run.getMetadata().getName())) {
            shown.remove(key);
            metrics.setAcceptanceRatios(run.getSpec().getNodeName(), AcceptanceTarget.name(run.getSpec()), Map.of());
        }
    }

    private static void put(Map<String, Double> values, String statistic, Double value) {
        if (value != null) {
            values.put(statistic, value);
        }
    }
}
