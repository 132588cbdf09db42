package io.rdmastorage.probe.parse;

import java.util.List;

/**
 * A node's GPFS daemon state from {@code mmgetstate -Y} (this node) or {@code mmgetstate -a -Y}
 * (every node): {@code active}, {@code arbitrating}, {@code down}, {@code unknown}, ...
 */
public record GpfsNodeState(String nodeName, String nodeNumber, String state) {

    public static final String ACTIVE = "active";

    public static List<GpfsNodeState> from(GpfsYOutput output) {
        return output.section("").stream()
                .filter(r -> !r.get("nodeName").isEmpty())
                .map(r -> new GpfsNodeState(r.get("nodeName"), r.get("nodeNumber"), r.get("state")))
                .toList();
    }

    public boolean active() {
        return ACTIVE.equals(state);
    }
}
