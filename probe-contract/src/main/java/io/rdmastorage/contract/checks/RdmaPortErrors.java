package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.RecommendedAction.RESEAT_CABLE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.Reason;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Errors between two probe rounds: each RDMA port's error counters now against the previous
 * round's reading (the {@link io.rdmastorage.contract.spec.CounterBaseline} the operator keeps in the
 * node's status and hands to the next probe pod), judged as rates per hour. A link that flapped or
 * took errors between two rounds is invisible to a window of seconds; its counters are not.
 */
public final class RdmaPortErrors {

    public static final String PORT_ERRORS_WITHIN_RATES = "PortErrorsWithinRates";
    public static final String LINK_ERRORS_BETWEEN_ROUNDS = "LinkErrorsBetweenRounds";
    public static final String RNR_RETRIES_EXCEEDED = "RnrRetriesExceeded";
    public static final String ERROR_RATE_ABOVE_LIMIT = "ErrorRateAboveLimit";
    public static final String NO_COUNTER_BASELINE = "NoCounterBaseline";
    public static final String NO_COUNTER_DELTA = RdmaTraffic.NO_COUNTER_DELTA;

    /* The default rates per hour (the CRD's defaults are these constants): NVSentinel's rules. */
    /** Fatal counters: any increase. */
    public static final int DEFAULT_FATAL_PER_HOUR = 0;
    /** The IBTA bound of a 10^-12 bit error rate. */
    public static final int DEFAULT_SYMBOL_ERRORS_PER_HOUR = 120;
    /** NVSentinel's non-fatal rates, per hour: 5 a minute, 10 a second, 1 a second, 100 a second. */
    public static final int DEFAULT_LINK_ERROR_RECOVERIES_PER_HOUR = 300;
    public static final int DEFAULT_RECEIVE_ERRORS_PER_HOUR = 36_000;
    public static final int DEFAULT_ACK_TIMEOUTS_PER_HOUR = 3_600;
    public static final int DEFAULT_TRANSMIT_DISCARDS_PER_HOUR = 360_000;
    /** One flap is two carrier changes (down, up): more than one flap an hour. */
    public static final int DEFAULT_CARRIER_CHANGES_PER_HOUR = 2;

    /** The key of the check's details that holds this round's reading: the next round's baseline. */
    public static final String BASELINE_DETAIL = "baseline";

    /**
     * The error counters compared across rounds (NVIDIA NVSentinel's NIC health monitor's counters and
     * default rules; symbol errors at the IBTA bound of a 10⁻¹² bit error rate, 120 per hour). Their
     * order is the wire order of a baseline's values: append only.
     */
    public enum Counter {
        LINK_DOWNED("link_downed", "maxLinkDownedPerHour", DEFAULT_FATAL_PER_HOUR, LINK_ERRORS_BETWEEN_ROUNDS),
        EXCESSIVE_BUFFER_OVERRUN_ERRORS("excessive_buffer_overrun_errors", "maxBufferOverrunErrorsPerHour",
                DEFAULT_FATAL_PER_HOUR, LINK_ERRORS_BETWEEN_ROUNDS),
        LOCAL_LINK_INTEGRITY_ERRORS("local_link_integrity_errors", "maxLinkIntegrityErrorsPerHour", DEFAULT_FATAL_PER_HOUR,
                LINK_ERRORS_BETWEEN_ROUNDS),
        SYMBOL_ERROR("symbol_error", "maxSymbolErrorsPerHour", DEFAULT_SYMBOL_ERRORS_PER_HOUR, LINK_ERRORS_BETWEEN_ROUNDS),
        RNR_NAK_RETRY_ERR("rnr_nak_retry_err", "maxRnrRetriesExceededPerHour", DEFAULT_FATAL_PER_HOUR, RNR_RETRIES_EXCEEDED),
        LINK_ERROR_RECOVERY("link_error_recovery", "maxLinkErrorRecoveriesPerHour", DEFAULT_LINK_ERROR_RECOVERIES_PER_HOUR,
                ERROR_RATE_ABOVE_LIMIT),
        PORT_RCV_ERRORS("port_rcv_errors", "maxReceiveErrorsPerHour", DEFAULT_RECEIVE_ERRORS_PER_HOUR, ERROR_RATE_ABOVE_LIMIT),
        LOCAL_ACK_TIMEOUT_ERR("local_ack_timeout_err", "maxAckTimeoutsPerHour", DEFAULT_ACK_TIMEOUTS_PER_HOUR,
                ERROR_RATE_ABOVE_LIMIT),
        PORT_XMIT_DISCARDS("port_xmit_discards", "maxTransmitDiscardsPerHour", DEFAULT_TRANSMIT_DISCARDS_PER_HOUR,
                ERROR_RATE_ABOVE_LIMIT),
        CARRIER_CHANGES("carrier_changes", "maxCarrierChangesPerHour", DEFAULT_CARRIER_CHANGES_PER_HOUR, ERROR_RATE_ABOVE_LIMIT);

