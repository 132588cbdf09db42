package io.rdmastorage.probe.parse;

import java.util.List;

/**
 * A member of the GPFS cluster from {@code mmlscluster -Y} (section {@code clusterNode}): the names
 * and the daemon IP address a peer may be shown under in other tools' output.
 */
public record GpfsClusterNode(String nodeNumber, String daemonNodeName, String ipAddress, String adminNodeName) {

    public static List<GpfsClusterNode> from(GpfsYOutput output) {
        return output.section("clusterNode").stream()
                .filter(r -> !r.get("daemonNodeName").isEmpty())
                .map(r -> new GpfsClusterNode(r.get("nodeNumber"), r.get("daemonNodeName"), r.get("ipAddress"),
                        r.get("adminNodeName")))
                .toList();
    }
}
