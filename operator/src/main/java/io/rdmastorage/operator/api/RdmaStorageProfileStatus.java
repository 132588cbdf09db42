package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregated verdict of a profile. Kept small on purpose (counts, conditions, a few node
 * names): per-node detail lives in RdmaStorageNode objects, so 5,000 nodes never hit the object
 * size limit.
 */
// absent facts are left out, not written as null: the schema types them as objects and lists
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The verdict over all matching nodes, written by the operator: node counts, conditions, the first nodes that are not ready and the fleet's inventory facts. Per-node detail is in the RdmaStorageNode objects.")
public class RdmaStorageProfileStatus {

    @JsonPropertyDescription("The profile generation this status describes.")
    private Long observedGeneration;
    @JsonPropertyDescription("How many matching nodes are ready, not ready and unknown.")
    private NodeCounts nodes;
    @JsonPropertyDescription("Ready, plus one per checked section, aggregated over nodes.")
    private List<Condition> conditions = new ArrayList<>();
    @JsonPropertyDescription("The first few nodes that are not ready, by name (the messages of the conditions say why).")
    private List<String> notReadyNodes = new ArrayList<>();
    @JsonPropertyDescription("Per inventory fact, how many nodes hold each value (FleetConsistent says which nodes differ).")
    private List<FleetFactCounts> fleet;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public NodeCounts getNodes() {
        return nodes;
    }

    public void setNodes(NodeCounts nodes) {
        this.nodes = nodes;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public List<String> getNotReadyNodes() {
        return notReadyNodes;
    }

    public void setNotReadyNodes(List<String> notReadyNodes) {
        this.notReadyNodes = notReadyNodes;
    }

    public List<FleetFactCounts> getFleet() {
        return fleet;
    }

    public void setFleet(List<FleetFactCounts> fleet) {
        this.fleet = fleet;
    }
}
