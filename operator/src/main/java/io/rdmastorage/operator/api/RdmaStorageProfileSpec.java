package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
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
import java.util.List;

/**
 * What must be true, and where: the desired state of an {@link RdmaStorageProfile}. The annotations
 * are the CRD's validation: the API server refuses bad values before any of them reaches a pod.
 */
@ValidationRule(value = "!self.probeTimeout.matches(r'" + RdmaStorageProfileSpec.DURATION_PATTERN + "') || !self.interval.matches(r'"
        + RdmaStorageProfileSpec.DURATION_PATTERN + "') || duration(self.probeTimeout) < duration(self.interval)", fieldPath = ".probeTimeout",
        reason = "FieldValueInvalid",
        messageExpression = "'probeTimeout (' + self.probeTimeout + ') must be shorter than interval (' + self.interval"
                + " + '); the defaults are 3m and 15m'")
@JsonClassDescription("Which nodes to check, how often, what to do with the verdict, and one section per check: a check runs only when its section is present (spec: {} checks that the nodes can be probed at all).")
public class RdmaStorageProfileSpec {

    /** Go-style durations as Kubernetes writes them: 90s, 15m, 1h30m, 500ms (interval, probeTimeout). */
    public static final String DURATION_PATTERN = "^([0-9]+(ms|s|m|h))+$";

    /** The shortest re-probe period: probing more often would only load the nodes. */
    public static final String MIN_INTERVAL = "1m";
    /**
     * The longest re-probe period, a year: probeTimeout is shorter, so activeDeadlineSeconds stays
     * far below the int32 the API server takes, and 3 × interval (the expiry) is a valid instant.
     */
    public static final String MAX_INTERVAL = "8760h";
    public static final int MAX_CONCURRENT_PROBES = 1000;
    static final int MAX_DURATION_LENGTH = 32;

    @JsonPropertyDescription("Which nodes this profile checks, by node labels (matchLabels and matchExpressions, as in a Deployment's selector). Absent or empty: every node of the cluster.")
    @SchemaFrom(type = LabelSelectorSchema.class)
    private LabelSelector nodeSelector;
    @JsonPropertyDescription("Tolerations copied to every probe pod, so that probes run on tainted GPU or storage nodes (the fields of a pod's tolerations). Absent: none.")
    @Size(max = Rules.MAX_LIST)
    @SchemaFrom(type = TolerationSchema[].class)
    private List<Toleration> tolerations;
    @JsonPropertyDescription("How often each node is probed again, a Go duration such as 15m or 1h30m, from 1m to 8760h. Default 15m. A node's result expires (Unknown) when it is older than three intervals.")
    @Default("15m")
    @Pattern(DURATION_PATTERN)
    @Size(max = MAX_DURATION_LENGTH)
    @ValidationRule(value = PatternGuards.UNLESS_DURATION + "duration(self) >= duration('" + MIN_INTERVAL + "')",
            message = "must be at least " + MIN_INTERVAL)
    @ValidationRule(value = PatternGuards.UNLESS_DURATION + "duration(self) <= duration('" + MAX_INTERVAL + "')",
            message = "must be at most " + MAX_INTERVAL + " (a probe pod's activeDeadlineSeconds is an int32)")
    private String interval;
    @JsonPropertyDescription("How long a probe pod may run, a Go duration such as 3m; a probe that has not finished by then failed and the node's verdict is Unknown. Must be shorter than interval. Default 3m.")
    @Default("3m")
    @Pattern(DURATION_PATTERN)
    @Size(max = MAX_DURATION_LENGTH)
    @ValidationRule(value = PatternGuards.UNLESS_DURATION + "duration(self) > duration('0s')", message = "must be longer than 0s")
    private String probeTimeout;
    @JsonPropertyDescription("The most probe pods of this profile that run at the same time, cluster-wide, 1-1000. Default 20.")
    @Default("20")
    @Min(1)
    @Max(MAX_CONCURRENT_PROBES)
    private Integer maxConcurrentProbes;
    @JsonPropertyDescription("When true, each matching Node gets a label with this profile's verdict, so workloads can select ready nodes. Default false.")
    @Default("false")
    private Boolean nodeLabels;
    @JsonPropertyDescription("When true, a node whose verdict is False (not ready) gets a NoSchedule taint, so new RDMA jobs avoid it. Default false.")
    @Default("false")
    private Boolean taintNotReady;
    @JsonPropertyDescription("When true, each matching Node gets a condition with this profile's verdict, for remediation tools such as Node Healthcheck. Default false.")
    @Default("false")
    private Boolean nodeCondition;

    @JsonPropertyDescription("A readiness gate for joining nodes: the key of a taint the kubelet registers the node with (--register-with-taints), which the operator lifts once the node's verdict for this profile is True, so that the node takes no storage jobs until its storage is proven; in mode Continuous it is put back while the verdict is False. Only that key, only on the nodes this profile selects. Absent: no startup taint is touched.")
    private StartupTaintSpec startupTaint;

