package io.rdmastorage.operator.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code promtool test rules} file that evaluates PromQL expressions on the series of one real
 * scrape of the operator, as Prometheus would have stored them after scraping it every minute for
 * half an hour: gauges keep their scraped value, counters (and a histogram's buckets, sums and
 * counts) grow by their scraped value each minute, so rates are not zero. Each expression is
 * tested as {@code absent(expr)} expecting nothing: it passes only when the expression parses
 * and returns at least one sample, so a typo in a metric, label or value fails it.
 */
public final class ScrapeQueries {

    /** Labels a Prometheus scrape adds to every series of the target. */
    private static final String TARGET_LABELS = "job=\"rdma-storage-operator\",instance=\"10.0.0.5:8080\"";
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)(?: \\d+)?$");
    private static final int MINUTES = 30;

    private ScrapeQueries() {
    }

    /** The test file's YAML; {@code queries}: a name (for the reader) → expression. */
    public static String testFile(String scrape, Map<String, String> queries) {
        List<Map<String, String>> series = new ArrayList<>();
        for (String line : scrape.split("\n")) {
            Matcher m = SAMPLE.matcher(line.strip());
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            double value;
            try {
                value = Double.parseDouble(m.group(3));
            } catch (NumberFormatException e) {
                continue;
            }
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                continue;   // no series notation for them, and nothing a panel can show
            }
            String labels = m.group(2) == null || m.group(2).isEmpty() ? TARGET_LABELS : m.group(2) + "," + TARGET_LABELS;
            String v = new BigDecimal(value).stripTrailingZeros().toPlainString();
            boolean counter = m.group(1).matches(".*_(total|bucket|count|sum)");
            series.add(Map.of("series", m.group(1) + "{" + labels + "}",
                    "values", (counter ? "0+" + v : v) + "x" + MINUTES));
        }
        List<Map<String, Object>> tests = new ArrayList<>();
        queries.forEach((name, expr) -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("expr", "absent(" + expr + ")");
            t.put("eval_time", MINUTES + "m");
            t.put("exp_samples", List.of());
            tests.add(t);
        });
        Map<String, Object> test = new LinkedHashMap<>();
        test.put("interval", "1m");
        test.put("input_series", series);
        test.put("promql_expr_test", tests);
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("rule_files", List.of());
        file.put("evaluation_interval", "1m");
        file.put("tests", List.of(test));
        try {
            return new ObjectMapper(new YAMLFactory()).writeValueAsString(file);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
