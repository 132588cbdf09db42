package io.rdmastorage.operator.measurement;

/**
 * A profile's {@code maxConcurrentProbes}, the one place it is counted, shared by the kinds of
 * measurement a profile runs (the node probe's, the latency pair's): every probe pod alive once
 * this reconcile's harvests are written holds a slot (a node probe one, a latency pair two: its
 * server and its client, from the first until the last attempt), and a new measurement starts only
 * when the slots it needs are free. Harvested pods give theirs back at once: they are deleted in
 * the same reconcile.
 */
public final class ProbeSlots {

    private final int max;
    private int held;

    public ProbeSlots(int max) {
        this.max = max;
    }

    /** Pods of measurements under way that stay alive. */
    public void hold(int pods) {
        held += pods;
    }

    /** Takes {@code pods} slots for a new measurement; false (and nothing taken) when too few are free. */
    public boolean take(int pods) {
        if (max - held < pods) {
            return false;
        }
        held += pods;
        return true;
    }
}
