package io.rdmastorage.operator.verdict;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads node-probe's report from a probe container's termination message, trusting nothing it
 * cannot check: a message that is empty, too big, not JSON, of another schema version, missing a
 * field or holding a status that is not True/False/Unknown is {@link Unparseable}, with a reason
 * ({@link Reasons#REPORT_MISSING}, {@link Reasons#REPORT_OVERSIZED}, {@link Reasons#REPORT_UNPARSEABLE})
 * and a message that quotes the start of what arrived, escaped. Never throws.
 */
public final class ReportParser {

    /** Kubernetes keeps at most this many bytes of a termination message (the last ones of the file). */
    private static final int MAX_BYTES = ReportSchema.MAX_BYTES;
    /** metav1.Condition's reason rule, so that what we copy into a status is always a valid reason. */
    private static final Pattern REASON = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]{0,1022}[A-Za-z0-9_])?");
    private static final Pattern TYPE = Pattern.compile("[A-Z][A-Za-z0-9]{0,62}");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ReportParser() {
    }

    /** What {@link #parse} made of a termination message. */
    public sealed interface Result permits Parsed, Unparseable {
    }

    public record Parsed(ProbeReport report) implements Result {
    }

    /**
     * @param reason  {@link Reasons#REPORT_MISSING}, {@link Reasons#REPORT_OVERSIZED} or {@link Reasons#REPORT_UNPARSEABLE}
     * @param message what is wrong, quoting the first {@value SafeText#EXCERPT} characters of the message
     */
    public record Unparseable(String reason, String message) implements Result {
    }

    public static Result parse(String terminationMessage) {
        if (terminationMessage == null || terminationMessage.isBlank()) {
            return new Unparseable(Reasons.REPORT_MISSING, terminationMessage == null || terminationMessage.isEmpty()
                    ? "the probe container ended without a report (no termination message)"
                    : "the probe container ended without a report (a termination message of white space only)");
        }
        int bytes = terminationMessage.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return new Unparseable(Reasons.REPORT_OVERSIZED, "the termination message is " + bytes
                    + " bytes, over the " + MAX_BYTES + "-byte limit of a report; it starts with " + excerpt(terminationMessage));
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(terminationMessage);
        } catch (JsonProcessingException e) {
            if (bytes == MAX_BYTES) {
                // The kubelet keeps the last 4096 bytes of a longer file: what arrives is a cut document.
                return new Unparseable(Reasons.REPORT_OVERSIZED, "the termination message is exactly " + MAX_BYTES
                        + " bytes, the kubelet's limit, and not a whole JSON document: the report was most likely longer "
                        + "and cut by the kubelet; it starts with " + excerpt(terminationMessage));
            }
            return unparseable("is not JSON (" + jacksonProblem(e) + ")", terminationMessage);
        }
        if (tree == null || !tree.isObject()) {
            return unparseable("is not a JSON object", terminationMessage);
        }
        try {
            return new Parsed(report((ObjectNode) tree));
        } catch (InvalidReport e) {
            return unparseable(e.getMessage(), terminationMessage);
        }
    }

    private static ProbeReport report(ObjectNode doc) throws InvalidReport {
        String apiVersion = optionalText(doc, ReportSchema.F_API_VERSION, ReportSchema.F_API_VERSION);
        String kind = optionalText(doc, ReportSchema.F_KIND, ReportSchema.F_KIND);
        if (!ReportSchema.API_VERSION.equals(apiVersion) || !ReportSchema.KIND.equals(kind)) {
            throw new InvalidReport("is apiVersion " + show(apiVersion) + ", kind " + show(kind) + ", not "
                    + ReportSchema.API_VERSION + " " + ReportSchema.KIND
                    + " (are the probe image and the operator of matching versions?)");
        }
        String node = requiredText(doc, ReportSchema.F_NODE, ReportSchema.F_NODE);
        String probeVersion = optionalText(doc, ReportSchema.F_PROBE_VERSION, ReportSchema.F_PROBE_VERSION);
        String startedAt = optionalText(doc, ReportSchema.F_STARTED_AT, ReportSchema.F_STARTED_AT);
        Long durationMillis = optionalLong(doc, ReportSchema.F_DURATION_MILLIS);
        String status = status(doc, ReportSchema.F_STATUS);
        JsonNode checksNode = doc.get(ReportSchema.F_CHECKS);
        if (checksNode == null || !checksNode.isArray()) {
            throw new InvalidReport(checksNode == null ? "has no checks" : "has checks that are not a list");
        }
        List<ProbeReport.Check> checks = new ArrayList<>(checksNode.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < checksNode.size(); i++) {
            String where = "checks[" + i + "]";
            JsonNode c = checksNode.get(i);
            if (!c.isObject()) {
                throw new InvalidReport("has " + where + " that is not an object");
            }
            String type = requiredText(c, ReportSchema.C_TYPE, where + "." + ReportSchema.C_TYPE);
            if (!TYPE.matcher(type).matches()) {
                throw new InvalidReport("has " + where + ".type " + show(type) + ", not a CamelCase condition type");
            }
            if (!seen.add(type)) {
                throw new InvalidReport("reports " + type + " twice");
            }
            String checkStatus = status(c, where + "." + ReportSchema.C_STATUS);
            String reason = requiredText(c, ReportSchema.C_REASON, where + "." + ReportSchema.C_REASON);
            if (!REASON.matcher(reason).matches()) {
                throw new InvalidReport("has " + where + ".reason " + show(reason) + ", not a CamelCase reason");
            }
            String message = requiredText(c, ReportSchema.C_MESSAGE, where + "." + ReportSchema.C_MESSAGE);
            JsonNode details = c.get(ReportSchema.C_DETAILS);
            if (details != null && !details.isNull() && !details.isObject()) {
                throw new InvalidReport("has " + where + ".details that is not an object");
            }
            checks.add(new ProbeReport.Check(type, checkStatus, reason, SafeText.clean(message),
                    details == null || details.isNull() ? JSON.createObjectNode() : (ObjectNode) details));
        }
        return new ProbeReport(apiVersion, kind, node, probeVersion, startedAt, durationMillis, status, checks,
                inventory(doc.get(ReportSchema.F_INVENTORY)));
    }

    /**
     * The inventory facts: an object of short strings. A key this operator does not know (a newer
     * probe's) is left out; a value is cleaned and cut to {@link InventoryFact#MAX_VALUE_CHARS}.
     */
    private static Map<String, String> inventory(JsonNode node) throws InvalidReport {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new InvalidReport("has an " + ReportSchema.F_INVENTORY + " that is not an object");
        }
        Map<String, String> inventory = new LinkedHashMap<>();
        for (InventoryFact fact : InventoryFact.values()) {
            JsonNode value = node.get(fact.key());
            if (value == null || value.isNull()) {
                continue;
            }
            if (!value.isTextual()) {
                throw new InvalidReport("has " + ReportSchema.F_INVENTORY + "." + fact.key() + " that is not a string");
            }
            String text = SafeText.clean(value.textValue()).replaceAll("\\s+", " ").strip();   // one line, as sent
            if (!text.isEmpty()) {
                inventory.put(fact.key(), text.length() <= InventoryFact.MAX_VALUE_CHARS ? text
                        : text.substring(0, InventoryFact.MAX_VALUE_CHARS - 1) + "…");
            }
        }
        return inventory;
    }

    private static String status(JsonNode parent, String where) throws InvalidReport {
        String status = requiredText(parent, ReportSchema.C_STATUS, where);
        if (Status.ofWire(status).isEmpty()) {
            throw new InvalidReport("has " + where + " " + show(status) + ", not True, False or Unknown");
        }
        return status;
    }

    private static String requiredText(JsonNode parent, String field, String where) throws InvalidReport {
        String text = optionalText(parent, field, where);
        if (text == null || text.isBlank()) {
            throw new InvalidReport(text == null ? "has no " + where : "has an empty " + where);
        }
        return text;
    }

    private static String optionalText(JsonNode parent, String field, String where) throws InvalidReport {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new InvalidReport("has " + where + " that is not a string");
        }
        return value.textValue();
    }

    private static Long optionalLong(JsonNode parent, String field) throws InvalidReport {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw new InvalidReport("has " + field + " that is not a whole number of milliseconds");
        }
        return value.longValue();
    }

    private static Unparseable unparseable(String problem, String terminationMessage) {
        return new Unparseable(Reasons.REPORT_UNPARSEABLE, "the termination message " + problem + "; it starts with "
                + excerpt(terminationMessage));
    }

    private static String excerpt(String text) {
        return SafeText.quote(text, SafeText.EXCERPT);
    }

    /** A value from the document, quoted and cut short: it may be anything. */
    private static String show(String value) {
        return value == null ? "(none)" : SafeText.quote(value, 40);
    }

    /** Jackson's own words, without the source excerpt (we quote it ourselves, escaped). */
    private static String jacksonProblem(JsonProcessingException e) {
        String what = e.getOriginalMessage();
        int nl = what == null ? -1 : what.indexOf('\n');
        what = what == null ? e.getClass().getSimpleName() : nl < 0 ? what : what.substring(0, nl);
        what = SafeText.escape(what.length() > 160 ? what.substring(0, 160) + "…" : what);
        JsonLocation at = e.getLocation();
        return at == null ? what : what + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /** A report that is JSON but not one we can trust; the message completes "the termination message ...". */
    private static final class InvalidReport extends Exception {
        InvalidReport(String message) {
            super(message, null, false, false);
        }
    }
}
