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
 * Lustre over LNet o2ib: the listed Lustre mounts reach their servers through an o2ib (RDMA) LNet
 * network that is up and healthy, and no peer is reached over a tcp NID only.
 */
public final class LustreLnet {

    public static final String MOUNTS_OVER_RDMA = "MountsOverRdma";
    public static final String MOUNT_OVER_TCP = "MountOverTcp";
    public static final String NOT_MOUNTED = "NotMounted";
    public static final String RDMA_NETWORK_DOWN = "RdmaNetworkDown";
    public static final String HEALTH_DEGRADED = "HealthDegraded";
    public static final String PEER_ON_TCP = "PeerOnTcp";
    public static final String NO_LUSTRE_MOUNTS = "NoLustreMounts";
    public static final String MOUNTS_UNREADABLE = "MountsUnreadable";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("LustreLnet", "lustre", Measurement.NODE_PROBE, List.of(
            Reason.probe(MOUNTS_OVER_RDMA, TRUE, "every listed Lustre mount's metadata and object targets are connected "
                    + "through o2ib NIDs (without the client's imports: the mount names o2ib NIDs), the o2ib networks are up "
                    + "with full health, and every peer has an o2ib NID that is not down (an MGS on tcp carries no file data)",
                    NONE),
            Reason.probe(MOUNT_OVER_TCP, FALSE, "a listed Lustre mount's metadata or object target is connected through a "
                    + "tcp (or other non-o2ib) NID, or the mount names only tcp NIDs on a client with no o2ib NI: its "
                    + "traffic goes over TCP", FIX_CONFIG),
            Reason.probe(NOT_MOUNTED, FALSE, "no Lustre file system is mounted at a listed mount point", FIX_CONFIG),
            Reason.probe(RDMA_NETWORK_DOWN, FALSE, "an o2ib LNet network a mount or the spec needs is not configured, "
                    + "or its local NI is down", FIX_CONFIG),
            Reason.probe(HEALTH_DEGRADED, FALSE, "an o2ib local NI or peer NI has an LNet health value below the spec's "
                    + "minHealthValue: LNet routes around it", INVESTIGATE_NODE),
            Reason.probe(PEER_ON_TCP, FALSE, "an LNet peer is reachable only by tcp NIDs, or all its o2ib NIDs are down: "
                    + "the silent TCP fallback", FIX_CONFIG),
            Reason.probe(NO_LUSTRE_MOUNTS, UNKNOWN, "the section lists no mounts and the host has no Lustre mount: nothing "
                    + "to judge", NONE),
            Reason.probe(MOUNTS_UNREADABLE, UNKNOWN, "the host's /proc/1/mounts cannot be read", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "the host's sources contradict each other: Lustre mounts while "
                    + "lnetctl says LNet is down or lctl lists no import of them, or o2ib NIs up while the ko2iblnd module is "
                    + "absent", INVESTIGATE_NODE)),
            Optional.empty());

    private LustreLnet() {
    }
}
