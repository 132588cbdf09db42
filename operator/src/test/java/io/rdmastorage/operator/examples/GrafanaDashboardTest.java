package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The example Grafana dashboard is importable as it stands and follows the rules of Grafana's
 * dashboard linter that can be checked from the file (the linter itself is a Go module no release
 * of which could be had here): a {@code datasource} variable that every panel and target uses,
 * {@code job} and {@code instance} variables matched by every selector, {@code $__rate_interval}
 * in every rate, a title, description and unit on every panel. Its metrics, labels and status
 * values are the operator's own (a scrape of its registry, as for the PrometheusRule); that every
 * query returns data from a real operator is {@code DashboardQueriesTest}'s part.
 */
class GrafanaDashboardTest {

    private static final GrafanaDashboard DASHBOARD = GrafanaDashboard.load();
    private static final String DATASOURCE = "${datasource}";
    private static final Pattern RANGE_FUNCTION = Pattern.compile("\\b(rate|irate|increase)\\(([^\\[]*)\\[([^]]*)]");
    /** Labels Prometheus adds to every series of the scrape target. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

    @Test
    void itIsAnImportableDashboardWithATemplatedDatasource() {
        JsonNode root = DASHBOARD.root();
        assertThat(root.path("title").asText()).isEqualTo("RDMA storage");
        assertThat(root.path("uid").asText()).matches("[a-zA-Z0-9_-]{1,40}");
        assertThat(root.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
        assertThat(root.has("id")).as("no id: Grafana assigns one on import").isFalse();
        assertThat(root.has("__inputs")).as("no import inputs: the datasource is a variable").isFalse();

        List<JsonNode> variables = DASHBOARD.variables();
        assertThat(variables).extracting(v -> v.path("name").asText()).containsExactly("datasource", "job", "instance", "profile");
        JsonNode datasource = variables.get(0);
        assertThat(datasource.path("type").asText()).isEqualTo("datasource");
        assertThat(datasource.path("query").asText()).isEqualTo("prometheus");
        for (JsonNode v : variables.subList(1, variables.size())) {
            assertThat(v.path("datasource").path("uid").asText()).as(v.toString()).isEqualTo(DATASOURCE);
            assertThat(v.path("includeAll").asBoolean()).as(v.toString()).isTrue();
            assertThat(v.path("multi").asBoolean()).as(v.toString()).isTrue();
            assertThat(v.path("allValue").asText()).as(v.toString()).isEqualTo(".*");
        }
    }

    @Test
    void everyPanelHasATitleDescriptionUnitAndTheDatasourceVariable() {
        Set<Integer> ids = new HashSet<>();
        for (JsonNode row : DASHBOARD.root().path("panels")) {
            assertThat(ids.add(row.path("id").asInt())).as("unique id of %s", row.path("title")).isTrue();
        }
        for (JsonNode panel : DASHBOARD.panels()) {
            String title = panel.path("title").asText();
            assertThat(title).isNotBlank();
            assertThat(panel.path("description").asText()).as(title).isNotBlank();
            assertThat(panel.path("fieldConfig").path("defaults").path("unit").asText()).as("unit of %s", title).isNotBlank();
            assertThat(panel.path("datasource").path("type").asText()).as(title).isEqualTo("prometheus");
            assertThat(panel.path("datasource").path("uid").asText()).as(title).isEqualTo(DATASOURCE);
            assertThat(panel.path("targets")).as(title).isNotEmpty();
            Set<String> refIds = new HashSet<>();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asText()).as(title).isEqualTo(DATASOURCE);
                assertThat(refIds.add(target.path("refId").asText())).as("unique refId in %s", title).isTrue();
                assertThat(target.path("expr").asText()).as(title).isNotBlank();
            }
        }
    }

    @Test
    void panelsFitTheGridWithoutOverlapping() {
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode p : DASHBOARD.root().path("panels")) {
            JsonNode g = p.path("gridPos");
            int[] box = {g.path("x").asInt(), g.path("y").asInt(), g.path("w").asInt(), g.path("h").asInt()};
            assertThat(box[2]).as(p.path("title").asText()).isPositive();
            assertThat(box[3]).as(p.path("title").asText()).isPositive();
            assertThat(box[0] + box[2]).as("%s within 24 columns", p.path("title").asText()).isLessThanOrEqualTo(24);
            for (int[] other : boxes) {
                boolean overlap = box[0] < other[0] + other[2] && other[0] < box[0] + box[2]
                        && box[1] < other[1] + other[3] && other[1] < box[1] + box[3];
                assertThat(overlap).as("%s overlaps another panel", p.path("title").asText()).isFalse();
            }
            boxes.add(box);
        }
    }

    @Test
    void everySelectorMatchesJobAndInstanceAndEveryRateUsesTheRateInterval() {
        for (JsonNode panel : DASHBOARD.panels()) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText();
                Map<String, List<String[]>> selectors = PrometheusRuleTest.selectors(expr);
                assertThat(selectors).as(expr).isNotEmpty();
                selectors.forEach((metric, matchers) -> assertThat(matchers).as("%s in %s", metric, expr)
                        .extracting(m -> m[0] + m[1] + m[2]).contains("job=~$job", "instance=~$instance"));
                Matcher range = RANGE_FUNCTION.matcher(expr);
                while (range.find()) {
                    assertThat(range.group(3)).as(expr).isEqualTo("$__rate_interval");
                }
            }
        }
    }

    @Test
    void everyMetricLabelAndStatusIsOneTheOperatorExports() {
        Map<String, Map<String, Set<String>>> exported = PrometheusRuleTest.exported();
        Set<String> used = new TreeSet<>();
        for (String expr : DASHBOARD.queries().values()) {
            Set<String> labelsOfExpr = new TreeSet<>(TARGET_LABELS);
            for (Map.Entry<String, List<String[]>> e : PrometheusRuleTest.selectors(expr).entrySet()) {
                used.add(e.getKey());
                assertThat(exported).as("metric %s in %s", e.getKey(), expr).containsKey(e.getKey());
                Map<String, Set<String>> labels = exported.get(e.getKey());
                labelsOfExpr.addAll(labels.keySet());
                for (String[] m : e.getValue()) {
                    if (TARGET_LABELS.contains(m[0])) {
                        continue;
                    }
                    assertThat(labels).as("label %s of %s in %s", m[0], e.getKey(), expr).containsKey(m[0]);
                    if (m[0].equals("status") || m[0].equals("statistic")) {
                        // closed sets: ready|not_ready|unknown, true|false|unknown, typical|p99
                        assertThat(labels.get(m[0])).as("%s value in %s", m[0], expr).contains(m[2]);
                    }
                }
            }
            assertThat(labelsOfExpr).as("grouping labels of %s", expr).containsAll(PrometheusRuleTest.groupingLabels(expr));
        }
        // the views the dashboard is for: verdicts per profile, why checks fail, probes, verbs latency,
        // the data path by transport, the fleet
        assertThat(used).contains("rdmastorage_nodes", "rdmastorage_check_reason_nodes", "rdmastorage_probe_failures_total",
                "rdmastorage_probe_duration_seconds_bucket", "rdmastorage_verbs_latency_seconds",
                "rdmastorage_storage_bytes_per_second", "rdmastorage_storage_packets_per_second",
                "rdmastorage_fleet_distinct_values");
    }
}
