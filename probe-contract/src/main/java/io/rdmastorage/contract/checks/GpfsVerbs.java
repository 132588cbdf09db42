package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.RecommendedAction.RESTART_DAEMON;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.PrinterColumn;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.Reasons;
import java.util.List;
import java.util.Optional;

/** GPFS (IBM Storage Scale) uses verbs RDMA to every peer it talks to, and none has fallen back to TCP. */
public final class GpfsVerbs {

    public static final String GPFS_NOT_RUNNING = "GpfsNotRunning";
    public static final String VERBS_RDMA_DISABLED = "VerbsRdmaDisabled";
    public static final String VERBS_PORTS_MISMATCH = "VerbsPortsMismatch";
    public static final String VERBS_RDMA_NOT_STARTED = "VerbsRdmaNotStarted";
    public static final String TCP_FALLBACK = "TcpFallback";
    public static final String VERBS_RDMA_SEND_DISABLED = "VerbsRdmaSendDisabled";
    public static final String PAGEPOOL_TOO_SMALL = "PagepoolTooSmall";
    public static final String VERBS_RDMA_CM_DISABLED = "VerbsRdmaCmDisabled";
    public static final String LINK_LAYER_UNKNOWN = "LinkLayerUnknown";
    public static final String RDMA_IN_USE = "RdmaInUse";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("GpfsVerbs", "gpfs", Measurement.NODE_PROBE, List.of(
            Reason.probe(RDMA_IN_USE, TRUE, "verbsRdma enabled, verbs started, every connected peer over RDMA", NONE),
            Reason.probe(GPFS_NOT_RUNNING, FALSE, "the GPFS daemon is not active on the node", RESTART_DAEMON),
            Reason.probe(VERBS_RDMA_DISABLED, FALSE, "the effective verbsRdma is disabled", FIX_CONFIG),
            Reason.probe(VERBS_PORTS_MISMATCH, FALSE, "the effective verbsPorts differ from the spec's", FIX_CONFIG),
            Reason.probe(VERBS_RDMA_NOT_STARTED, FALSE, "`mmfsadm test verbs status` says verbs RDMA is not started", INVESTIGATE_NODE),
            Reason.probe(TCP_FALLBACK, FALSE, "peers connected in `mmdiag --network` are absent from `mmfsadm test verbs conn`: silent TCP", FIX_CONFIG),
            Reason.probe(VERBS_RDMA_SEND_DISABLED, FALSE, "the spec requires verbsRdmaSend and it is off", FIX_CONFIG),
            Reason.probe(PAGEPOOL_TOO_SMALL, FALSE, "the effective pagepool is below the spec's minPagepool", FIX_CONFIG),
            Reason.probe(VERBS_RDMA_CM_DISABLED, FALSE, "verbsPorts on RoCE (link layer Ethernet) but verbsRdmaCm is off: GPFS needs RDMA CM on Ethernet", FIX_CONFIG),
            Reason.probe(LINK_LAYER_UNKNOWN, UNKNOWN, "verbsRdmaCm is off and a verbsPort's sysfs link_layer cannot be read "
                    + "(or the port is not there), with no peer connected over RDMA to show the ports work: RoCE or InfiniBand cannot be told", NONE),
            Reason.probe(Reasons.SOURCES_DISAGREE, UNKNOWN, "mmgetstate says active but a daemon command (mmdiag, mmfsadm) "
                    + "exits with an error", INVESTIGATE_NODE)),
            Optional.of(PrinterColumn.conditionStatus("GPFS", "GpfsVerbs")));

    private GpfsVerbs() {
    }
}
