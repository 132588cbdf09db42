package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.Reason;
import java.util.List;
import java.util.Optional;

/**
 * Which transport really carried the storage bytes: counters sampled twice over a window (RDMA
 * port counters, per-priority bytes, TCP bytes of the storage sockets and GPFS peers) and the
 * fabric error counters over the same window.
 */
public final class RdmaTraffic {

    public static final String DATA_OVER_RDMA = "DataOverRdma";
    public static final String DATA_ON_TCP = "DataOnTcp";
    public static final String DATA_ON_LOSSY_PRIORITY = "DataOnLossyPriority";
    public static final String FABRIC_ERRORS = "FabricErrors";
    public static final String NO_STORAGE_TRAFFIC = "NoStorageTraffic";
    public static final String NO_COUNTER_DELTA = "NoCounterDelta";
    public static final String RAIL_IDLE = "RailIdle";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("RdmaTraffic", "traffic", Measurement.NODE_PROBE, List.of(
            Reason.probe(DATA_OVER_RDMA, TRUE, "over the window, storage traffic moved on the RDMA ports, TCP storage bytes "
                    + "stayed within maxTcpBytesPerSecond and the fabric error counters stayed within their thresholds", NONE),
            Reason.probe(DATA_ON_TCP, FALSE, "a storage peer or target (NVMe/TCP 4420, NFS 2049, GPFS 1191 or mmdiag's "
                    + "per-peer MB) moved more TCP bytes per second than maxTcpBytesPerSecond: the silent fallback", FIX_CONFIG),
            Reason.probe(DATA_ON_LOSSY_PRIORITY, FALSE, "a RoCE port's bytes did not ride the lossless priority "
                    + "(ethtool -S prio bytes): the storage traffic is on a lossy class", FIX_CONFIG),
            Reason.probe(FABRIC_ERRORS, FALSE, "an error counter (symbol errors, link downs, sequence errors, ACK timeouts, "
                    + "RNR retries, out of buffer) grew past maxErrorCount, or ECN marks, CNPs or pause frames per second past "
                    + "maxCongestionPerSecond, over the window", INVESTIGATE_NODE),
            Reason.probe(RAIL_IDLE, FALSE, "a storage client's own configuration names several RDMA rails (GPFS verbsPorts, "
                    + "LNet NIs, NVMe-oF paths, NFS mounts' client addresses) and, while its sibling rails carried traffic, "
                    + "one moved nothing (below minRdmaPacketsPerSecond) or less than minRailSharePercent of their bytes: "
                    + "the node lost that rail's bandwidth", INVESTIGATE_NODE),
            Reason.probe(NO_STORAGE_TRAFFIC, UNKNOWN, "nothing moved in the window (RDMA below minRdmaPacketsPerSecond, TCP "
                    + "within its allowance): an idle node proves nothing; probe while storage I/O runs", NONE),
            Reason.probe(NO_COUNTER_DELTA, UNKNOWN, "a counter the verdict needs is absent, at its maximum (a saturated "
                    + "legacy IB counter) or went backwards between the two samples: no delta, never a computed number; or, with "
                    + "priority, a moving port's link layer cannot be read, so whether its priority counters count is unknown", NONE)),
            // no column of its own: `kubectl get rdmastoragenode` keeps its width (READY covers it)
            Optional.empty());

    private RdmaTraffic() {
    }
}
