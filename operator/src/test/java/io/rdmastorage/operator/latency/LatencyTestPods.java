package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.report.Report;
import io.rdmastorage.probe.report.ReportJson;
import io.rdmastorage.testing.PodStatuses;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Latency pods as the API server would hold them, in each state, with reports node-probe's own code writes. */
final class LatencyTestPods {

    static final OperatorConfig CONFIG = new OperatorConfig("rso", "registry.example/node-probe:1", "IfNotPresent",
            false, 0);

    private LatencyTestPods() {
    }

    static RdmaStorageProfile profile(String probeTimeout) {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.getMetadata().setName("lat");
        profile.getMetadata().setUid("6b1f4a0e-2c3d-4e5f-8a9b-0c1d2e3f4a5b");
        profile.getMetadata().setGeneration(2L);
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setProbeTimeout(probeTimeout);
        LatencyCheckSpec latency = new LatencyCheckSpec();
        latency.setDevice("mlx5_0");
        spec.setLatency(latency);
        profile.setSpec(spec);
        return profile;
    }

    /** A pod as stored: with a creation time. */
    static Pod stored(Pod pod, Instant created) {
        return new PodBuilder(pod).editMetadata().withCreationTimestamp(created.toString()).endMetadata().build();
    }

    static Pod running(Pod pod, Instant started) {
        return new PodBuilder(pod).withStatus(PodStatuses.running(pod, "10.0.0.1", started)).build();
    }

    static Pod pending(Pod pod, Instant started) {
        return new PodBuilder(pod).withStatus(PodStatuses.containerCreating(pod, "10.0.0.1", started)).build();
    }

    static Pod finished(Pod pod, Instant started, int exitCode, String message) {
        return new PodBuilder(pod).withStatus(PodStatuses.terminated(pod, "10.0.0.1", started, started.plusSeconds(2),
                Map.of("node-probe", new PodStatuses.Exit(exitCode, message)))).build();
    }

    /** node-probe's report of a latency-client with one VerbsLatency result. */
    static String report(String node, Status status, String reason, String message, Map<String, Object> details) {
        CheckResult.Builder b = CheckResult.builder(CheckType.VERBS_LATENCY);
        details.forEach(b::detail);
        CheckResult result = b.condition(status, reason, message).build();
        return ReportJson.compact(Report.of(node, "test", "2024-05-01T10:00:00Z", 1200, List.of(result)));
    }

    static LatencyPod read(Pod pod) {
        return LatencyPod.of(pod).orElseThrow();
    }
}
