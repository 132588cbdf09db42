package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
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
 * NFS over RDMA: the listed mounts use the rdma transport (proto=rdma in the host's mount table, RPC
 * transports {@code xprt: rdma} in mountstats), not TCP.
 */
public final class NfsRdma {

    public static final String MOUNTS_OVER_RDMA = "MountsOverRdma";
    public static final String MOUNT_NOT_RDMA = "MountNotRdma";
    public static final String NOT_MOUNTED = "NotMounted";
    public static final String NO_NFS_MOUNTS = "NoNfsMounts";
    public static final String MOUNTS_UNREADABLE = "MountsUnreadable";
    public static final String TRANSPORT_UNKNOWN = "TransportUnknown";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("NfsRdma", "nfs", Measurement.NODE_PROBE, List.of(
            Reason.probe(MOUNTS_OVER_RDMA, TRUE, "every listed mount is proto=rdma (rdma6 to an IPv6 server) and its RPC transports are all rdma", NONE),
            Reason.probe(MOUNT_NOT_RDMA, FALSE, "a listed mount is proto=tcp (or udp), or some of its RPC transports are not rdma", FIX_CONFIG),
            Reason.probe(NOT_MOUNTED, FALSE, "no NFS file system is mounted at a listed mount point", FIX_CONFIG),
            Reason.probe(NO_NFS_MOUNTS, UNKNOWN, "the section lists no mounts and the host has no NFS mount: nothing to judge", NONE),
            Reason.probe(MOUNTS_UNREADABLE, UNKNOWN, "the host's /proc/1/mounts or /proc/1/mountstats cannot be read", NONE),
            Reason.probe(TRANSPORT_UNKNOWN, UNKNOWN, "the mount says proto=rdma but mountstats shows no RPC transport for it", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "the mount table says proto=rdma with every transport rdma, "
                    + "but the kernel has no rpcrdma module", NONE)),
            Optional.empty());

    private NfsRdma() {
    }
}
