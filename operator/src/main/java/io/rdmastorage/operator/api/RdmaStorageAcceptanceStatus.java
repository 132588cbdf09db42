package io.rdmastorage.operator.api;

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
public class RdmaStorageAcceptanceStatus {

    /** The generation this status describes. */
    private Long observedGeneration;

    /** Pending, Running, Succeeded or Failed. */
    private String phase;

    /** What the run measures, for kubectl's TARGET column: the subsystem NQN, or the verbs device and peer node. */
    private String target;

    /** Complete and RdmaEffective. */
    private List<Condition> conditions = new ArrayList<>();

    /** When the run's pod was created. */
    private String startTime;

    /** When the run ended, either way. */
    private String completionTime;

    /** The pod that measures (namespace of the operator's probe pods). */
    private String podName;

    /** The ConfigMap (same namespace) with the Markdown record, once the run measured. */
    private String report;

    /** One row per transport, in the spec's order. */
    private List<AcceptanceTransportResult> transports = new ArrayList<>();

    /** TCP divided by RDMA, when both were measured. */
    private AcceptanceRatios ratios;

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

}