        private final String wire;
        private final String field;
        private final int defaultPerHour;
        private final String reason;

        Counter(String wire, String field, int defaultPerHour, String reason) {
            this.wire = wire;
            this.field = field;
            this.defaultPerHour = defaultPerHour;
            this.reason = reason;
        }

        /** Its name in a baseline and a message: {@code link_downed}, ... (mlx5's names). */
        public String wire() {
            return wire;
        }

        /** The {@code portErrors} field that bounds its rate. */
        public String field() {
            return field;
        }

        public int defaultPerHour() {
            return defaultPerHour;
        }

        /** The False reason its rate above the bound gives. */
        public String reason() {
            return reason;
        }

        /** NVSentinel's fatal counters: the workload fails (or failed) when they grow. */
        public boolean fatal() {
            return !reason.equals(ERROR_RATE_ABOVE_LIMIT);
        }

        public static Optional<Counter> ofWire(String wire) {
            return Arrays.stream(values()).filter(c -> c.wire.equals(wire)).findFirst();
        }
    }

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("RdmaPortErrors", "portErrors", Measurement.NODE_PROBE,
            List.of(
            Reason.probe(PORT_ERRORS_WITHIN_RATES, TRUE, "since the previous round (same boot), every judged port's error "
                    + "counters grew within their portErrors rates per hour", NONE),
            Reason.probe(LINK_ERRORS_BETWEEN_ROUNDS, FALSE, "since the previous round a port's link went down (link_downed), "
                    + "took local link integrity or excessive buffer overrun errors, or symbol errors above "
                    + "maxSymbolErrorsPerHour (120: the IBTA 10^-12 bit error rate): the link flapped or is out of "
                    + "specification between the rounds", RESEAT_CABLE),
            Reason.probe(RNR_RETRIES_EXCEEDED, FALSE, "since the previous round a requester exhausted its RNR retries "
                    + "(rnr_nak_retry_err, soft-RoCE's retry_rnr_exceeded_err): a connection was severed because the "
                    + "responder had no receive buffer posted", INVESTIGATE_NODE),
            Reason.probe(ERROR_RATE_ABOVE_LIMIT, FALSE, "since the previous round a port's link error recoveries, receive "
                    + "errors, ACK timeouts, transmit discards or its netdev's carrier changes grew faster than their "
                    + "portErrors rates per hour: a degrading link or a congested fabric", INVESTIGATE_NODE),
            Reason.probe(NO_COUNTER_BASELINE, UNKNOWN, "no reading of the previous round to compare with: the first round, "
                    + "the node rebooted (its boot id changed), a port appeared, or the previous round's reading was not "
                    + "kept; this round's reading is the next round's baseline", NONE),
            Reason.probe(NO_COUNTER_DELTA, UNKNOWN, "a counter has no delta since the previous round: at its maximum (a "
                    + "saturated legacy IB counter), lower than before (reset without a reboot), or no longer readable, "
                    + "or the host's boot id cannot be read (a reboot could not be told); never a computed number", NONE)),
            // no column of its own: READY covers it
            Optional.empty());

    private RdmaPortErrors() {
    }
}