    @JsonPropertyDescription("Fence a faulty NIC instead of the node: while a verdict is False because of one RDMA device (its port down, disabled or not activated, a fatal kernel-log line, error counters that grew, fabric errors on its port, its rail idle), the operator writes a DRA DeviceTaintRule on that device as its DRA driver publishes it, and deletes the rule when a later probe finds the device healthy or the profile goes. With taintNotReady, the node itself is then tainted only for faults that are not one device's, or where a faulty device cannot be fenced (the cluster serves no DeviceTaintRule API, or no configured driver publishes the device): the verdict's Events say which. Absent: no device taints.")
    private DeviceTaintsSpec deviceTaints;

    @JsonPropertyDescription("Check RDMA devices: the ports must be present and ACTIVE, with at least the given MTU and rate. Absent: not checked.")
    private RdmaCheckSpec rdma;
    @JsonPropertyDescription("Check that IBM Storage Scale (GPFS) uses verbs RDMA: its verbsPorts, its RDMA connections to the required peers, verbsRdmaSend and the pagepool. Absent: not checked.")
    private GpfsCheckSpec gpfs;
    @JsonPropertyDescription("Check that NVMe-oF targets are connected over RDMA and live. Absent: not checked.")
    private NvmeofCheckSpec nvmeof;
    @JsonPropertyDescription("Check GPUDirect Storage readiness (nvidia-fs, IOMMU, PCIe topology, cuFile settings). Absent: not checked.")
    private GdsCheckSpec gds;
    @JsonPropertyDescription("Measure verbs latency (perftest ib_write_lat) between matching nodes and check it against a bound. Absent: not measured.")
    private LatencyCheckSpec latency;
    @JsonPropertyDescription("Present ({}): flag an experimental RDMA messenger (async+rdma, xio) configured in /etc/ceph/ceph.conf. It has no settings. Absent: not checked.")
    private CephCheckSpec ceph;
    @JsonPropertyDescription("Check the lossless traffic class of RoCE storage traffic: the DSCP must map to the priority, with PFC and ECN on. Absent: not checked.")
    private RoceCheckSpec roce;
    @JsonPropertyDescription("Check which transport really carried the storage bytes, from the counters sampled over a window (RDMA against TCP), with error and congestion counters. Absent: not checked.")
    private TrafficCheckSpec traffic;
    @JsonPropertyDescription("Check that NFS mounts use the rdma transport (proto=rdma). Absent: not checked.")
    private NfsCheckSpec nfs;
    @JsonPropertyDescription("Compare each RDMA port's error counters with the previous round's reading and judge their growth as rates per hour (link downs, symbol errors, RNR retries exhausted, ...): a link that flapped between two rounds. The first round, and the first after a reboot, only takes the baseline (Unknown NoCounterBaseline). Absent: not checked.")
    private PortErrorsCheckSpec portErrors;
    @JsonPropertyDescription("Check that Lustre mounts reach their servers over LNet o2ib (RDMA): the mounts' server NIDs, the o2ib networks' NIs and health values, and no server reachable only by a tcp NID. Absent: not checked.")
    private LustreCheckSpec lustre;
    @JsonPropertyDescription("Check that BeeGFS mounts reach their storage and metadata servers over RDMA: each mounted client's connections per server in /proc/fs/beegfs (what beegfs-net shows), no server on TCP (the silent fallback), connUseRDMA on. Absent: not checked.")
    private BeegfsCheckSpec beegfs;
    @JsonPropertyDescription("How the nodes' inventory facts (kernel, HCA firmware, ...) are compared across the profile's nodes, for the profile's FleetConsistent and each node's MatchesFleet condition. Absent: every fact must agree, and a node that differs is reported but stays ready.")
    private FleetSpec fleet;

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

    public StartupTaintSpec getStartupTaint() {
        return startupTaint;
    }

    public void setStartupTaint(StartupTaintSpec startupTaint) {
        this.startupTaint = startupTaint;
    }

    public DeviceTaintsSpec getDeviceTaints() {
        return deviceTaints;
    }

    public void setDeviceTaints(DeviceTaintsSpec deviceTaints) {
        this.deviceTaints = deviceTaints;
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

    public FleetSpec getFleet() {
        return fleet;
    }

    public void setFleet(FleetSpec fleet) {
        this.fleet = fleet;
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

    public PortErrorsCheckSpec getPortErrors() {
        return portErrors;
    }

    public void setPortErrors(PortErrorsCheckSpec portErrors) {
        this.portErrors = portErrors;
    }

    public LustreCheckSpec getLustre() {
        return lustre;
    }

    public void setLustre(LustreCheckSpec lustre) {
        this.lustre = lustre;
    }

    public BeegfsCheckSpec getBeegfs() {
        return beegfs;
    }

    public void setBeegfs(BeegfsCheckSpec beegfs) {
        this.beegfs = beegfs;
    }
}
