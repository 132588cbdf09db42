package io.rdmastorage.probe.counters;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Reads the counters, waits the window, reads them again: each reading goes to the host anew
 * (nothing is cached), so what moved in between is what the node did in the window.
 */
public final class CounterSampler {

    /** How the sampler waits; tests change the host while it waits instead of sleeping. */
    @FunctionalInterface
    public interface Pause {
        void await(Duration window) throws InterruptedException;

        Pause SLEEP = window -> Thread.sleep(window.toMillis(), window.toNanosPart() % 1_000_000);
    }

    private CounterSampler() {
    }

    /** The window's two snapshots; an interrupted wait ends the window early (its real length is kept). */
    public static CounterWindow sample(Supplier<CounterSnapshot> read, Duration window, Pause pause) {
        CounterSnapshot before = read.get();
        try {
            pause.await(window);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new CounterWindow(before, read.get());
    }
}
