package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One node's verdict for one profile: a condition per check plus the facts that justify it. */
// absent facts are left out, not written as null: the schema types them as objects and lists
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The node's verdict: Ready, a condition per check, and the facts the probe reported.")
public class RdmaStorageNodeStatus {

    @JsonPropertyDescription("The profile generation that was probed.")
    private Long observedGeneration;
    @JsonPropertyDescription("Ready, plus one per check (RdmaDevices, GpfsVerbs, NvmeofRdma, GdsReady, VerbsLatency, CephMessenger).")
    private List<Condition> conditions = new ArrayList<>();
    @JsonPropertyDescription("When the last probe's result was harvested (RFC 3339).")
    private String lastProbeTime;
    @JsonPropertyDescription("The pod that produced the result.")
    private String probePod;
    @JsonPropertyDescription("Probe rounds run on this node for this profile; names the next probe pod.")
    private Long probeRound;
    @JsonPropertyDescription("How long the probe itself took.")
    private Long probeDurationMillis;
    @JsonPropertyDescription("node-probe's version.")
    private String probeVersion;
    @JsonPropertyDescription("Per check, keyed by check type: the facts the probe measured (peers over RDMA, transports, ...), and recommendedAction, what the reason of the check's condition asks someone to do about the node: ReseatCable, ReplaceNIC, FixConfig, RestartDaemon, InvestigateNode or None.")
    // Left out when empty: server-side apply of {} over a map we owned leaves null, which the schema refuses.
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, JsonNode> details = new LinkedHashMap<>();
    @JsonPropertyDescription("The last verbs latency measurement (with a latency section in the profile).")
    private LatencyResult latency;
    @JsonPropertyDescription("The node's inventory facts from its last probe report (kernel, hcaFirmware, ...), compared across the profile's nodes.")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private Map<String, String> inventory = new LinkedHashMap<>();
    @JsonPropertyDescription("SHA-256 over what the operator wrote (see the operator's VerdictDigest): a status someone else edited no longer matches it, and the operator discards it instead of trusting it.")
    private String digest;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public String getLastProbeTime() {
        return lastProbeTime;
    }

    public void setLastProbeTime(String lastProbeTime) {
        this.lastProbeTime = lastProbeTime;
    }

    public String getProbePod() {
        return probePod;
    }

    public void setProbePod(String probePod) {
        this.probePod = probePod;
    }

    public Long getProbeRound() {
        return probeRound;
    }

    public void setProbeRound(Long probeRound) {
        this.probeRound = probeRound;
    }

    public Long getProbeDurationMillis() {
        return probeDurationMillis;
    }

    public void setProbeDurationMillis(Long probeDurationMillis) {
        this.probeDurationMillis = probeDurationMillis;
    }

    public String getProbeVersion() {
        return probeVersion;
    }

    public void setProbeVersion(String probeVersion) {
        this.probeVersion = probeVersion;
    }

    public Map<String, JsonNode> getDetails() {
        return details;
    }

    public void setDetails(Map<String, JsonNode> details) {
        this.details = details;
    }

    public Map<String, String> getInventory() {
        return inventory;
    }

    public void setInventory(Map<String, String> inventory) {
        this.inventory = inventory;
    }

    public LatencyResult getLatency() {
        return latency;
    }

    public void setLatency(LatencyResult latency) {
        this.latency = latency;
    }

    public String getDigest() {
        return digest;
    }

    public void setDigest(String digest) {
        this.digest = digest;
    }
}
