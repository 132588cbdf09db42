package io.rdmastorage.operator.reconciler;

/**
 * A profile's {@code maxConcurrentProbes}, the one place it is counted: every probe pod alive once
 * this reconcile's harvests are written holds a slot (a node probe one, a latency pair two: its
 * server and its client, from the first until the last attempt), and a new measurement starts only
 * when the slots it needs are free. Harvested pods give theirs back at once: they are deleted in
 * the same reconcile.
 */
final class ProbeSlots {

    private final int max;
    private int held;

    ProbeSlots(int max) {
        this.max = max;
    }

    /** Pods of measurements under way that stay alive. */
    void hold(int pods) {
        held += pods;
    }

    /** Takes {@code pods} slots for a new measurement; false (and nothing taken) when too few are free. */
    boolean take(int pods) {
        if (max - held < pods) {
            return false;
        }
        held += pods;
        return true;
    }

    int inUse() {
        return held;
    }

    int max() {
        return max;
    }
}
