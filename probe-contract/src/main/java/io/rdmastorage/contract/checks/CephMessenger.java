package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.Reason;
import java.util.List;
import java.util.Optional;

/** Where a node has /etc/ceph/ceph.conf: no experimental RDMA messenger (async+rdma, xio) is configured. */
public final class CephMessenger {

    public static final String SUPPORTED_MESSENGER = "SupportedMessenger";
    public static final String EXPERIMENTAL_RDMA_MESSENGER = "ExperimentalRdmaMessenger";
    public static final String CONFIG_UNREADABLE = "ConfigUnreadable";
    /** A node without /etc/ceph/ceph.conf: there is no messenger to misconfigure. */
    public static final String NO_CEPH_CONFIG = "NoCephConfig";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("CephMessenger", "ceph", Measurement.NODE_PROBE, List.of(
            Reason.probe(SUPPORTED_MESSENGER, TRUE, "ceph.conf selects no experimental messenger (async+posix by default)", NONE),
            Reason.probe(EXPERIMENTAL_RDMA_MESSENGER, FALSE, "ms_type, ms_cluster_type or ms_public_type is async+rdma or xio", FIX_CONFIG),
            Reason.probe(CONFIG_UNREADABLE, UNKNOWN, "/etc/ceph/ceph.conf exists but cannot be read", NONE),
            Reason.operator(NO_CEPH_CONFIG, TRUE, "the node has no /etc/ceph/ceph.conf: nothing to misconfigure", NONE)),
            Optional.empty());

    private CephMessenger() {
    }
}
