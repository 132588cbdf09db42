package io.rdmastorage.operator.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The example Grafana dashboard ({@code examples/grafana/rdma-storage.json}) as its tests read it:
 * its panels (rows' nested panels included), their PromQL targets, and its template variables,
 * with each query turned into the PromQL Grafana would send when every variable is "All".
 */
public final class GrafanaDashboard {

    public static final Path FILE = Path.of("../examples/grafana/rdma-storage.json");
    /** What Grafana puts for a variable set to All ({@code allValue}), and for the rate interval. */
    private static final Map<String, String> VARIABLES = Map.of(
            "$job", ".*", "$instance", ".*", "$profile", ".*", "$__rate_interval", "5m");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\)");

    private final JsonNode root;

    private GrafanaDashboard(JsonNode root) {
        this.root = root;
    }

    public static GrafanaDashboard load() {
        try {
            return new GrafanaDashboard(new ObjectMapper().readTree(FILE.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonNode root() {
        return root;
    }

    /** Every panel that is not a row, in the file's order. */
    public List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode p : root.path("panels")) {
            if ("row".equals(p.path("type").asText())) {
                p.path("panels").forEach(panels::add);
            } else {
                panels.add(p);
            }
        }
        return panels;
    }

    public List<JsonNode> variables() {
        List<JsonNode> variables = new ArrayList<>();
        root.path("templating").path("list").forEach(variables::add);
        return variables;
    }

    /**
     * Every query of the dashboard as PromQL with the variables set to All: "panel title / refId" →
     * expression, then "variable name" → the metric selector a {@code label_values(selector, label)}
     * variable reads (grouped by that label).
     */
    public Map<String, String> queries() {
        Map<String, String> queries = new LinkedHashMap<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.put(panel.path("title").asText() + " / " + target.path("refId").asText(),
                        withVariables(target.path("expr").asText()));
            }
        }
        for (JsonNode variable : variables()) {
            if ("query".equals(variable.path("type").asText())) {
                String query = variable.path("query").path("query").asText();
                Matcher m = LABEL_VALUES.matcher(query);
                if (!m.matches()) {
                    throw new IllegalStateException("variable " + variable.path("name").asText()
                            + ": not a label_values(selector, label) query: " + query);
                }
                queries.put("variable " + variable.path("name").asText(),
                        "count by (" + m.group(2) + ") (" + withVariables(m.group(1)) + ")");
            }
        }
        return queries;
    }

    static String withVariables(String expr) {
        String result = expr;
        for (Map.Entry<String, String> v : VARIABLES.entrySet()) {
            result = result.replace(v.getKey(), v.getValue());
        }
        if (result.contains("$")) {
            throw new IllegalStateException("a variable the tests do not know in " + expr);
        }
        return result;
    }
}
