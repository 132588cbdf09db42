package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Promtool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The promtool file of {@link ScrapeQueries} passes queries that return data and fails those that do not. */
class ScrapeQueriesTest {

    private static final String SCRAPE = """
            # HELP rdmastorage_nodes Nodes matching the profile, by verdict
            # TYPE rdmastorage_nodes gauge
            rdmastorage_nodes{profile="gds",status="ready"} 3.0
            # TYPE rdmastorage_verbs_latency_seconds gauge
            rdmastorage_verbs_latency_seconds{node="gpu-01",profile="gds",statistic="typical"} 1.01E-6
            # TYPE rdmastorage_probe_failures_total counter
            rdmastorage_probe_failures_total{profile="gds",reason="ProbeTimedOut"} 2.0
            # TYPE process_cpu_usage gauge
            process_cpu_usage NaN
            """;

    private static CommandResult run(Path dir, Map<String, String> queries) throws IOException {
        Path file = dir.resolve("q_test.yaml");
        Files.writeString(file, ScrapeQueries.testFile(SCRAPE, queries));
        return Promtool.ensure().testRules(file);
    }

    @Test
    void queriesThatReturnDataPass(@TempDir Path dir) throws IOException {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("gauge", "max by (profile) (rdmastorage_nodes{job=~\".*\", status=\"ready\"})");
        queries.put("tiny value", "rdmastorage_verbs_latency_seconds{statistic=\"typical\"} < 2e-6");
        queries.put("counter rate", "sum by (reason) (rate(rdmastorage_probe_failures_total[5m])) > 0");
        CommandResult result = run(dir, queries);
        assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isZero();
    }

    @Test
    void aTypoInAMetricALabelValueOrTheSyntaxFails(@TempDir Path dir) throws IOException {
        for (String typo : new String[] {"rdmastorage_node{status=\"ready\"}", "rdmastorage_nodes{status=\"notready\"}",
                "sum by (profile (rdmastorage_nodes)", "process_cpu_usage"}) {
            CommandResult result = run(dir, Map.of("typo", typo));
            assertThat(result.exitCode()).as(typo).isNotZero();
            assertThat(result.stdout() + result.stderr()).as(typo).contains("FAILED");
        }
    }
}
