package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.metrics.VerdictCounts;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Promtool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PrometheusRule example uses only series the operator exports: every metric name, every label
 * it matches or groups by, and every label value it matches, compared with a scrape of the real
 * Prometheus registry after OperatorMetrics recorded one of everything. And the alerts behave:
 * Prometheus's own {@code promtool} evaluates them on series that must make each fire and series
 * that must not ({@code src/test/resources/promtool/prometheusrule_test.yaml}).
 */
class PrometheusRuleTest {

    private static final Path RULE = Path.of("../examples/prometheus/prometheusrule.yaml");
    private static final Path PROMTOOL_TESTS = Path.of("src/test/resources/promtool/prometheusrule_test.yaml");
    /** PromQL words that look like identifiers but are not metrics. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan");
    /** Labels Prometheus adds to every scraped series (target and ServiceMonitor labels). */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance", "namespace", "pod", "service", "container");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern MATCHERS = Pattern.compile("\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring)\\s*\\(([^)]*)\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    /** Metric name → label → values, from a scrape of the operator's registry. */
    static Map<String, Map<String, Set<String>>> exported() {
        PrometheusMeterRegistry registry = OperatorMetrics.newPrometheusRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        NodeCounts counts = new NodeCounts();
        counts.setMatched(3);
        counts.setReady(1);
        counts.setNotReady(1);
        counts.setUnknown(1);
        metrics.updateProfile("gds", counts, Map.of("GpfsVerbs", counts));
        metrics.recordProbeDuration("gds", Duration.ofSeconds(1));
        metrics.recordProbeFailure("gds", Reasons.PROBE_TIMED_OUT);
        metrics.recordVerdictChange("gds", "GpfsVerbs");
        metrics.updateCheckReasons("gds", Map.of(new VerdictCounts.CheckReason("GpfsVerbs", "False", "TcpFallback"), 1L,
                new VerdictCounts.CheckReason("GpfsVerbs", "True", "RdmaInUse"), 1L,
                new VerdictCounts.CheckReason("GpfsVerbs", "Unknown", "ProbeTimedOut"), 1L,
                new VerdictCounts.CheckReason("RdmaTraffic", "False", "DataOnTcp"), 1L));
        metrics.updateTraffic("gds", new VerdictCounts.StorageTraffic(2_000_000_000L, 100_000L, 1_000_000L, 1));
        metrics.updateRails("gds", new io.rdmastorage.operator.metrics.StorageRailCounts(3, 1, 1));
        LatencyResult latency = new LatencyResult();
        latency.setTypicalMicros(1.01);
        latency.setP99Micros(1.3);
        metrics.updateVerbsLatency("gds", Map.of("gpu-01", latency));
        metrics.updateFleet("gds", Map.of("hcaFirmware", 2), java.util.Set.of());
        metrics.updateRecommendedActions("gds", List.of(new VerdictCounts.NodeAction("gpu-05", "RdmaDevices", "PortDown",
                io.rdmastorage.contract.RecommendedAction.RESEAT_CABLE), new VerdictCounts.NodeAction("gpu-06", "RdmaDevices",
                "PcieLinkDegraded", io.rdmastorage.contract.RecommendedAction.REPLACE_NIC)));
        metrics.registerAcceptanceRuns(List.of("nvmeof", "path"));
        metrics.recordAcceptanceRun("path", "Succeeded", "False");
        metrics.setAcceptanceRatios("gpu-01", "nvmeof", Map.of("latency", 3.6, "cpu_per_io", 4.1));
        Map<String, Map<String, Set<String>>> series = new HashMap<>();
        Pattern line = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? .*$");
        Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
        for (String l : registry.scrape().split("\n")) {
            Matcher m = line.matcher(l);
            if (l.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, Set<String>> labels = series.computeIfAbsent(m.group(1), k -> new HashMap<>());
            if (m.group(2) != null) {
                Matcher lm = label.matcher(m.group(2));
                while (lm.find()) {
                    labels.computeIfAbsent(lm.group(1), k -> new TreeSet<>()).add(lm.group(2));
                }
            }
        }
        return series;
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The PrometheusRule's rule groups: what Prometheus loads from it (prometheus-operator writes them to a rule file). */
    private static List<?> ruleGroups() throws IOException {
        Map<?, ?> rule = YAML.readValue(RULE.toFile(), Map.class);
        assertThat(rule.get("apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.get("kind")).isEqualTo("PrometheusRule");
        return (List<?>) ((Map<?, ?>) rule.get("spec")).get("groups");
    }

    private static List<Map<?, ?>> rules() throws IOException {
        List<Map<?, ?>> rules = new ArrayList<>();
        for (Object group : ruleGroups()) {
            for (Object r : (List<?>) ((Map<?, ?>) group).get("rules")) {
                rules.add((Map<?, ?>) r);
            }
        }
        return rules;
    }

    private static List<String> expressions() throws IOException {
        return rules().stream().map(r -> String.valueOf(r.get("expr"))).toList();
    }

    /** The metric selectors of an expression: name → label matchers (label → value). */
    static Map<String, List<String[]>> selectors(String expr) {
        Map<String, List<String[]>> found = new LinkedHashMap<>();
        // matchers stay attached to the name in front of them; strings, ranges and groupings go
        Matcher sel = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}").matcher(expr);
        while (sel.find()) {
            List<String[]> matchers = found.computeIfAbsent(sel.group(1), k -> new ArrayList<>());
            Matcher m = MATCHER.matcher(sel.group(2));
            while (m.find()) {
                matchers.add(new String[] {m.group(1), m.group(2), m.group(3)});
            }
        }
        String bare = MATCHERS.matcher(STRING.matcher(expr).replaceAll("\"\"")).replaceAll(" ");
        bare = GROUPING.matcher(bare).replaceAll(" ").replaceAll("\\[[^]]*]", " ");
        Matcher id = IDENTIFIER.matcher(bare);
        while (id.find()) {
            String name = id.group(1);
            boolean function = id.group(2) != null;
            boolean number = id.start() > 0 && Character.isDigit(bare.charAt(id.start() - 1));
            if (!function && !number && !KEYWORDS.contains(name)) {
                found.computeIfAbsent(name, k -> new ArrayList<>());
            }
        }
        return found;
    }

    static Set<String> groupingLabels(String expr) {
        Set<String> labels = new TreeSet<>();
        Matcher g = GROUPING.matcher(expr);
        while (g.find()) {
            for (String l : g.group(1).split(",")) {
                if (!l.isBlank()) {
                    labels.add(l.strip());
                }
            }
        }
        return labels;
    }

    @Test
    void theExpressionParserFindsMetricsNotFunctionsOrLabels() {
        String expr = "histogram_quantile(0.9, sum by (profile, le) (rate(rdmastorage_probe_duration_seconds_bucket[1h]))) > 60"
                + " and on (profile) max by (profile) (rdmastorage_nodes{status=\"not_ready\", profile=~\"g.*\"}) > 0";
        Map<String, List<String[]>> s = selectors(expr);
        assertThat(s).containsOnlyKeys("rdmastorage_probe_duration_seconds_bucket", "rdmastorage_nodes");
        assertThat(s.get("rdmastorage_nodes")).extracting(m -> m[0] + m[1] + m[2])
                .containsExactly("status=not_ready", "profile=~g.*");
        assertThat(groupingLabels(expr)).containsExactly("le", "profile");
    }

    @Test
    void everyMetricLabelAndValueInTheRulesIsExportedByTheOperator() throws IOException {
        Map<String, Map<String, Set<String>>> exported = exported();
        assertThat(exported).containsKeys("rdmastorage_nodes", "rdmastorage_check_nodes", "rdmastorage_probe_failures_total",
                "rdmastorage_probe_duration_seconds_bucket", "rdmastorage_verdict_changes_total");
        Set<String> used = new TreeSet<>();
        for (String expr : expressions()) {
            Map<String, List<String[]>> selectors = selectors(expr);
            assertThat(selectors).as("metrics in %s", expr).isNotEmpty();
            Set<String> labelsOfExpr = new TreeSet<>();
            for (Map.Entry<String, List<String[]>> e : selectors.entrySet()) {
                String metric = e.getKey();
                used.add(metric);
                assertThat(exported).as("metric %s in %s", metric, expr).containsKey(metric);
                Map<String, Set<String>> labels = exported.get(metric);
                labelsOfExpr.addAll(labels.keySet());
                for (String[] m : e.getValue()) {
                    assertThat(labels).as("label %s of %s in %s", m[0], metric, expr).containsKey(m[0]);
                    if (m[1].equals("=") && m[0].equals("status")) {
                        // status values are a closed set: ready|not_ready|unknown and true|false|unknown
                        assertThat(labels.get("status")).as("status value of %s in %s", metric, expr).contains(m[2]);
                    }
                }
            }
            for (String label : groupingLabels(expr)) {
                assertThat(labelsOfExpr).as("grouping label %s in %s", label, expr).contains(label);
                assertThat(TARGET_LABELS).doesNotContain(label);
            }
        }
        assertThat(used).contains("rdmastorage_nodes", "rdmastorage_check_nodes", "rdmastorage_probe_failures_total");
    }

    @Test
    void promtoolFiresEachAlertOnItsSeriesAndNotOnTheOthers(@TempDir Path dir) throws IOException {
        // the rule file promtool loads is the PrometheusRule's own groups, written out at test time
        Files.writeString(dir.resolve("rdma-storage-rules.yaml"), YAML.writeValueAsString(Map.of("groups", ruleGroups())));
        Files.copy(PROMTOOL_TESTS, dir.resolve(PROMTOOL_TESTS.getFileName()));
        Promtool promtool = Promtool.ensure();

        CommandResult check = promtool.checkRules(dir.resolve("rdma-storage-rules.yaml"));
        assertThat(check.exitCode()).as(check.stdout() + check.stderr()).isZero();
        CommandResult tests = promtool.testRules(dir.resolve(PROMTOOL_TESTS.getFileName()));
        assertThat(tests.exitCode()).as(tests.stdout() + tests.stderr()).isZero();
        assertThat(tests.stdout()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void everyAlertHasPromtoolCasesThatFireAndThatMustNot() throws IOException {
        Map<String, Set<Boolean>> cases = new TreeMap<>();
        for (Object test : (List<?>) YAML.readValue(PROMTOOL_TESTS.toFile(), Map.class).get("tests")) {
            for (Object c : (List<?>) ((Map<?, ?>) test).get("alert_rule_test")) {
                Map<?, ?> alertCase = (Map<?, ?>) c;
                cases.computeIfAbsent(String.valueOf(alertCase.get("alertname")), k -> new TreeSet<>())
                        .add(!((List<?>) alertCase.get("exp_alerts")).isEmpty());
            }
        }
        List<String> alerts = rules().stream().map(r -> String.valueOf(r.get("alert"))).toList();
        assertThat(cases).containsOnlyKeys(alerts);
        cases.forEach((alert, fires) -> assertThat(fires).as("%s: a case that fires and one that must not", alert)
                .containsExactly(false, true));
    }

    @Test
    void theRulesCoverNodesNotReadyUnknownNodesAndProbeFailures() throws IOException {
        String all = String.join("\n", expressions());
        assertThat(all).contains("rdmastorage_nodes{status=\"not_ready\"}").contains("rdmastorage_nodes{status=\"unknown\"}")
                .contains("rdmastorage_probe_failures_total");
    }
}
