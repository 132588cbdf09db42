package io.rdmastorage.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.checks.RdmaTraffic;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;

/**
 * A profile's storage rails over its nodes' last RdmaTraffic windows, from each window's
 * {@code details.rails} (one row per rail: client, rail, port, share, idle): how many carried their
 * share and how many idled. Per profile, not per rail: 10,000 nodes of four rails each would be
 * 40,000 series; which rail of which node idles is in that node's verdict.
 *
 * @param carrying rails that carried their share
 * @param idle     rails that moved nothing, or less than minRailSharePercent, beside moving siblings
 * @param windows  nodes whose verdict holds a measured traffic window (the gauges exist only with one)
 */
public record StorageRailCounts(int carrying, int idle, int windows) {

    private static final String TRAFFIC_CHECK = RdmaTraffic.DESCRIPTOR.conditionType();

    /** The counts of nodes whose RdmaTraffic condition carries one of the probe's own reasons (a measured window). */
    public static StorageRailCounts of(Iterable<RdmaStorageNodeStatus> nodes) {
        int carrying = 0;
        int idle = 0;
        int windows = 0;
        for (RdmaStorageNodeStatus node : nodes) {
            if (node == null || node.getConditions() == null || node.getDetails() == null) {
                continue;
            }
            boolean windowed = node.getConditions().stream().anyMatch(c -> TRAFFIC_CHECK.equals(c.getType())
                    && RdmaTraffic.DESCRIPTOR.reasons().stream().anyMatch(r -> r.name().equals(c.getReason())));
            JsonNode facts = node.getDetails().get(TRAFFIC_CHECK);
            if (!windowed || facts == null) {
                continue;
            }
            windows++;
            for (JsonNode rail : facts.path("rails")) {
                if (rail.path("idle").asBoolean(false)) {
                    idle++;
                } else {
                    carrying++;
                }
            }
        }
        return new StorageRailCounts(carrying, idle, windows);
    }
}
