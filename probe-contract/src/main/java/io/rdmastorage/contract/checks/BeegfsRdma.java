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
import io.rdmastorage.contract.Reasons;
import java.util.List;
import java.util.Optional;

/**
 * BeeGFS over RDMA: the listed BeeGFS mounts reach their storage and metadata servers over RDMA
 * connections only. The client falls back to TCP silently (its documented behaviour) when
 * {@code connUseRDMA} is off or an RDMA connection cannot be made.
 */
public final class BeegfsRdma {

    public static final String SERVERS_OVER_RDMA = "ServersOverRdma";
    public static final String SERVER_ON_TCP = "ServerOnTcp";
    public static final String RDMA_DISABLED = "RdmaDisabled";
    public static final String NOT_MOUNTED = "NotMounted";
    public static final String NO_CONNECTIONS = "NoConnections";
    public static final String NO_BEEGFS_MOUNTS = "NoBeegfsMounts";
    public static final String MOUNTS_UNREADABLE = "MountsUnreadable";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("BeegfsRdma", "beegfs", Measurement.NODE_PROBE, List.of(
            Reason.probe(SERVERS_OVER_RDMA, TRUE, "every connection the listed BeeGFS mounts' clients hold to a storage or "
                    + "metadata server is RDMA, with at least one such connection per mount", NONE),
            Reason.probe(SERVER_ON_TCP, FALSE, "a storage or metadata server of a listed mount is reached over TCP (or "
                    + "another non-RDMA connection): the silent fallback", FIX_CONFIG),
            Reason.probe(RDMA_DISABLED, FALSE, "the mounted client runs with connUseRDMA off: every server is reached over "
                    + "TCP", FIX_CONFIG),
            Reason.probe(NOT_MOUNTED, FALSE, "no BeeGFS file system is mounted at a listed mount point", FIX_CONFIG),
            Reason.probe(NO_CONNECTIONS, UNKNOWN, "a listed mount's client holds no connection to any storage or metadata "
                    + "server now (BeeGFS connects on demand and drops idle connections): no evidence", NONE),
            Reason.probe(NO_BEEGFS_MOUNTS, UNKNOWN, "the section lists no mounts and the host has no BeeGFS mount: nothing "
                    + "to judge", NONE),
            Reason.probe(MOUNTS_UNREADABLE, UNKNOWN, "the host's /proc/1/mounts cannot be read", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "the host's sources contradict each other: a BeeGFS mount "
                    + "without its client's /proc/fs/beegfs entry, or RDMA connections while connUseRDMA is off",
                    INVESTIGATE_NODE)),
            Optional.empty());

    private BeegfsRdma() {
    }
}
