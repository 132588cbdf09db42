package io.rdmastorage.operator.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.acceptance.AcceptanceSchema;
import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.status.SafeText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the acceptance pod reported in its termination message ({@link AcceptanceSchema}), read
 * without trust: anything that is not such a document gives nothing, texts are cleaned of
 * characters that could garble a terminal, and a number that is not a number is absent.
 */
public record AcceptanceResult(boolean complete, String message, String probeVersion, String fioVersion, String startedAt,
                               List<AcceptanceTransportResult> transports, List<String> disconnected,
                               List<String> cleanupProblems) {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_TEXT = 400;

    public static Optional<AcceptanceResult> parse(String terminationMessage) {
        JsonNode doc = object(terminationMessage).orElse(null);
        if (doc == null || !AcceptanceSchema.KIND.equals(doc.path(AcceptanceSchema.F_KIND).asText())
                || !ReportSchema.API_VERSION.equals(doc.path(AcceptanceSchema.F_API_VERSION).asText())
                || !doc.path(AcceptanceSchema.F_COMPLETE).isBoolean() || !doc.path(AcceptanceSchema.F_TRANSPORTS).isArray()) {
            return Optional.empty();
        }
        List<AcceptanceTransportResult> transports = new ArrayList<>();
        for (JsonNode t : doc.get(AcceptanceSchema.F_TRANSPORTS)) {
            transports.add(transport(t));
        }
        List<String> disconnected = new ArrayList<>();
        doc.path(AcceptanceSchema.F_DISCONNECTED).forEach(d -> disconnected.add(text(d)));
        List<String> cleanupProblems = new ArrayList<>();
        doc.path(AcceptanceSchema.F_CLEANUP_PROBLEMS).forEach(d -> cleanupProblems.add(text(d)));
        return Optional.of(new AcceptanceResult(doc.get(AcceptanceSchema.F_COMPLETE).asBoolean(),
                text(doc.path(AcceptanceSchema.F_MESSAGE)), text(doc.path(AcceptanceSchema.F_PROBE_VERSION)),
                text(doc.path(AcceptanceSchema.F_FIO_VERSION)), text(doc.path(AcceptanceSchema.F_STARTED_AT)),
                transports, disconnected, cleanupProblems));
    }

    /** A termination message as a JSON object; empty when it is none (the pod's own words, or garbage). */
    static Optional<JsonNode> object(String terminationMessage) {
        try {
            JsonNode doc = JSON.readTree(terminationMessage);
            return doc != null && doc.isObject() ? Optional.of(doc) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static AcceptanceTransportResult transport(JsonNode t) {
        AcceptanceTransportResult r = new AcceptanceTransportResult();
        r.setTransport(text(t.path(AcceptanceSchema.T_TRANSPORT)));
        r.setController(text(t.path(AcceptanceSchema.T_CONTROLLER)));
        r.setDevice(text(t.path(AcceptanceSchema.T_DEVICE)));
        r.setConnectedByProbe(t.path(AcceptanceSchema.T_CONNECTED_BY_PROBE).asBoolean(false));
        JsonNode latency = t.path(Workload.LATENCY.field());
        r.setLatencyP50Micros(number(latency, AcceptanceSchema.W_P50_MICROS));
        r.setLatencyP99Micros(number(latency, AcceptanceSchema.W_P99_MICROS));
        r.setLatencyP999Micros(number(latency, AcceptanceSchema.W_P999_MICROS));
        JsonNode iops = t.path(Workload.IOPS.field());
        r.setIops(number(iops, AcceptanceSchema.W_IOPS));
        r.setIopsCoresBusy(number(iops, AcceptanceSchema.W_CORES_BUSY));
        r.setIopsSoftPercent(number(iops, AcceptanceSchema.W_SOFT_PERCENT));
        r.setIopsSysPercent(number(iops, AcceptanceSchema.W_SYS_PERCENT));
        if (r.getIops() != null && r.getIops() > 0 && r.getIopsCoresBusy() != null) {
            r.setCpuMicrosPerIo(round(r.getIopsCoresBusy() * 1e6 / r.getIops()));
        }
        JsonNode bandwidth = t.path(Workload.BANDWIDTH.field());
        Double bytes = number(bandwidth, AcceptanceSchema.W_BYTES_PER_SECOND);
        r.setBandwidthGBps(bytes == null ? null : round(bytes / 1e9));
        r.setBandwidthCoresBusy(number(bandwidth, AcceptanceSchema.W_CORES_BUSY));
        // the verbs target has no IOPS workload: its CPU per operation is per message of the bandwidth workload
        Double messages = number(bandwidth, AcceptanceSchema.W_IOPS);
        if (iops.isMissingNode() && messages != null && messages > 0 && r.getBandwidthCoresBusy() != null) {
            r.setCpuMicrosPerIo(round(r.getBandwidthCoresBusy() * 1e6 / messages));
        }
        String traffic = text(t.path(AcceptanceSchema.T_TRAFFIC));
        r.setTraffic(traffic.isEmpty() ? null : traffic);
        String problem = text(t.path(AcceptanceSchema.T_PROBLEM));
        r.setProblem(problem.isEmpty() ? null : problem);
        return r;
    }

    /** Valid: measured by itself with every number the comparison needs. */
    static boolean comparable(AcceptanceTransportResult t) {
        return t.getProblem() == null && t.getLatencyP50Micros() != null && t.getCpuMicrosPerIo() != null;
    }

    private static Double number(JsonNode parent, String field) {
        JsonNode n = parent.path(field);
        return n.isNumber() && Double.isFinite(n.asDouble()) && n.asDouble() >= 0 ? n.asDouble() : null;
    }

    /** A text of the document, cleaned and cut to {@link #MAX_TEXT}; empty when it is not one. */
    static String text(JsonNode n) {
        String s = n.isTextual() ? n.asText() : "";
        return SafeText.clean(s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) + "…" : s);
    }

    static Double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
