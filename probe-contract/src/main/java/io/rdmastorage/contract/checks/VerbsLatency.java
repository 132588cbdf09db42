package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.PrinterColumn;
import io.rdmastorage.contract.Reason;
import java.util.List;
import java.util.Optional;

/** RDMA write latency between two nodes (perftest ib_write_lat) within {@code maxTypicalMicros}. */
public final class VerbsLatency {

    public static final String WITHIN_THRESHOLD = "WithinThreshold";
    public static final String ABOVE_THRESHOLD = "AboveThreshold";
    public static final String PEER_UNREACHABLE = "PeerUnreachable";
    public static final String RDMA_PATH_FAILED = "RdmaPathFailed";
    public static final String DEVICE_MISSING = "DeviceMissing";
    /** Before the first measurement against a peer (or in a status built by the node's own probe). */
    public static final String AWAITING_MEASUREMENT = "AwaitingMeasurement";
    /** The only measurable node: there is no peer to measure against. */
    public static final String NO_PEER = "NoPeer";

    /**
     * perftest's own default out-of-band TCP port: node-probe's {@code --tcp-port} default and the
     * operator's first latency-server port; the TCP comparison listens on the next one.
     */
    public static final int DEFAULT_TCP_PORT = 18515;

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("VerbsLatency", "latency", Measurement.PAIR_PROBE, List.of(
            Reason.probe(WITHIN_THRESHOLD, TRUE, "typical latency to the peer within maxTypicalMicros", NONE),
            Reason.probe(ABOVE_THRESHOLD, FALSE, "typical latency to the peer above maxTypicalMicros", INVESTIGATE_NODE),
            Reason.probe(PEER_UNREACHABLE, FALSE, "perftest's out-of-band TCP exchange failed: no server, firewall, wrong address; "
                    + "the operator: False when neither of two peers was reached, Unknown when there was no other to try", INVESTIGATE_NODE)
                    .alsoByOperator(UNKNOWN, NONE),
            Reason.probe(RDMA_PATH_FAILED, FALSE, "both sides met over TCP but RDMA between them failed (completion error, QP to RTR/RTS)", INVESTIGATE_NODE),
            Reason.probe(DEVICE_MISSING, FALSE, "perftest has no such HCA", FIX_CONFIG),
            Reason.operator(AWAITING_MEASUREMENT, UNKNOWN, "no measurement against a peer yet (new node or spec, or waiting for two probe slots)", NONE),
            Reason.operator(NO_PEER, UNKNOWN, "no peer to measure against: add a node, or fix referenceNodeSelector / addressType", NONE)),
            Optional.of(new PrinterColumn("LATENCY-US", ".status.latency.typicalMicros", "number")));

    private VerbsLatency() {
    }
}
