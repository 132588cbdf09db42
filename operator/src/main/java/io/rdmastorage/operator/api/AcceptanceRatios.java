package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;

/** TCP divided by RDMA for the run's three numbers: above 1 means RDMA is faster or cheaper. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("TCP divided by RDMA for the run's numbers: above 1 means RDMA is faster or cheaper.")
public class AcceptanceRatios {

    @JsonPropertyDescription("TCP p50 latency / RDMA p50 latency.")
    private Double latency;

    @JsonPropertyDescription("TCP p99 latency / RDMA p99 latency.")
    private Double latencyP99;

    @JsonPropertyDescription("TCP CPU per I/O / RDMA CPU per I/O.")
    private Double cpuPerIo;

    @JsonPropertyDescription("TCP GB/s / RDMA GB/s (a reference: both may reach line rate).")
    private Double bandwidth;

    public Double getLatency() {
        return latency;
    }

    public void setLatency(Double latency) {
        this.latency = latency;
    }

    public Double getLatencyP99() {
        return latencyP99;
    }

    public void setLatencyP99(Double latencyP99) {
        this.latencyP99 = latencyP99;
    }

    public Double getCpuPerIo() {
        return cpuPerIo;
    }

    public void setCpuPerIo(Double cpuPerIo) {
        this.cpuPerIo = cpuPerIo;
    }

    public Double getBandwidth() {
        return bandwidth;
    }

    public void setBandwidth(Double bandwidth) {
        this.bandwidth = bandwidth;
    }

}
