package io.rdmastorage.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.checks.RdmaTraffic;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The measured RdmaTraffic windows of a profile's nodes: the check's details of each node whose
 * RdmaTraffic condition carries one of the probe's own reasons (not expired, not a failed probe),
 * which the traffic and rail gauges sum.
 */
final class TrafficWindows {

    static final String TRAFFIC_CHECK = RdmaTraffic.DESCRIPTOR.conditionType();

    private TrafficWindows() {
    }

    static List<JsonNode> measured(Iterable<RdmaStorageNodeStatus> nodes) {
        List<JsonNode> windows = new ArrayList<>();
        for (RdmaStorageNodeStatus node : nodes) {
            if (node == null || node.getConditions() == null || node.getDetails() == null) {
                continue;
            }
            boolean windowed = node.getConditions().stream().anyMatch(c -> TRAFFIC_CHECK.equals(c.getType())
                    && RdmaTraffic.DESCRIPTOR.reasons().stream().anyMatch(r -> r.name().equals(c.getReason())));
            JsonNode facts = node.getDetails().get(TRAFFIC_CHECK);
            if (windowed && facts != null) {
                windows.add(facts);
            }
        }
        return windows;
    }
}
