package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;

/**
 * The verbs target of an acceptance run: RDMA ({@code ib_write_lat}, {@code ib_write_bw}) against
 * TCP (fio's net engine) between the run's node and {@code peerNode}, the same message sizes on
 * both ({@link VerbsAcceptanceSpec}, whose bounds these are).
 */
@JsonClassDescription("RDMA (ib_write_lat, ib_write_bw) against TCP (fio's net engine) between the run's node and peerNode, with the same message sizes.")
public class AcceptanceVerbsTarget {

    @JsonPropertyDescription("The node that runs the server side (the run's node is the client, whose CPU is measured).")
    @Required
    @Pattern(Rules.NODE_NAME_REGEX)
    @Size(max = Rules.NODE_NAME_MAX_LENGTH)
    private String peerNode;

    @JsonPropertyDescription("RDMA device on both nodes, e.g. mlx5_0.")
    @Required
    @Pattern(Rules.DEVICE_REGEX)
    @Size(max = 64)
    private String device;

    @JsonPropertyDescription("HCA port (default 1).")
    @Default("1")
    @Min(Rules.MIN_HCA_PORT)
    @Max(Rules.MAX_HCA_PORT)
    private Integer port;

    @JsonPropertyDescription("Ping-pongs of 4 KiB messages in the latency workload, per transport (default 100000).")
    @Default("100000")
    @Min(VerbsAcceptanceSpec.Verbs.MIN_ITERATIONS)
    @Max(VerbsAcceptanceSpec.Verbs.MAX_ITERATIONS)
    private Integer iterations;

    @JsonPropertyDescription("Seconds the 1 MiB bandwidth workload streams, per transport (default 30).")
    @Default("30")
    @Min(AcceptanceSpec.MIN_DURATION_SECONDS)
    @Max(AcceptanceSpec.MAX_DURATION_SECONDS)
    private Integer durationSeconds;

    public String getPeerNode() {
        return peerNode;
    }

    public void setPeerNode(String peerNode) {
        this.peerNode = peerNode;
    }

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

    public Integer getIterations() {
        return iterations;
    }

    public void setIterations(Integer iterations) {
        this.iterations = iterations;
    }

    public Integer getDurationSeconds() {
        return durationSeconds;
    }

    public void setDurationSeconds(Integer durationSeconds) {
        this.durationSeconds = durationSeconds;
    }
}
