package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;

/**
 * Verbs latency between nodes (perftest ib_write_lat): the probe's {@code latency} section
 * ({@link ProbeSpec.Latency}, whose ranges these are), plus how the operator pairs nodes. Each matching node is measured as the client of one peer running the
 * server side: by default the next matching node by name (a ring, so N nodes cost N measurements);
 * with {@code referenceNodeSelector}, one of the reference nodes (e.g. storage servers).
 */
public class LatencyCheckSpec {

    @JsonPropertyDescription("RDMA device, e.g. mlx5_0.")
    @Required
    @Pattern(Rules.DEVICE_REGEX)
    @Size(max = 64)
    private String device;

    @JsonPropertyDescription("HCA port (default 1).")
    @Default("1")
    @Min(Rules.MIN_HCA_PORT)
    @Max(Rules.MAX_HCA_PORT)
    private Integer port;

    @JsonPropertyDescription("Bytes per message (default 2).")
    @Default("2")
    @Min(ProbeSpec.Latency.MIN_SIZE)
    @Max(ProbeSpec.Latency.MAX_SIZE)
    private Integer size;

    @JsonPropertyDescription("Iterations (default 1000).")
    @Default("1000")
    @Min(ProbeSpec.Latency.MIN_ITERATIONS)
    @Max(ProbeSpec.Latency.MAX_ITERATIONS)
    private Integer iterations;

    @JsonPropertyDescription("Highest acceptable typical latency in microseconds (default 5).")
    @Default("5")
    @Min(value = 0, inclusive = false)
    @Max(ProbeSpec.Latency.MAX_TYPICAL_MICROS)
    private Double maxTypicalMicros;

    @JsonPropertyDescription("Also measure the same pair over plain TCP and report how much faster RDMA is (default false).")
    @Default("false")
    private Boolean transportComparison;

    @JsonPropertyDescription("Nodes that serve as latency peers instead of the ring, such as storage servers; they need not match the profile's nodeSelector (they get no verdict unless they do). Unset: the ring.")
    @OperatorOnly
    @SchemaFrom(type = LabelSelectorSchema.class)
    private LabelSelector referenceNodeSelector;

    @JsonPropertyDescription("Which address of a peer's Node object the client connects to (default InternalIP).")
    @Default("InternalIP")
    @OperatorOnly
    private PeerAddressType addressType;

    public String getDevice() {
        return device;
    }

    public void setDevice(String device) {
        this.device = device;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public Integer getSize() {
        return size;
    }

    public void setSize(Integer size) {
        this.size = size;
    }

    public Integer getIterations() {
        return iterations;
    }

    public void setIterations(Integer iterations) {
        this.iterations = iterations;
    }

    public Double getMaxTypicalMicros() {
        return maxTypicalMicros;
    }

    public void setMaxTypicalMicros(Double maxTypicalMicros) {
        this.maxTypicalMicros = maxTypicalMicros;
    }

    public Boolean getTransportComparison() {
        return transportComparison;
    }

    public void setTransportComparison(Boolean transportComparison) {
        this.transportComparison = transportComparison;
    }

    public LabelSelector getReferenceNodeSelector() {
        return referenceNodeSelector;
    }

    public void setReferenceNodeSelector(LabelSelector referenceNodeSelector) {
        this.referenceNodeSelector = referenceNodeSelector;
    }

    public PeerAddressType getAddressType() {
        return addressType;
    }

    public void setAddressType(PeerAddressType addressType) {
        this.addressType = addressType;
    }
}
