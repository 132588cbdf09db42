package io.rdmastorage.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.RecommendedAction;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.verdict.RecommendedActions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What the profile gauges count, worked out from the nodes' verdicts: pure, so the aggregate step
 * and the tests count alike; {@link OperatorMetrics} only sets the series.
 */
public final class VerdictCounts {

    private VerdictCounts() {
    }

    /** One node's check that recommends an action (never None), as the metric labels it. */
    public record NodeAction(String node, String check, String reason, RecommendedAction action) {
    }

    /**
     * Each node's checks whose condition recommends an action other than None
     * ({@link RecommendedActions}), from the nodes' conditions.
     */
    public static List<NodeAction> recommendedActions(Map<String, RdmaStorageNodeStatus> byNode) {
        List<NodeAction> actions = new ArrayList<>();
        byNode.forEach((node, status) -> {
            if (status == null || status.getConditions() == null) {
                return;
            }
            for (Condition c : status.getConditions()) {
                if (!RecommendedActions.recommends(c)) {
                    continue;
                }
                RecommendedAction action = RecommendedActions.of(c.getType(), c.getStatus(), c.getReason());
                if (action != RecommendedAction.NONE) {
                    actions.add(new NodeAction(node, c.getType(), c.getReason() == null ? "" : c.getReason(), action));
                }
            }
        });
        return actions;
    }

    /**
     * The profile's storage traffic from its nodes' last RdmaTraffic windows: bytes per second over
     * RDMA (where counted) and over TCP, RDMA packets per second, and how many nodes reported.
     */
    public record StorageTraffic(long rdmaBytesPerSecond, long tcpBytesPerSecond, long rdmaPacketsPerSecond, int nodes) {
    }

    /**
     * The storage traffic of nodes whose RdmaTraffic condition carries one of the probe's own
     * reasons (a measured window: not expired, not a failed probe), from that check's details.
     */
    public static StorageTraffic storageTraffic(Iterable<RdmaStorageNodeStatus> nodes) {
        long rdma = 0;
        long tcp = 0;
        long packets = 0;
        List<JsonNode> windows = TrafficWindows.measured(nodes);
        for (JsonNode facts : windows) {
            rdma += facts.path("rdmaBytesPerSecond").asLong(0);
            tcp += facts.path("tcpBytesPerSecond").asLong(0);
            packets += facts.path("rdmaPacketsPerSecond").asLong(0);
        }
        int measured = windows.size();
        return new StorageTraffic(rdma, tcp, packets, measured);
    }

    /** A check's condition status and reason, as nodes are counted by them. */
    public record CheckReason(String check, String status, String reason) {
    }

    /**
     * Per check type, status and reason, how many nodes have that condition, from each node's
     * conditions; {@code Ready} is left out, as in {@link #countChecks}.
     */
    public static Map<CheckReason, Long> countCheckReasons(Iterable<? extends List<Condition>> nodeConditions) {
        Map<CheckReason, Long> counts = new HashMap<>();
        forEachCheck(nodeConditions, c -> counts.merge(new CheckReason(c.getType(), c.getStatus() == null ? "Unknown"
                : c.getStatus(), c.getReason() == null ? "" : c.getReason()), 1L, Long::sum));
        return counts;
    }

    /**
     * Per check type, how many nodes have that condition True, False and Unknown, from each node's
     * conditions; {@code Ready} is left out (it is {@code rdmastorage_nodes}).
     */
    public static Map<String, NodeCounts> countChecks(Iterable<? extends List<Condition>> nodeConditions) {
        Map<String, NodeCounts> counts = new TreeMap<>();
        forEachCheck(nodeConditions, c -> {
            NodeCounts n = counts.computeIfAbsent(c.getType(), t -> new NodeCounts());
            n.setMatched(n.getMatched() + 1);
            switch (String.valueOf(c.getStatus())) {
                case "True" -> n.setReady(n.getReady() + 1);
                case "False" -> n.setNotReady(n.getNotReady() + 1);
                default -> n.setUnknown(n.getUnknown() + 1);
            }
        });
        return counts;
    }

    /** Every node's check conditions: each typed condition but {@code Ready}. */
    private static void forEachCheck(Iterable<? extends List<Condition>> nodeConditions, Consumer<Condition> action) {
        for (List<Condition> conditions : nodeConditions) {
            if (conditions != null) {
                conditions.stream().filter(c -> c.getType() != null && !"Ready".equals(c.getType())).forEach(action);
            }
        }
    }
}
