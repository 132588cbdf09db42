package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One transport's numbers in an acceptance run: latency percentiles of the depth-1 workload, IOPS
 * and the host CPU they cost, and bandwidth of the sequential workload. {@code problem} is set when
 * the numbers must not be compared (the transport was not measured by itself, its bytes moved on
 * the other transport, fio failed).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One transport's numbers: latency percentiles at depth 1, IOPS and their host CPU, sequential bandwidth; problem says when they must not be compared.")
public class AcceptanceTransportResult {

    @JsonPropertyDescription("rdma or tcp (a path run: the transport the counters showed, or unknown).")
    private String transport;

    @JsonPropertyDescription("Set on a row put beside this run's from an earlier run (path.compareWith): that run's name.")
    private String run;

    @JsonPropertyDescription("The NVMe controller measured through, such as nvme1.")
    private String controller;

    @JsonPropertyDescription("Its namespace's block device, such as /dev/nvme1n1; for a path run the file it read.")
    private String device;

    @JsonPropertyDescription("True when the run connected (and then disconnected) this controller.")
    private Boolean connectedByProbe;

    @JsonPropertyDescription("4 KiB random read at depth 1: median completion latency, µs.")
    private Double latencyP50Micros;

    @JsonPropertyDescription("Its 99th percentile, µs.")
    private Double latencyP99Micros;

    @JsonPropertyDescription("Its 99.9th percentile, µs.")
    private Double latencyP999Micros;

    @JsonPropertyDescription("4 KiB random read at depth: I/O operations per second.")
    private Double iops;

    @JsonPropertyDescription("Host cores busy during the IOPS workload (from /proc/stat).")
    private Double iopsCoresBusy;

    @JsonPropertyDescription("Softirq share of all host CPU time during it, percent.")
    private Double iopsSoftPercent;

    @JsonPropertyDescription("System share of all host CPU time during it, percent.")
    private Double iopsSysPercent;

    @JsonPropertyDescription("Host CPU time per I/O in the IOPS workload, µs (cores busy / IOPS).")
    private Double cpuMicrosPerIo;

    @JsonPropertyDescription("1 MiB sequential read: GB/s (10^9 bytes).")
    private Double bandwidthGBps;

    @JsonPropertyDescription("Host cores busy during the bandwidth workload.")
    private Double bandwidthCoresBusy;

    @JsonPropertyDescription("What the node's storage counters showed over this transport's workloads (RDMA packets, NVMe/TCP bytes).")
    private String traffic;

    @JsonPropertyDescription("Why these numbers do not count, when they do not.")
    private String problem;

    public String getTransport() {
        return transport;
    }

    public void setTransport(String transport) {
        this.transport = transport;
    }

    public String getRun() {
        return run;
    }

    public void setRun(String run) {
        this.run = run;
    }

    public String getController() {
        return controller;
    }

    public void setController(String controller) {
        this.controller = controller;
    }

    public String getDevice() {
        return device;
    }

    public void setDevice(String device) {
        this.device = device;
    }

    public Boolean getConnectedByProbe() {
        return connectedByProbe;
    }

    public void setConnectedByProbe(Boolean connectedByProbe) {
        this.connectedByProbe = connectedByProbe;
    }

    public Double getLatencyP50Micros() {
        return latencyP50Micros;
    }

    public void setLatencyP50Micros(Double latencyP50Micros) {
        this.latencyP50Micros = latencyP50Micros;
    }

    public Double getLatencyP99Micros() {
        return latencyP99Micros;
    }

    public void setLatencyP99Micros(Double latencyP99Micros) {
        this.latencyP99Micros = latencyP99Micros;
    }

    public Double getLatencyP999Micros() {
        return latencyP999Micros;
    }

    public void setLatencyP999Micros(Double latencyP999Micros) {
        this.latencyP999Micros = latencyP999Micros;
    }

    public Double getIops() {
        return iops;
    }

    public void setIops(Double iops) {
        this.iops = iops;
    }

    public Double getIopsCoresBusy() {
        return iopsCoresBusy;
    }

    public void setIopsCoresBusy(Double iopsCoresBusy) {
        this.iopsCoresBusy = iopsCoresBusy;
    }

    public Double getIopsSoftPercent() {
        return iopsSoftPercent;
    }

    public void setIopsSoftPercent(Double iopsSoftPercent) {
        this.iopsSoftPercent = iopsSoftPercent;
    }

    public Double getIopsSysPercent() {
        return iopsSysPercent;
    }

    public void setIopsSysPercent(Double iopsSysPercent) {
        this.iopsSysPercent = iopsSysPercent;
    }

    public Double getCpuMicrosPerIo() {
        return cpuMicrosPerIo;
    }

    public void setCpuMicrosPerIo(Double cpuMicrosPerIo) {
        this.cpuMicrosPerIo = cpuMicrosPerIo;
    }

    public Double getBandwidthGBps() {
        return bandwidthGBps;
    }

    public void setBandwidthGBps(Double bandwidthGBps) {
        this.bandwidthGBps = bandwidthGBps;
    }

    public Double getBandwidthCoresBusy() {
        return bandwidthCoresBusy;
    }

    public void setBandwidthCoresBusy(Double bandwidthCoresBusy) {
        this.bandwidthCoresBusy = bandwidthCoresBusy;
    }

    public String getTraffic() {
        return traffic;
    }

    public void setTraffic(String traffic) {
        this.traffic = traffic;
    }

    public String getProblem() {
        return problem;
    }

    public void setProblem(String problem) {
        this.problem = problem;
    }

}
