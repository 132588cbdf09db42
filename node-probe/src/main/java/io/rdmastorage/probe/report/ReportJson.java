package io.rdmastorage.probe.report;

import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compact JSON of a report that always fits a pod termination message. Checks already summarise
 * long lists; if the document is still too big, the largest checks lose their details (marked
 * {@code detailsOmitted}), then messages are shortened. The result is always a whole document.
 *
 * <p>The field names and their order are the wire contract with the operator.
 */
public final class ReportJson {

    /** Kubernetes keeps at most 4096 bytes of a container's termination message. */
    public static final int MAX_BYTES = 4096;
    private static final int SHORT_MESSAGE = 200;

    private ReportJson() {
    }

    public static String compact(Report report) {
        List<Map<String, Object>> checks = new ArrayList<>();
        for (CheckResult c : report.checks()) {
            checks.add(check(c));
        }
        String json = Json.write(document(report, checks));
        if (fits(json)) {
            return json;
        }
        List<Integer> bySize = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            bySize.add(i);
        }
        bySize.sort(Comparator.comparingInt((Integer i) -> Json.write(checks.get(i).get("details")).length()).reversed());
        for (int i : bySize) {
            checks.get(i).put("details", Map.of("detailsOmitted", true));
            json = Json.write(document(report, checks));
            if (fits(json)) {
                return json;
            }
        }
        for (Map<String, Object> c : checks) {
            c.put("message", shorten((String) c.get("message")));
        }
        return Json.write(document(report, checks));
    }

    private static Map<String, Object> document(Report r, List<Map<String, Object>> checks) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", r.apiVersion());
        doc.put("kind", r.kind());
        doc.put("node", r.node());
        doc.put("probeVersion", r.probeVersion());
        doc.put("startedAt", r.startedAt());
        doc.put("durationMillis", r.durationMillis());
        doc.put("status", r.status().wire());
        doc.put("checks", checks);
        return doc;
    }

    private static Map<String, Object> check(CheckResult c) {
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("type", c.type().conditionType());
        check.put("status", c.status().wire());
        check.put("reason", c.reason());
        check.put("message", c.message());
        check.put("details", c.details());
        return check;
    }

    private static boolean fits(String json) {
        return json.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES;
    }

    private static String shorten(String message) {
        return message.length() <= SHORT_MESSAGE ? message : message.substring(0, SHORT_MESSAGE - 1) + "…";
    }
}
