package io.rdmastorage.contract;

/**
 * What measures a check: each condition type belongs to exactly one kind of measurement, so the
 * operator never has to ask "is this VerbsLatency?" when it merges a status.
 */
public enum Measurement {
    /** The node's own probe pod ({@code node-probe}) reports it. */
    NODE_PROBE,
    /** A pair of pods on two nodes ({@code node-probe latency-server} / {@code latency-client}) measures it. */
    PAIR_PROBE
}
