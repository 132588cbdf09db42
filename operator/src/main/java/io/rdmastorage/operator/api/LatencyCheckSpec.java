package io.rdmastorage.operator.api;

/** Verbs latency between nodes (perftest ib_write_lat): the probe's {@code latency} section. */
public class LatencyCheckSpec {

    /** RDMA device, e.g. mlx5_0. */
    private String device;

    /** HCA port (default 1). */
    private Integer port;

    /** Bytes per message (default 2). */
    private Integer size;

    /** Iterations (default 1000). */
    private Integer iterations;

    /** Highest acceptable typical latency in microseconds (default 5). */
    private Double maxTypicalMicros;

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
}
