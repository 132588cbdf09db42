package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an acceptance run stands and what it measured: the phase, {@code Complete} and
 * {@code RdmaEffective}, one row per transport with the three numbers (latency, IOPS with their
 * CPU, bandwidth), and the TCP/RDMA ratios. The Markdown record is in the ConfigMap named by
 * {@code report}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Where the run stands and what it measured: phase, the Complete and RdmaEffective conditions, one row per transport and the TCP/RDMA ratios. The Markdown record is in the ConfigMap named by report.")
public class RdmaStorageAcceptanceStatus {

    @JsonPropertyDescription("The generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Pending, Running, Succeeded or Failed.")
    private String phase;

    @JsonPropertyDescription("What the run measures, for kubectl's TARGET column: the subsystem NQN, or the verbs device and peer node.")
    private String target;

    @JsonPropertyDescription("Complete and RdmaEffective.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("When the run's pod was created.")
    private String startTime;

    @JsonPropertyDescription("When the run ended, either way.")
    private String completionTime;

    @JsonPropertyDescription("The pod that measures (namespace of the operator's probe pods).")
    private String podName;

    @JsonPropertyDescription("The ConfigMap (same namespace) with the Markdown record, once the run measured.")
    private String report;

    @JsonPropertyDescription("One row per transport, in the spec's order.")
    private List<AcceptanceTransportResult> transports = new ArrayList<>();

    @JsonPropertyDescription("TCP divided by RDMA, when both were measured.")
    private AcceptanceRatios ratios;

    @JsonPropertyDescription("What the run may change on its node (NVMe-oF controllers it connects, the file it creates), recorded when its pod is created and kept until the pod reported that it undid them, or the run's cleanup pod did; while it stays after the run ended, the operator runs node-probe acceptance-cleanup on the node (see the CleanedUp condition). While it names a controller, profiles do not probe the node (AcceptanceRunInProgress); a deleted run waits for its cleanup.")
    private AcceptancePendingCleanup pendingCleanup;

    @JsonPropertyDescription("SHA-256 over what the operator wrote (see the operator's AcceptanceDigest): a status someone else edited no longer matches it, and the operator fails the run safely instead of trusting it.")
    private String digest;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public String getPodName() {
        return podName;
    }

    public void setPodName(String podName) {
        this.podName = podName;
    }

    public String getReport() {
        return report;
    }

    public void setReport(String report) {
        this.report = report;
    }

    public List<AcceptanceTransportResult> getTransports() {
        return transports;
    }

    public void setTransports(List<AcceptanceTransportResult> transports) {
        this.transports = transports;
    }

    public AcceptanceRatios getRatios() {
        return ratios;
    }

    public void setRatios(AcceptanceRatios ratios) {
        this.ratios = ratios;
    }

    public AcceptancePendingCleanup getPendingCleanup() {
        return pendingCleanup;
    }

    public void setPendingCleanup(AcceptancePendingCleanup pendingCleanup) {
        this.pendingCleanup = pendingCleanup;
    }

    public String getDigest() {
        return digest;
    }

    public void setDigest(String digest) {
        this.digest = digest;
    }
}
