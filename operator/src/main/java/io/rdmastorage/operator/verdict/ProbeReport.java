package io.rdmastorage.operator.verdict;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * node-probe's report as the operator reads it from a termination message (the wire format of
 * node-probe's {@code ReportJson}, {@link io.rdmastorage.contract.ReportSchema}), already checked by {@link ReportParser#parse}: statuses are
 * True/False/Unknown, reasons CamelCase, each check type at most once.
 *
 * @param probeVersion   may be null (informational)
 * @param startedAt      RFC 3339; may be null (informational)
 * @param durationMillis may be null (informational)
 * @param status         the worst check status, as the probe saw it
 * @param inventory      the node's inventory facts by key ({@link io.rdmastorage.contract.InventoryFact}), the
 *                       keys this operator knows only; empty from a probe that sent none
 */
public record ProbeReport(String apiVersion, String kind, String node, String probeVersion, String startedAt,
                          Long durationMillis, String status, List<Check> checks, Map<String, String> inventory) {

    public ProbeReport {
        checks = List.copyOf(checks);
        inventory = Collections.unmodifiableMap(new LinkedHashMap<>(inventory));
    }

    /**
     * One check's verdict.
     *
     * @param details the measured facts behind it; an empty object when the probe gave none
     */
    public record Check(String type, String status, String reason, String message, ObjectNode details) {
    }

    /** The entry of a condition type; empty when the probe did not report it. */
    public Optional<Check> check(String type) {
        for (Check c : checks) {
            if (c.type().equals(type)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
