package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/**
 * Errors between two probe rounds: the probe's {@code portErrors} section ({@link ProbeSpec.PortErrors},
 * whose fields, defaults and ranges these are; the defaults are NVIDIA NVSentinel's rules, the
 * constants of the contract's {@code RdmaPortErrors.Counter}). The previous round's reading travels
 * in the RdmaStorageNode's status, not here.
 */
public class PortErrorsCheckSpec {

    @JsonPropertyDescription("RDMA ports whose error counters are compared across rounds, as device/port, e.g. mlx5_0/1; empty = every RDMA port.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = RdmaCheckSpec.DEVICE_PORTS_RULE, message = RdmaCheckSpec.DEVICE_PORTS_RULE_MESSAGE)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = RdmaCheckSpec.DEVICE_PORT_MAX_LENGTH) String> devices;

    @JsonPropertyDescription("Times per hour the link may go down (link_downed) between two rounds; default 0: any link down is LinkErrorsBetweenRounds, as NVIDIA NVSentinel treats it. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_FATAL_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxLinkDownedPerHour;

    @JsonPropertyDescription("Excessive buffer overrun errors per hour (excessive_buffer_overrun_errors); default 0: any is LinkErrorsBetweenRounds. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_FATAL_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxBufferOverrunErrorsPerHour;

    @JsonPropertyDescription("Local link integrity errors per hour (local_link_integrity_errors); default 0: any is LinkErrorsBetweenRounds. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_FATAL_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxLinkIntegrityErrorsPerHour;

    @JsonPropertyDescription("Symbol errors per hour (symbol_error); default 120, the IBTA bound of a 10^-12 bit error rate; above it is LinkErrorsBetweenRounds. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_SYMBOL_ERRORS_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxSymbolErrorsPerHour;

    @JsonPropertyDescription("RNR retries exhausted per hour (mlx5's rnr_nak_retry_err, soft-RoCE's retry_rnr_exceeded_err); default 0: any is RnrRetriesExceeded. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_FATAL_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxRnrRetriesExceededPerHour;

    @JsonPropertyDescription("Link error recoveries (retrainings) per hour (link_error_recovery); default 300 (5 a minute); above it is ErrorRateAboveLimit. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_LINK_ERROR_RECOVERIES_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxLinkErrorRecoveriesPerHour;

    @JsonPropertyDescription("Receive errors per hour (port_rcv_errors); default 36000 (10 a second); above it is ErrorRateAboveLimit. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_RECEIVE_ERRORS_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxReceiveErrorsPerHour;

    @JsonPropertyDescription("ACK timeouts per hour (mlx5's local_ack_timeout_err); default 3600 (1 a second); above it is ErrorRateAboveLimit. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_ACK_TIMEOUTS_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxAckTimeoutsPerHour;

    @JsonPropertyDescription("Transmit discards per hour (port_xmit_discards); default 360000 (100 a second); above it is ErrorRateAboveLimit. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_TRANSMIT_DISCARDS_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxTransmitDiscardsPerHour;

    @JsonPropertyDescription("Carrier changes per hour of a RoCE port's netdev (its Ethernet ports' carrier_changes; one flap is two); default 2; above it is ErrorRateAboveLimit. Averaged over the time between the two rounds' readings.")
    @Default("" + RdmaPortErrors.DEFAULT_CARRIER_CHANGES_PER_HOUR)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxCarrierChangesPerHour;

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public Integer getMaxLinkDownedPerHour() {
        return maxLinkDownedPerHour;
    }

    public void setMaxLinkDownedPerHour(Integer maxLinkDownedPerHour) {
        this.maxLinkDownedPerHour = maxLinkDownedPerHour;
    }

    public Integer getMaxBufferOverrunErrorsPerHour() {
        return maxBufferOverrunErrorsPerHour;
    }

    public void setMaxBufferOverrunErrorsPerHour(Integer maxBufferOverrunErrorsPerHour) {
        this.maxBufferOverrunErrorsPerHour = maxBufferOverrunErrorsPerHour;
    }

    public Integer getMaxLinkIntegrityErrorsPerHour() {
        return maxLinkIntegrityErrorsPerHour;
    }

    public void setMaxLinkIntegrityErrorsPerHour(Integer maxLinkIntegrityErrorsPerHour) {
        this.maxLinkIntegrityErrorsPerHour = maxLinkIntegrityErrorsPerHour;
    }

    public Integer getMaxSymbolErrorsPerHour() {
        return maxSymbolErrorsPerHour;
    }

    public void setMaxSymbolErrorsPerHour(Integer maxSymbolErrorsPerHour) {
        this.maxSymbolErrorsPerHour = maxSymbolErrorsPerHour;
    }

    public Integer getMaxRnrRetriesExceededPerHour() {
        return maxRnrRetriesExceededPerHour;
    }

    public void setMaxRnrRetriesExceededPerHour(Integer maxRnrRetriesExceededPerHour) {
        this.maxRnrRetriesExceededPerHour = maxRnrRetriesExceededPerHour;
    }

    public Integer getMaxLinkErrorRecoveriesPerHour() {
        return maxLinkErrorRecoveriesPerHour;
    }

    public void setMaxLinkErrorRecoveriesPerHour(Integer maxLinkErrorRecoveriesPerHour) {
        this.maxLinkErrorRecoveriesPerHour = maxLinkErrorRecoveriesPerHour;
    }

    public Integer getMaxReceiveErrorsPerHour() {
        return maxReceiveErrorsPerHour;
    }

    public void setMaxReceiveErrorsPerHour(Integer maxReceiveErrorsPerHour) {
        this.maxReceiveErrorsPerHour = maxReceiveErrorsPerHour;
    }

    public Integer getMaxAckTimeoutsPerHour() {
        return maxAckTimeoutsPerHour;
    }

    public void setMaxAckTimeoutsPerHour(Integer maxAckTimeoutsPerHour) {
        this.maxAckTimeoutsPerHour = maxAckTimeoutsPerHour;
    }

    public Integer getMaxTransmitDiscardsPerHour() {
        return maxTransmitDiscardsPerHour;
    }

    public void setMaxTransmitDiscardsPerHour(Integer maxTransmitDiscardsPerHour) {
        this.maxTransmitDiscardsPerHour = maxTransmitDiscardsPerHour;
    }

    public Integer getMaxCarrierChangesPerHour() {
        return maxCarrierChangesPerHour;
    }

    public void setMaxCarrierChangesPerHour(Integer maxCarrierChangesPerHour) {
        this.maxCarrierChangesPerHour = maxCarrierChangesPerHour;
    }
}
