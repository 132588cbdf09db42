package io.rdmastorage.operator.api;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;

/** What must be true, and where: the desired state of an {@link RdmaStorageProfile}. */
public class RdmaStorageProfileSpec {

    /** Nodes to check; an empty selector matches every node. */
    private LabelSelector nodeSelector;
    /** Copied to the probe pods, so they run on tainted GPU or storage nodes. */
    private List<Toleration> tolerations;
    /** Re-probe period per node, a Go duration such as 15m. */
    private String interval;
    /** A probe pod that has not finished by then is a failed probe (Unknown). */
    private String probeTimeout;
    /** Bound on probe pods alive at once for this profile. */
    private Integer maxConcurrentProbes;
    /** Label matching nodes with this profile's verdict. */
    private Boolean nodeLabels;
    /** Taint nodes whose verdict is False (NoSchedule), so RDMA jobs avoid them. */
    private Boolean taintNotReady;
    /** Set a Node condition with the verdict, for remediation tools such as Node Healthcheck. */
    private Boolean nodeCondition;

    private RdmaCheckSpec rdma;
    private GpfsCheckSpec gpfs;
    private NvmeofCheckSpec nvmeof;
    private GdsCheckSpec gds;
    private LatencyCheckSpec latency;
    private CephCheckSpec ceph;

    public LabelSelector getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(LabelSelector nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public String getInterval() {
        return interval;
    }

    public void setInterval(String interval) {
        this.interval = interval;
    }

    public String getProbeTimeout() {
        return probeTimeout;
    }

    public void setProbeTimeout(String probeTimeout) {
        this.probeTimeout = probeTimeout;
    }

    public Integer getMaxConcurrentProbes() {
        return maxConcurrentProbes;
    }

    public void setMaxConcurrentProbes(Integer maxConcurrentProbes) {
        this.maxConcurrentProbes = maxConcurrentProbes;
    }

    public Boolean getNodeLabels() {
        return nodeLabels;
    }

    public void setNodeLabels(Boolean nodeLabels) {
        this.nodeLabels = nodeLabels;
    }

    public Boolean getTaintNotReady() {
        return taintNotReady;
    }

    public void setTaintNotReady(Boolean taintNotReady) {
        this.taintNotReady = taintNotReady;
    }

    public Boolean getNodeCondition() {
        return nodeCondition;
    }

    public void setNodeCondition(Boolean nodeCondition) {
        this.nodeCondition = nodeCondition;
    }

    public RdmaCheckSpec getRdma() {
        return rdma;
    }

    public void setRdma(RdmaCheckSpec rdma) {
        this.rdma = rdma;
    }

    public GpfsCheckSpec getGpfs() {
        return gpfs;
    }

    public void setGpfs(GpfsCheckSpec gpfs) {
        this.gpfs = gpfs;
    }

    public NvmeofCheckSpec getNvmeof() {
        return nvmeof;
    }

    public void setNvmeof(NvmeofCheckSpec nvmeof) {
        this.nvmeof = nvmeof;
    }

    public GdsCheckSpec getGds() {
        return gds;
    }

    public void setGds(GdsCheckSpec gds) {
        this.gds = gds;
    }

    public LatencyCheckSpec getLatency() {
        return latency;
    }

    public void setLatency(LatencyCheckSpec latency) {
        this.latency = latency;
    }

    public CephCheckSpec getCeph() {
        return ceph;
    }

    public void setCeph(CephCheckSpec ceph) {
        this.ceph = ceph;
    }
}
