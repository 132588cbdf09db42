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

/** Every declared NVMe-oF target is connected over rdma, and live. */
public final class NvmeofRdma {

    public static final String TRANSPORT_TCP = "TransportTcp";
    public static final String TARGET_NOT_CONNECTED = "TargetNotConnected";
    public static final String CONTROLLER_NOT_LIVE = "ControllerNotLive";
    public static final String CONTROLLER_UNREADABLE = "ControllerUnreadable";
    public static final String CONNECTED = "ConnectedOverRdma";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("NvmeofRdma", "nvmeof", Measurement.NODE_PROBE, List.of(
            Reason.probe(CONNECTED, TRUE, "every target has a live controller on rdma, and none on tcp", NONE),
            Reason.probe(TRANSPORT_TCP, FALSE, "a path of the target is on tcp, even beside a live rdma path: the silent fallback", FIX_CONFIG),
            Reason.probe(CONTROLLER_NOT_LIVE, FALSE, "the target's controller is connecting/resetting/dead, not live", INVESTIGATE_NODE),
            Reason.probe(TARGET_NOT_CONNECTED, FALSE, "no controller for the target's NQN, address and port", FIX_CONFIG),
            Reason.probe(CONTROLLER_UNREADABLE, UNKNOWN, "a controller's sysfs attributes cannot be read", NONE)),
            Optional.of(PrinterColumn.conditionStatus("NVMEOF", "NvmeofRdma")));

    private NvmeofRdma() {
    }
}
