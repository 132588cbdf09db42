package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * The last verbs latency measurement of a node as the client of a peer: the numbers behind its
 * VerbsLatency condition. {@code typicalMicros} is the LATENCY-US column (not "LATENCY(µs)": kubectl
 * upper-cases headers, and "ΜS" reads as milliseconds).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The last verbs latency measurement of the node as the client of a peer: the numbers behind its VerbsLatency condition.")
public class LatencyResult {

    @JsonPropertyDescription("The peer node measured against (the latency-server side).")
    private String peer;
    @JsonPropertyDescription("The peer's address the client connected to.")
    private String peerAddress;
    @JsonPropertyDescription("perftest's t_typical in microseconds.")
    private Double typicalMicros;
    @JsonPropertyDescription("perftest's 99th percentile in microseconds.")
    private Double p99Micros;
    @JsonPropertyDescription("transportComparison: the same pair over TCP, typical one-way microseconds.")
    private Double tcpTypicalMicros;
    @JsonPropertyDescription("transportComparison: tcpTypicalMicros / typicalMicros.")
    private Double rdmaSpeedup;
    @JsonPropertyDescription("Peers this node could not reach in the measurement, before it tried another.")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<String> unreachablePeers = new ArrayList<>();
    @JsonPropertyDescription("When the measurement was harvested (RFC 3339).")
    private String measuredAt;
    @JsonPropertyDescription("Latency rounds run for this node; names the next latency pods.")
    private Long round;
    @JsonPropertyDescription("The profile generation the measurement was made for.")
    private Long observedGeneration;

    public String getPeer() {
        return peer;
    }

    public void setPeer(String peer) {
        this.peer = peer;
    }

    public String getPeerAddress() {
        return peerAddress;
    }

    public void setPeerAddress(String peerAddress) {
        this.peerAddress = peerAddress;
    }

    public Double getTypicalMicros() {
        return typicalMicros;
    }

    public void setTypicalMicros(Double typicalMicros) {
        this.typicalMicros = typicalMicros;
    }

    public Double getP99Micros() {
        return p99Micros;
    }

    public void setP99Micros(Double p99Micros) {
        this.p99Micros = p99Micros;
    }

    public Double getTcpTypicalMicros() {
        return tcpTypicalMicros;
    }

    public void setTcpTypicalMicros(Double tcpTypicalMicros) {
        this.tcpTypicalMicros = tcpTypicalMicros;
    }

    public Double getRdmaSpeedup() {
        return rdmaSpeedup;
    }

    public void setRdmaSpeedup(Double rdmaSpeedup) {
        this.rdmaSpeedup = rdmaSpeedup;
    }

    public List<String> getUnreachablePeers() {
        return unreachablePeers;
    }

    public void setUnreachablePeers(List<String> unreachablePeers) {
        this.unreachablePeers = unreachablePeers;
    }

    public String getMeasuredAt() {
        return measuredAt;
    }

    public void setMeasuredAt(String measuredAt) {
        this.measuredAt = measuredAt;
    }

    public Long getRound() {
        return round;
    }

    public void setRound(Long round) {
        this.round = round;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
