package io.rdmastorage.probe.counters;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Two snapshots of the same counters and what moved between them; pure. */
public record CounterWindow(CounterSnapshot before, CounterSnapshot after) {

    /** How long the window really was (the sampler's wait plus the first reading's own time). */
    public Duration length() {
        return Duration.ofNanos(Math.max(1, after.nanos() - before.nanos()));
    }

    public double seconds() {
        return length().toNanos() / 1e9;
    }

    public CounterDelta delta(CounterKey key) {
        return CounterDelta.between(key, before.get(key), after.get(key));
    }

    /** Every counter of either sample and its delta, in reading order (the second sample's new subjects last). */
    public Map<CounterKey, CounterDelta> deltas(CounterKey.Source source) {
        Set<CounterKey> keys = new LinkedHashSet<>(before.keys(source));
        keys.addAll(after.keys(source));
        Map<CounterKey, CounterDelta> deltas = new LinkedHashMap<>();
        keys.forEach(k -> deltas.put(k, delta(k)));
        return deltas;
    }

    /** An amount of this window per second. */
    public double perSecond(long amount) {
        return amount / seconds();
    }

    /** What could not be read in either sample, by source (the first sample's reason first). */
    public Map<String, String> unreadable() {
        Map<String, String> all = new LinkedHashMap<>(before.unreadable());
        after.unreadable().forEach(all::putIfAbsent);
        return all;
    }
}
