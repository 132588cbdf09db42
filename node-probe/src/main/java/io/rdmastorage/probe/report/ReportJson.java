package io.rdmastorage.probe.report;

import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.contract.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compact JSON of a report that always fits a pod termination message. Checks already summarise
 * long lists; if the document is still too big, the largest checks lose their details (marked
 * {@code detailsOmitted}; what the next round is handed stays), then messages are shortened. The inventory facts are never dropped: they
 * are bounded ({@code InventoryFact.MAX_VALUE_CHARS} each). The result is always a whole document.
 *
 * <p>The field names and their order are the wire contract with the operator ({@link ReportSchema}).
 */
public final class ReportJson {

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
        bySize.sort(Comparator.comparingInt((Integer i) -> Json.write(checks.get(i).get(ReportSchema.C_DETAILS)).length()).reversed());
        for (int i : bySize) {
            checks.get(i).put(ReportSchema.C_DETAILS, omitted(report.checks().get(i).details()));
            json = Json.write(document(report, checks));
            if (fits(json)) {
                return json;
            }
        }
        for (Map<String, Object> c : checks) {
            c.put(ReportSchema.C_MESSAGE, shorten((String) c.get(ReportSchema.C_MESSAGE)));
        }
        return Json.write(document(report, checks));
    }

    /** What is left of a check's details once dropped: the mark, what the next round is handed, the faulty devices. */
    private static Map<String, Object> omitted(Map<String, Object> details) {
        Map<String, Object> left = new LinkedHashMap<>();
        left.put(ReportSchema.DETAILS_OMITTED, true);
        ReportSchema.KEPT_DETAILS.stream().filter(details::containsKey).sorted()
                .forEach(key -> left.put(key, details.get(key)));
        return left;
    }

    private static Map<String, Object> document(Report r, List<Map<String, Object>> checks) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put(ReportSchema.F_API_VERSION, r.apiVersion());
        doc.put(ReportSchema.F_KIND, r.kind());
        doc.put(ReportSchema.F_NODE, r.node());
        doc.put(ReportSchema.F_PROBE_VERSION, r.probeVersion());
        doc.put(ReportSchema.F_STARTED_AT, r.startedAt());
        doc.put(ReportSchema.F_DURATION_MILLIS, r.durationMillis());
        doc.put(ReportSchema.F_STATUS, r.status().wire());
        doc.put(ReportSchema.F_CHECKS, checks);
        if (!r.inventory().isEmpty()) {
            Map<String, String> inventory = new LinkedHashMap<>();
            r.inventory().forEach((fact, value) -> inventory.put(fact.key(), value));   // EnumMap: report order
            doc.put(ReportSchema.F_INVENTORY, inventory);
        }
        return doc;
    }

    private static Map<String, Object> check(CheckResult c) {
        Map<String, Object> check = new LinkedHashMap<>();
        check.put(ReportSchema.C_TYPE, c.type().conditionType());
        check.put(ReportSchema.C_STATUS, c.status().wire());
        check.put(ReportSchema.C_REASON, c.reason());
        check.put(ReportSchema.C_MESSAGE, c.message());
        check.put(ReportSchema.C_DETAILS, c.details());
        return check;
    }

    private static boolean fits(String json) {
        return json.getBytes(StandardCharsets.UTF_8).length <= ReportSchema.MAX_BYTES;
    }

    private static String shorten(String message) {
        return message.length() <= SHORT_MESSAGE ? message : message.substring(0, SHORT_MESSAGE - 1) + "…";
    }
}
