package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import com.fasterxml.jackson.annotation.JsonClassDescription;

/** How many matching nodes are in each state. */
@JsonClassDescription("How many matching nodes are in each state.")
public class NodeCounts {

    @JsonPropertyDescription("Nodes the selector matches.")
    private int matched;

    @JsonPropertyDescription("Nodes whose every check is True.")
    private int ready;

    @JsonPropertyDescription("Nodes with a check False.")
    private int notReady;

    @JsonPropertyDescription("Nodes not probed yet, not probe-able, or whose result is unknown or expired.")
    private int unknown;

    public int getMatched() {
        return matched;
    }

    public void setMatched(int matched) {
        this.matched = matched;
    }

    public int getReady() {
        return ready;
    }

    public void setReady(int ready) {
        this.ready = ready;
    }

    public int getNotReady() {
        return notReady;
    }

    public void setNotReady(int notReady) {
        this.notReady = notReady;
    }

    public int getUnknown() {
        return unknown;
    }

    public void setUnknown(int unknown) {
        this.unknown = unknown;
    }
}
