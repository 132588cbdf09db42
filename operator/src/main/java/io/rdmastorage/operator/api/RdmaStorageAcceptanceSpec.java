package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Toleration;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** What an acceptance run measures, and where. Immutable once created. */
@ValidationRule(value = "self == oldSelf", message = "spec is immutable: an acceptance run measures what it was created with; create a new run")
@ValidationRule(value = "!has(self.latency) || ((!has(self.latency.jobs) || self.latency.jobs == 1) "
        + "&& (!has(self.latency.iodepth) || self.latency.iodepth == 1))",
        message = "latency runs one job at iodepth 1 (small-I/O latency); only latency.durationSeconds can be set")
@ValidationRule(value = "[has(self.nvmeof), has(self.path), has(self.verbs)].filter(t, t).size() == 1",
        message = "needs exactly one target: nvmeof (an NVMe-oF subsystem), path (a file-system directory) or verbs (RDMA against TCP to a peer node)")
@ValidationRule(value = "!has(self.verbs) || self.verbs.peerNode != self.nodeName",
        message = "verbs.peerNode must be another node than nodeName: the two sides of the measurement")
@ValidationRule(value = "!has(self.verbs) || (!has(self.latency) && !has(self.iops) && !has(self.bandwidth))",
        message = "the verbs target takes its lengths from verbs.iterations and verbs.durationSeconds, not from latency, iops or bandwidth")
@ValidationRule(value = "!has(self.verbs) || !has(self.storageNics)",
        message = "storageNics is for the nvmeof and path targets; the verbs target measures the one device verbs.device names")
@JsonClassDescription("What the run measures and where: nodeName and exactly one target (nvmeof, path or verbs), with optional workload settings. Immutable once created.")
public class RdmaStorageAcceptanceSpec {

    @JsonPropertyDescription("The node to measure on.")
    @Required
    @Pattern(Rules.NODE_NAME_REGEX)
    @Size(max = Rules.NODE_NAME_MAX_LENGTH)
    private String nodeName;

    @JsonPropertyDescription("Copied to the run's pod, so it runs on a tainted storage or GPU node.")
    @Size(max = Rules.MAX_LIST)
    @SchemaFrom(type = TolerationSchema[].class)
    private List<Toleration> tolerations;

    @JsonPropertyDescription("The NVMe-oF target and the transports to compare on it (one target: this, path or verbs).")
    private AcceptanceNvmeofTarget nvmeof;

    @JsonPropertyDescription("A file-system directory, measured over the transport its file system uses; compared with an earlier run.")
    private AcceptancePathTarget path;

    @JsonPropertyDescription("RDMA against TCP between this node and a peer node (one target: this, nvmeof or path).")
    private AcceptanceVerbsTarget verbs;

    @JsonPropertyDescription("4 KiB random read at depth 1: p50, p99, p99.9 completion latency.")
    private AcceptanceWorkloadSpec latency;

    @JsonPropertyDescription("4 KiB random read at depth (default 16 jobs x iodepth 32): IOPS and their CPU cost.")
    private AcceptanceWorkloadSpec iops;

    @JsonPropertyDescription("1 MiB sequential read (default 1 job x iodepth 16): GB/s and CPU, a reference value.")
    private AcceptanceWorkloadSpec bandwidth;

    @JsonPropertyDescription("The node's storage rails, as a profile's rdma.storageNics names them: only their RDMA ports' counters prove which transport carried the reads, so a training job's traffic on the compute rails (a GB200 tray's ConnectX NICs beside its BlueField-3 storage NICs) is left out. Default: every RDMA port of the node. Not for the verbs target.")
    private StorageNicsSpec storageNics;

    @JsonPropertyDescription("How many times lower RDMA's p50 small-I/O latency must be than TCP's for RdmaEffective (default 2).")
    @Default("2")
    @Min(1)
    @Max(100)
    private Double minLatencyRatio;

    @JsonPropertyDescription("Seconds after which an unfinished run is stopped and Failed (its pod deleted, so the probe disconnects what it connected); default: every workload's duration on every transport, plus 60 s per transport and 120 s for the pod's start.")
    @Min(10)
    @Max(7200)
    private Integer timeoutSeconds;

    public Integer getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public void setTimeoutSeconds(Integer timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public AcceptanceNvmeofTarget getNvmeof() {
        return nvmeof;
    }

    public void setNvmeof(AcceptanceNvmeofTarget nvmeof) {
        this.nvmeof = nvmeof;
    }

    public AcceptanceVerbsTarget getVerbs() {
        return verbs;
    }

    public void setVerbs(AcceptanceVerbsTarget verbs) {
        this.verbs = verbs;
    }

    public AcceptancePathTarget getPath() {
        return path;
    }

    public void setPath(AcceptancePathTarget path) {
        this.path = path;
    }

    public AcceptanceWorkloadSpec getLatency() {
        return latency;
    }

    public void setLatency(AcceptanceWorkloadSpec latency) {
        this.latency = latency;
    }

    public AcceptanceWorkloadSpec getIops() {
        return iops;
    }

    public void setIops(AcceptanceWorkloadSpec iops) {
        this.iops = iops;
    }

    public AcceptanceWorkloadSpec getBandwidth() {
        return bandwidth;
    }

    public void setBandwidth(AcceptanceWorkloadSpec bandwidth) {
        this.bandwidth = bandwidth;
    }

    public StorageNicsSpec getStorageNics() {
        return storageNics;
    }

    public void setStorageNics(StorageNicsSpec storageNics) {
        this.storageNics = storageNics;
    }

    public Double getMinLatencyRatio() {
        return minLatencyRatio;
    }

    public void setMinLatencyRatio(Double minLatencyRatio) {
        this.minLatencyRatio = minLatencyRatio;
    }
}
