package io.rdmastorage.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorMetricsTest {

    private final PrometheusMeterRegistry registry = OperatorMetrics.newPrometheusRegistry();
    private final OperatorMetrics metrics = new OperatorMetrics(registry);

    private static NodeCounts counts(int ready, int notReady, int unknown) {
        NodeCounts c = new NodeCounts();
        c.setMatched(ready + notReady + unknown);
        c.setReady(ready);
        c.setNotReady(notReady);
        c.setUnknown(unknown);
        return c;
    }

    private static Condition condition(String type, String status) {
        return new ConditionBuilder().withType(type).withStatus(status).build();
    }

    @Test
    void profileGaugesFollowTheAggregatedStatus() {
        metrics.updateProfile("gds", counts(37, 2, 1),
                Map.of("GpfsVerbs", counts(38, 1, 1), "GdsReady", counts(39, 1, 0)));

        String text = registry.scrape();
        assertThat(text)
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"ready\"} 37")
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"not_ready\"} 2")
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"unknown\"} 1")
                .contains("rdmastorage_check_nodes{check=\"GpfsVerbs\",profile=\"gds\",status=\"false\"} 1")
                .contains("rdmastorage_check_nodes{check=\"GdsReady\",profile=\"gds\",status=\"true\"} 39");

        metrics.updateProfile("gds", counts(40, 0, 0), Map.of("GpfsVerbs", counts(40, 0, 0)));
        text = registry.scrape();
        assertThat(text)
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"ready\"} 40")
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"not_ready\"} 0")
                .contains("rdmastorage_check_nodes{check=\"GpfsVerbs\",profile=\"gds\",status=\"true\"} 40")
                .doesNotContain("check=\"GdsReady\"");
    }

    private static RdmaStorageNodeStatus trafficNode(String reason, String details) throws Exception {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setConditions(List.of(new ConditionBuilder().withType("RdmaTraffic").withStatus("True").withReason(reason).build()));
        status.setDetails(new java.util.LinkedHashMap<>(Map.of("RdmaTraffic", new ObjectMapper().readTree(details))));
        return status;
    }

    @Test
    void storageTrafficSumsTheMeasuredWindowsOfTheNodes() throws Exception {
        List<RdmaStorageNodeStatus> nodes = List.of(
                trafficNode("DataOverRdma", "{\"rdmaPacketsPerSecond\":400000,\"rdmaBytesPerSecond\":2100000000,\"tcpBytesPerSecond\":100000}"),
                trafficNode("DataOnTcp", "{\"rdmaPacketsPerSecond\":3,\"tcpBytesPerSecond\":67000000}"),
                // an expired result keeps its old details: not a current window
                trafficNode("ResultExpired", "{\"rdmaPacketsPerSecond\":9,\"tcpBytesPerSecond\":9}"));

        VerdictCounts.StorageTraffic traffic = VerdictCounts.storageTraffic(nodes);
        metrics.updateTraffic("data-path", traffic);

        assertThat(traffic).isEqualTo(new VerdictCounts.StorageTraffic(2_100_000_000L, 67_100_000L, 400_003L, 2));
        assertThat(registry.scrape())
                .contains("rdmastorage_storage_bytes_per_second{profile=\"data-path\",transport=\"rdma\"} 2.1E9")
                .contains("rdmastorage_storage_bytes_per_second{profile=\"data-path\",transport=\"tcp\"} 6.71E7")
                .contains("rdmastorage_storage_packets_per_second{profile=\"data-path\",transport=\"rdma\"} 400003.0");

        metrics.updateTraffic("data-path", VerdictCounts.storageTraffic(List.of()));
        assertThat(registry.scrape()).doesNotContain("rdmastorage_storage_bytes_per_second{")
                .doesNotContain("rdmastorage_storage_packets_per_second{");
    }

    @Test
    void railGaugesCountTheRailsOfTheMeasuredWindowsCarryingOrIdle() throws Exception {
        String twoRails = "{\"rdmaPacketsPerSecond\":10606,\"rails\":[{\"client\":\"NVMe-oF nqn.x\",\"port\":\"rxe1/1\","
                + "\"sharePercent\":100,\"idle\":false},{\"client\":\"NVMe-oF nqn.x\",\"port\":\"rxe3/1\",\"sharePercent\":0,"
                + "\"idle\":true}]}";
        List<RdmaStorageNodeStatus> nodes = List.of(trafficNode("RailIdle", twoRails), trafficNode("DataOverRdma",
                twoRails.replace("\"idle\":true", "\"idle\":false")), trafficNode("ResultExpired", twoRails));

        StorageRailCounts rails = StorageRailCounts.of(nodes);
        metrics.updateRails("data-path", rails);

        assertThat(rails).isEqualTo(new StorageRailCounts(3, 1, 2));
        assertThat(registry.scrape()).contains("rdmastorage_storage_rails{profile=\"data-path\",state=\"carrying\"} 3.0")
                .contains("rdmastorage_storage_rails{profile=\"data-path\",state=\"idle\"} 1.0");

        metrics.updateRails("data-path", StorageRailCounts.of(List.of()));
        assertThat(registry.scrape()).doesNotContain("rdmastorage_storage_rails{");
    }

    @Test
    void fleetGaugesCountDistinctValuesPerFactAndDropFactsNoLongerReported() {
        metrics.updateFleet("gds", Map.of("hcaFirmware", 2, "kernel", 3), java.util.Set.of("kernel"));

        assertThat(registry.scrape())
                .contains("rdmastorage_fleet_distinct_values{allow_mixed=\"false\",fact=\"hcaFirmware\",profile=\"gds\"} 2")
                .contains("rdmastorage_fleet_distinct_values{allow_mixed=\"true\",fact=\"kernel\",profile=\"gds\"} 3");

        metrics.updateFleet("gds", Map.of("hcaFirmware", 1), java.util.Set.of());

        String text = registry.scrape();
        assertThat(text).contains("rdmastorage_fleet_distinct_values{allow_mixed=\"false\",fact=\"hcaFirmware\",profile=\"gds\"} 1")
                .doesNotContain("fact=\"kernel\"");
        metrics.removeProfile("gds");
        assertThat(registry.scrape()).doesNotContain("rdmastorage_fleet_distinct_values{");
    }

    @Test
    void acceptanceRunsAreCountedFromZeroAndRatiosAreOneSeriesPerNodeAndStatistic() {
        metrics.registerAcceptanceRuns(List.of("nvmeof", "path"));
        String before = registry.scrape();
        assertThat(before).contains("rdmastorage_acceptance_runs_total{phase=\"Failed\",rdma_effective=\"Unknown\",target=\"path\"} 0.0");

        metrics.recordAcceptanceRun("path", "Succeeded", "False");
        metrics.setAcceptanceRatios("gpfs-01", "path", Map.of("latency", 3.5, "cpu_per_io", 4.0));
        metrics.setAcceptanceRatios("gpfs-01", "path", Map.of("latency", 3.7));

        String text = registry.scrape();
        assertThat(text).contains("rdmastorage_acceptance_runs_total{phase=\"Succeeded\",rdma_effective=\"False\",target=\"path\"} 1.0")
                .contains("rdmastorage_acceptance_ratio{node=\"gpfs-01\",statistic=\"latency\",target=\"path\"} 3.7")
                .doesNotContain("statistic=\"cpu_per_io\"");
        metrics.setAcceptanceRatios("gpfs-01", "path", Map.of());
        assertThat(registry.scrape()).doesNotContain("rdmastorage_acceptance_ratio{");
    }

    @Test
    void probeDurationsFailuresAndVerdictChanges() {
        metrics.recordProbeDuration("gds", Duration.ofMillis(800));
        metrics.recordProbeDuration("gds", Duration.ofSeconds(3));
        metrics.recordProbeFailure("gds", "ProbeTimedOut");
        metrics.recordProbeFailure("gds", "ProbeTimedOut");
        metrics.recordProbeFailure("gds", "ReportUnparseable");
        metrics.recordVerdictChange("gds", "GpfsVerbs");

        String text = registry.scrape();
        assertThat(text)
                .contains("rdmastorage_probe_duration_seconds_count{profile=\"gds\"} 2")
                .contains("rdmastorage_probe_duration_seconds_sum{profile=\"gds\"} 3.8")
                .contains("rdmastorage_probe_duration_seconds_bucket{profile=\"gds\",le=\"1.0\"} 1")
                .contains("rdmastorage_probe_duration_seconds_bucket{profile=\"gds\",le=\"5.0\"} 2")
                .contains("rdmastorage_probe_failures_total{profile=\"gds\",reason=\"ProbeTimedOut\"} 2")
                .contains("rdmastorage_probe_failures_total{profile=\"gds\",reason=\"ReportUnparseable\"} 1")
                .contains("rdmastorage_verdict_changes_total{check=\"GpfsVerbs\",profile=\"gds\"} 1");
    }

    @Test
    void removingAProfileRemovesAllItsSeriesAndOnlyThose() {
        for (String profile : List.of("gds", "nvme")) {
            metrics.updateProfile(profile, counts(1, 1, 1), Map.of("GdsReady", counts(1, 1, 1)));
            metrics.recordProbeDuration(profile, Duration.ofSeconds(1));
            metrics.recordProbeFailure(profile, "ProbeFailedToStart");
            metrics.recordVerdictChange(profile, "Ready");
        }

        metrics.removeProfile("gds");

        String text = registry.scrape();
        assertThat(text).doesNotContain("profile=\"gds\"");
        assertThat(text)
                .contains("rdmastorage_nodes{profile=\"nvme\",status=\"ready\"} 1")
                .contains("rdmastorage_check_nodes{check=\"GdsReady\",profile=\"nvme\",status=\"unknown\"} 1")
                .contains("rdmastorage_probe_duration_seconds_count{profile=\"nvme\"} 1")
                .contains("rdmastorage_probe_failures_total{profile=\"nvme\",reason=\"ProbeFailedToStart\"} 1")
                .contains("rdmastorage_verdict_changes_total{check=\"Ready\",profile=\"nvme\"} 1");

        // A profile that comes back gets fresh series.
        metrics.updateProfile("gds", counts(5, 0, 0), Map.of());
        assertThat(registry.scrape()).contains("rdmastorage_nodes{profile=\"gds\",status=\"ready\"} 5");
    }

    @Test
    void checkCountsFromEachNodesConditionsLeaveReadyOut() {
        Map<String, NodeCounts> counts = VerdictCounts.countChecks(List.of(
                List.of(condition("Ready", "True"), condition("GpfsVerbs", "True"), condition("GdsReady", "True")),
                List.of(condition("Ready", "False"), condition("GpfsVerbs", "False"), condition("GdsReady", "True")),
                List.of(condition("Ready", "Unknown"), condition("GpfsVerbs", "Unknown"))));

        assertThat(counts).containsOnlyKeys("GpfsVerbs", "GdsReady");
        assertThat(counts.get("GpfsVerbs").getReady()).isEqualTo(1);
        assertThat(counts.get("GpfsVerbs").getNotReady()).isEqualTo(1);
        assertThat(counts.get("GpfsVerbs").getUnknown()).isEqualTo(1);
        assertThat(counts.get("GdsReady").getReady()).isEqualTo(2);
        assertThat(counts.get("GdsReady").getMatched()).isEqualTo(2);
    }

    private static Condition condition(String type, String status, String reason) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).build();
    }

    @Test
    void failingChecksAreCountedByReasonAndAReasonGoneLosesItsSeries() {
        Map<VerdictCounts.CheckReason, Long> reasons = VerdictCounts.countCheckReasons(List.of(
                List.of(condition("Ready", "False", "ChecksFailed"), condition("GpfsVerbs", "False", "TcpFallback")),
                List.of(condition("Ready", "False", "ChecksFailed"), condition("GpfsVerbs", "False", "TcpFallback")),
                List.of(condition("Ready", "Unknown", "ProbeTimedOut"), condition("GpfsVerbs", "Unknown", "ProbeTimedOut")),
                List.of(condition("Ready", "True", "AllChecksPassed"), condition("GpfsVerbs", "True", "RdmaInUse"))));
        assertThat(reasons).containsOnly(
                Map.entry(new VerdictCounts.CheckReason("GpfsVerbs", "False", "TcpFallback"), 2L),
                Map.entry(new VerdictCounts.CheckReason("GpfsVerbs", "Unknown", "ProbeTimedOut"), 1L),
                Map.entry(new VerdictCounts.CheckReason("GpfsVerbs", "True", "RdmaInUse"), 1L));

        metrics.updateCheckReasons("gds", reasons);
        assertThat(registry.scrape())
                .contains("rdmastorage_check_reason_nodes{check=\"GpfsVerbs\",profile=\"gds\",reason=\"TcpFallback\",status=\"false\"} 2.0")
                .contains("rdmastorage_check_reason_nodes{check=\"GpfsVerbs\",profile=\"gds\",reason=\"ProbeTimedOut\",status=\"unknown\"} 1.0");

        metrics.updateCheckReasons("gds", Map.of(new VerdictCounts.CheckReason("GpfsVerbs", "True", "RdmaInUse"), 4L));
        assertThat(registry.scrape()).doesNotContain("TcpFallback").doesNotContain("ProbeTimedOut")
                .contains("rdmastorage_check_reason_nodes{check=\"GpfsVerbs\",profile=\"gds\",reason=\"RdmaInUse\",status=\"true\"} 4.0");
    }

    private static RdmaStorageNodeStatus measured(String latencyStatus, Double typical, Double p99) {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setConditions(List.of(condition("Ready", latencyStatus, "x"), condition("VerbsLatency", latencyStatus, "x")));
        LatencyResult latency = new LatencyResult();
        latency.setTypicalMicros(typical);
        latency.setP99Micros(p99);
        status.setLatency(latency);
        return status;
    }

    @Test
    void verbsLatencyPerNodeOnlyWhileTheMeasurementCounts() {
        Map<String, RdmaStorageNodeStatus> nodes = new java.util.HashMap<>();
        nodes.put("gpu-01", measured("True", 1.01, 1.25));
        nodes.put("gpu-02", measured("False", 7.5, 9.0));
        nodes.put("gpu-03", measured("Unknown", 1.0, 1.1));   // ResultExpired: the numbers are old
        nodes.put("gpu-04", null);
        metrics.updateVerbsLatency("lat", LatencyVerdicts.counting(nodes));

        String text = registry.scrape();
        assertThat(text)
                .contains("rdmastorage_verbs_latency_seconds{node=\"gpu-01\",profile=\"lat\",statistic=\"typical\"} 1.01E-6")
                .contains("rdmastorage_verbs_latency_seconds{node=\"gpu-01\",profile=\"lat\",statistic=\"p99\"} 1.25E-6")
                .contains("rdmastorage_verbs_latency_seconds{node=\"gpu-02\",profile=\"lat\",statistic=\"typical\"} 7.5E-6")
                .doesNotContain("node=\"gpu-03\"").doesNotContain("node=\"gpu-04\"");

        nodes.put("gpu-02", measured("Unknown", 7.5, 9.0));
        metrics.updateVerbsLatency("lat", LatencyVerdicts.counting(nodes));
        assertThat(registry.scrape()).doesNotContain("node=\"gpu-02\"").contains("node=\"gpu-01\"");
        metrics.removeProfile("lat");
        assertThat(registry.scrape()).doesNotContain("rdmastorage_verbs_latency_seconds{");
    }

    private static RdmaStorageNodeStatus checked(Condition... conditions) {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setConditions(List.of(conditions));
        return status;
    }

    @Test
    void aNodesCheckThatAsksForAnActionHasASeriesUntilItAsksForNone() {
        Map<String, RdmaStorageNodeStatus> nodes = new java.util.HashMap<>();
        nodes.put("gpu-01", checked(condition("Ready", "False", "ChecksFailed"), condition("RdmaDevices", "False", "PortDown"),
                condition("GpfsVerbs", "False", "GpfsNotRunning"), condition("MatchesFleet", "False", "DiffersFromFleet")));
        nodes.put("gpu-02", checked(condition("Ready", "Unknown", "ProbeTimedOut"), condition("RdmaDevices", "Unknown", "ProbeTimedOut"),
                condition("GpfsVerbs", "Unknown", "ProbeTimedOut")));
        nodes.put("gpu-03", checked(condition("Ready", "True", "AllChecksPassed"), condition("RdmaDevices", "True", "PortsActive")));
        nodes.put("gpu-04", checked(condition("Ready", "Unknown", "ResultExpired"), condition("RdmaDevices", "Unknown", "ResultExpired")));
        nodes.put("gpu-05", null);

        metrics.updateRecommendedActions("gds", VerdictCounts.recommendedActions(nodes));

        String text = registry.scrape();
        assertThat(text)
                .contains("rdmastorage_node_recommended_action{action=\"ReseatCable\",check=\"RdmaDevices\",node=\"gpu-01\",profile=\"gds\",reason=\"PortDown\"} 1.0")
                .contains("rdmastorage_node_recommended_action{action=\"RestartDaemon\",check=\"GpfsVerbs\",node=\"gpu-01\",profile=\"gds\",reason=\"GpfsNotRunning\"} 1.0")
                .contains("rdmastorage_node_recommended_action{action=\"InvestigateNode\",check=\"GpfsVerbs\",node=\"gpu-02\",profile=\"gds\",reason=\"ProbeTimedOut\"} 1.0")
                .doesNotContain("node=\"gpu-03\"").doesNotContain("node=\"gpu-04\"").doesNotContain("MatchesFleet")
                .doesNotContain("action=\"None\"");

        nodes.put("gpu-01", checked(condition("Ready", "True", "AllChecksPassed"), condition("RdmaDevices", "True", "PortsActive"),
                condition("GpfsVerbs", "True", "RdmaInUse")));
        metrics.updateRecommendedActions("gds", VerdictCounts.recommendedActions(nodes));
        assertThat(registry.scrape()).doesNotContain("node=\"gpu-01\"").contains("node=\"gpu-02\"");
        metrics.removeProfile("gds");
        assertThat(registry.scrape()).doesNotContain("rdmastorage_node_recommended_action{");
    }

    @Test
    void josdkMetricsShareTheRegistry() {
        assertThat(OperatorMetrics.josdkMetrics(registry)).isInstanceOf(MicrometerMetrics.class);
    }
}
