package io.rdmastorage.operator.api;

/** How many matching nodes are in each state. */
public class NodeCounts {

    /** Nodes the selector matches. */
    private int matched;

    /** Nodes whose every check is True. */
    private int ready;

    /** Nodes with a check False. */
    private int notReady;

    /** Nodes not probed yet, not probe-able, or whose result is unknown or expired. */
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
