package io.rdmastorage.operator.api;

import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Toleration;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.operator.config.ProfileSettings;
import java.util.List;

/**
 * What must be true, and where: the desired state of an {@link RdmaStorageProfile}. The annotations
 * are the CRD's validation: the API server refuses bad values before any of them reaches a pod.
 */
@ValidationRule(value = "duration(self.probeTimeout) < duration(self.interval)", fieldPath = ".probeTimeout",
        reason = "FieldValueInvalid",
        messageExpression = "'probeTimeout (' + self.probeTimeout + ') must be shorter than interval (' + self.interval"
                + " + '); the defaults are 3m and 15m'")
public class RdmaStorageProfileSpec {

    /** The shortest re-probe period: probing more often would only load the nodes. */
    public static final String MIN_INTERVAL = "1m";
    /**
     * The longest re-probe period, a year: probeTimeout is shorter, so activeDeadlineSeconds stays
     * far below the int32 the API server takes, and 3 × interval (the expiry) is a valid instant.
     */
    public static final String MAX_INTERVAL = "8760h";
    public static final int MAX_CONCURRENT_PROBES = 1000;
    static final int MAX_DURATION_LENGTH = 32;

    /** Nodes to check; an empty selector matches every node. */
    @SchemaFrom(type = LabelSelectorSchema.class)
    private LabelSelector nodeSelector;
    /** Copied to the probe pods, so they run on tainted GPU or storage nodes. */
    @Size(max = Rules.MAX_LIST)
    @SchemaFrom(type = TolerationSchema[].class)
    private List<Toleration> tolerations;
    /** Re-probe period per node, a Go duration such as 15m. */
    @Default("15m")
    @Pattern(ProfileSettings.DURATION_PATTERN)
    @Size(max = MAX_DURATION_LENGTH)
    @ValidationRule(value = "duration(self) >= duration('" + MIN_INTERVAL + "')",
            message = "must be at least " + MIN_INTERVAL)
    @ValidationRule(value = "duration(self) <= duration('" + MAX_INTERVAL + "')",
            message = "must be at most " + MAX_INTERVAL + " (a probe pod's activeDeadlineSeconds is an int32)")
    private String interval;
    /** A probe pod that has not finished by then is a failed probe (Unknown). */
    @Default("3m")
    @Pattern(ProfileSettings.DURATION_PATTERN)
    @Size(max = MAX_DURATION_LENGTH)
    @ValidationRule(value = "duration(self) > duration('0s')", message = "must be longer than 0s")
    private String probeTimeout;
    /** Bound on probe pods alive at once for this profile. */
    @Default("20")
    @Min(1)
    @Max(MAX_CONCURRENT_PROBES)
    private Integer maxConcurrentProbes;
    /** Label matching nodes with this profile's verdict. */
    @Default("false")
    private Boolean nodeLabels;
    /** Taint nodes whose verdict is False (NoSchedule), so RDMA jobs avoid them. */
    @Default("false")
    private Boolean taintNotReady;
    /** Set a Node condition with the verdict, for remediation tools such as Node Healthcheck. */
    @Default("false")
    private Boolean nodeCondition;

    private RdmaCheckSpec rdma;
    private GpfsCheckSpec gpfs;
    private NvmeofCheckSpec nvmeof;
    private GdsCheckSpec gds;
    private LatencyCheckSpec latency;
    private CephCheckSpec ceph;
    private RoceCheckSpec roce;
    private TrafficCheckSpec traffic;
    private NfsCheckSpec nfs;

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

    public RoceCheckSpec getRoce() {
        return roce;
    }

    public void setRoce(RoceCheckSpec roce) {
        this.roce = roce;
    }

    public TrafficCheckSpec getTraffic() {
        return traffic;
    }

    public void setTraffic(TrafficCheckSpec traffic) {
        this.traffic = traffic;
    }

    public NfsCheckSpec getNfs() {
        return nfs;
    }

    public void setNfs(NfsCheckSpec nfs) {
        this.nfs = nfs;
    }
}
