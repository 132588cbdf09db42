package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.examples.GrafanaDashboard;
import io.rdmastorage.operator.examples.ScrapeQueries;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LatencyFabric;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.TrafficFixtures;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Promtool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of the example Grafana dashboard, evaluated by Prometheus's own engine (promtool) on
 * a real scrape of the operator: the operator on the real API server judging three simulated
 * nodes (one healthy, its storage bytes on RDMA; one whose GPFS falls back to TCP, its storage bytes
 * on NVMe/TCP, on an older HCA firmware; one whose probe writes garbage) with verbs latency and a
 * traffic window, so each panel's metrics exist — verdicts, failing checks by reason, probe
 * durations and failures, latency per node, storage bytes and packets by transport
 * ({@link TrafficFixtures}: the probe samples the hosts' recorded counters over its real window),
 * the fleet's distinct values, the JVM's own. A panel whose query has a typo, or names a series
 * the operator does not export, returns nothing and fails here.
 */
class DashboardQueriesTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String LATENCY = """
            latency:
              device: mlx5_0
              size: 2
              iterations: 200
              maxTypicalMicros: 5
            traffic: %s
            """.formatted(TrafficFixtures.SECTION);

    @Test
    void everyPanelAndVariableReturnsDataFromARealScrape(@TempDir Path dir) throws IOException {
        try (OperatorEnvironment env = OperatorEnvironment.start("dashboard")) {
            LatencyFabric fabric = new LatencyFabric(Files.createTempDirectory("rso-fabric-"));
            for (Map.Entry<String, String> node : Map.of("gpu-a", "", "gpu-b", "gpfs-tcp-fallback", "gpu-c", "").entrySet()) {
                FixtureHost host = env.addNode(node.getKey(), node.getValue().isEmpty() ? null : node.getValue());
                fabric.install(host, env.cluster.hostIp(node.getKey()));
                if (node.getKey().equals("gpu-b")) {
                    TrafficFixtures.overTcp(host);
                    RdmaFixtures.firmware(host, "28.35.2000");
                } else {
                    TrafficFixtures.overRdma(host);
                }
            }
            env.garbageReportNodes.add("gpu-c");
            env.startOperator();
            env.applyProfile("dashboard", "interval: 10m\nprobeTimeout: 20s\n", NodeScenarios.healthyProfileChecks() + LATENCY);

            try {
                await("verdicts, a probe failure and a latency measurement", WAIT, () -> {
                    String scrape = env.scrape();
                    return scrape.contains("rdmastorage_probe_failures_total{profile=\"dashboard\",reason=\"ReportUnparseable\"}")
                            && scrape.contains("reason=\"TcpFallback\"")
                            && scrape.contains("rdmastorage_verbs_latency_seconds{node=\"gpu-a\"")
                            && scrape.contains("reason=\"DataOnTcp\"")
                            // gpu-a's own probe (its traffic over rdma), not only its latency measurement
                            && scrape.contains("reason=\"DataOverRdma\"")
                            && scrape.contains("rdmastorage_fleet_distinct_values{");
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the operator's series:\n" + env.scrape().lines()
                        .filter(l -> l.startsWith("rdmastorage_")).collect(Collectors.joining("\n")), e);
            }
            String scrape = env.scrape();
            Map<String, String> queries = GrafanaDashboard.load().queries();
            Path tests = dir.resolve("dashboard_test.yaml");
            Files.writeString(tests, ScrapeQueries.testFile(scrape, queries));

            CommandResult result = Promtool.ensure().testRules(tests);
            assertThat(result.exitCode()).as("panels without data (absent(expr) is 1), or queries that do not parse:%n%s%s",
                    result.stdout(), result.stderr()).isZero();
            assertThat(result.stdout()).contains("SUCCESS");
            assertThat(queries).hasSizeGreaterThanOrEqualTo(20);
            // the data-path panels chart moving bytes on both transports, not zeros
            assertThat(scrape).containsPattern("rdmastorage_storage_bytes_per_second\\{profile=\"dashboard\",transport=\"rdma\"} [1-9]")
                    .containsPattern("rdmastorage_storage_bytes_per_second\\{profile=\"dashboard\",transport=\"tcp\"} [1-9]")
                    .containsPattern("rdmastorage_storage_packets_per_second\\{profile=\"dashboard\",transport=\"rdma\"} [1-9]");
        }
    }
}
