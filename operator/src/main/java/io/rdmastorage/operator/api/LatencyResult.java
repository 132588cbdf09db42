package io.rdmastorage.operator.api;

/** The measured verbs latency of a node to its peer, for the LATENCY-US column (kubectl upper-cases "µs" to "ΜS", which reads as milliseconds). */
public class LatencyResult {

    private String peer;
    private Double typicalMicros;
    private Double p99Micros;

    public String getPeer() {
        return peer;
    }

    public void setPeer(String peer) {
        this.peer = peer;
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
}
