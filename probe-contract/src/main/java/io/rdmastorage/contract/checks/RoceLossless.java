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

/** The storage traffic class is lossless on every RoCE port of the host: trust, DSCP map, PFC, ECN, default ToS. */
public final class RoceLossless {

    public static final String LOSSLESS_CONFIGURED = "LosslessConfigured";
    public static final String NO_ROCE_PORT = "NoRocePort";
    public static final String TRUST_NOT_DSCP = "TrustNotDscp";
    public static final String DSCP_NOT_MAPPED_TO_LOSSLESS = "DscpNotMappedToLossless";
    public static final String PFC_NOT_ON_STORAGE_PRIORITY = "PfcNotOnStoragePriority";
    public static final String ECN_DISABLED = "EcnDisabled";
    public static final String DEFAULT_TOS_MISMATCH = "DefaultTosMismatch";
    public static final String LOSSLESS_CONFIG_UNREADABLE = "LosslessConfigUnreadable";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("RoceLossless", "roce", Measurement.NODE_PROBE, List.of(
            Reason.probe(LOSSLESS_CONFIGURED, TRUE, "on every RoCE port: trust dscp, the storage DSCP on the lossless priority, "
                    + "PFC on exactly that priority, ECN on, default ToS = the storage DSCP", NONE),
            Reason.probe(NO_ROCE_PORT, FALSE, UNKNOWN, "no RDMA port with link layer Ethernet (of the listed devices): False when "
                    + "RDMA devices exist (they are InfiniBand, or the listed ones are absent), Unknown when there is none at all", FIX_CONFIG).withAction(UNKNOWN, NONE),
            Reason.probe(TRUST_NOT_DSCP, FALSE, "the NIC trusts PCP (the default), not DSCP: routed RoCE lands in priority 0", FIX_CONFIG),
            Reason.probe(DSCP_NOT_MAPPED_TO_LOSSLESS, FALSE, "the storage DSCP maps to another priority than the lossless one", FIX_CONFIG),
            Reason.probe(PFC_NOT_ON_STORAGE_PRIORITY, FALSE, "PFC is off on the lossless priority, or on for a priority the spec does not list", FIX_CONFIG),
            Reason.probe(ECN_DISABLED, FALSE, "ECN notification (roce_np) or reaction (roce_rp) point is off on the lossless priority", FIX_CONFIG),
            Reason.probe(DEFAULT_TOS_MISMATCH, FALSE, "the ToS kernel storage clients inherit (rdma_cm default_roce_tos, "
                    + "traffic_class) does not carry the storage DSCP", FIX_CONFIG),
            Reason.probe(LOSSLESS_CONFIG_UNREADABLE, UNKNOWN, "no source shows a setting (no mlnx_qos, no dcb, no ECN sysfs, "
                    + "no rdma_cm configfs or traffic_class), or the port has no netdev", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "two sources (mlnx_qos and dcb, configfs and traffic_class) "
                    + "disagree on a setting the verdict depends on", INVESTIGATE_NODE)),
            // no column of its own: `kubectl get rdmastoragenode` keeps its width (READY covers it)
            Optional.empty());

    private RoceLossless() {
    }
}
