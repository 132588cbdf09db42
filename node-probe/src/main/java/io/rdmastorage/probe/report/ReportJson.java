package io.rdmastorage.probe.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rdmastorage.probe.check.CheckResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Compact JSON of a report that always fits a pod termination message. Checks already summarise
 * long lists; if the document is still too big, the largest checks lose their details (marked
 * {@code detailsOmitted}), then messages are shortened. The result is always a whole document.
 */
public final class ReportJson {

    /** Kubernetes keeps at most 4096 bytes of a container's termination message. */
    public static final int MAX_BYTES = 4096;
    private static final int SHORT_MESSAGE = 200;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private ReportJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String compact(Report report) {
        String json = write(report);
        if (fits(json)) {
            return json;
        }
        List<CheckResult> checks = new ArrayList<>(report.checks());
        List<Integer> bySize = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            bySize.add(i);
        }
        bySize.sort(Comparator.comparingInt((Integer i) -> write(checks.get(i).details()).length()).reversed());
        for (int i : bySize) {
            CheckResult c = checks.get(i);
            checks.set(i, new CheckResult(c.type(), c.status(), c.reason(), c.message(), Map.of("detailsOmitted", true)));
            json = write(withChecks(report, checks));
            if (fits(json)) {
                return json;
            }
        }
        for (int i = 0; i < checks.size(); i++) {
            CheckResult c = checks.get(i);
            checks.set(i, new CheckResult(c.type(), c.status(), c.reason(), shorten(c.message()), c.details()));
        }
        return write(withChecks(report, checks));
    }

    public static String pretty(Report report) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report is not serialisable", e);
        }
    }

    private static Report withChecks(Report r, List<CheckResult> checks) {
        return new Report(r.apiVersion(), r.kind(), r.node(), r.probeVersion(), r.startedAt(), r.durationMillis(),
                r.status(), List.copyOf(checks));
    }

    private static boolean fits(String json) {
        return json.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES;
    }

    private static String shorten(String message) {
        return message.length() <= SHORT_MESSAGE ? message : message.substring(0, SHORT_MESSAGE - 1) + "…";
    }

    private static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report is not serialisable", e);
        }
    }
}
