package io.rdmastorage.operator.api;

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
public class RdmaStorageProfileStatus {

    /** The profile generation this status describes. */
    private Long observedGeneration;
    private NodeCounts nodes;
    /** Ready, plus one per checked section, aggregated over nodes. */
    private List<Condition> conditions = new ArrayList<>();
    /** The first few nodes that are not ready, by name (the messages of the conditions say why). */
    private List<String> notReadyNodes = new ArrayList<>();
    /** Per inventory fact, how many nodes hold each value (FleetConsistent says which nodes differ). */
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
