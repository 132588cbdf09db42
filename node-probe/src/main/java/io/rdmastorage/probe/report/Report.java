package io.rdmastorage.probe.report;

import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.check.Inventory;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The probe's output, versioned by {@code apiVersion}/{@code kind} so the operator can refuse a
 * report it does not understand. Field names are part of the contract with the operator
 * ({@link ReportSchema}).
 *
 * @param status    the worst check status: True only when every check is True (and there is one)
 * @param inventory the node's inventory facts: the host's own and those its checks saw
 */
public record Report(String apiVersion, String kind, String node, String probeVersion, String startedAt,
                     long durationMillis, Status status, List<CheckResult> checks, Map<InventoryFact, String> inventory) {

    public Report {
        EnumMap<InventoryFact, String> ordered = new EnumMap<>(InventoryFact.class);   // report order
        ordered.putAll(inventory);
        inventory = Collections.unmodifiableMap(ordered);
    }

    /** A report without host inventory facts (the checks' own still count). */
    public static Report of(String node, String probeVersion, String startedAt, long durationMillis,
                            List<CheckResult> checks) {
        return of(node, probeVersion, startedAt, durationMillis, checks, Map.of());
    }

    public static Report of(String node, String probeVersion, String startedAt, long durationMillis,
                            List<CheckResult> checks, Map<InventoryFact, String> hostInventory) {
        Status worst = checks.isEmpty() ? Status.UNKNOWN : Status.TRUE;
        Inventory inventory = new Inventory().addAbsent(hostInventory);
        for (CheckResult c : checks) {
            worst = worst.worse(c.status());
            inventory.addAbsent(c.inventory());
        }
        return new Report(ReportSchema.API_VERSION, ReportSchema.KIND, node, probeVersion, startedAt, durationMillis, worst,
                List.copyOf(checks), inventory.asMap());
    }
}
