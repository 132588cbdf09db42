package io.rdmastorage.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import java.util.List;

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

    /** The counts over the nodes' measured traffic windows ({@link TrafficWindows}). */
    public static StorageRailCounts of(Iterable<RdmaStorageNodeStatus> nodes) {
        int carrying = 0;
        int idle = 0;
        List<JsonNode> windows = TrafficWindows.measured(nodes);
        for (JsonNode facts : windows) {
            for (JsonNode rail : facts.path("rails")) {
                if (rail.path("idle").asBoolean(false)) {
                    idle++;
                } else {
                    carrying++;
                }
            }
        }
        return new StorageRailCounts(carrying, idle, windows.size());
    }
}
