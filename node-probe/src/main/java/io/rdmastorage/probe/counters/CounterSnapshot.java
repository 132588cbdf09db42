package io.rdmastorage.probe.counters;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading of a node's counters at one instant (a monotonic clock's, for the window's length),
 * and the sources that could not be read, by source name ({@code "ss"} → {@code "ss not found"}).
 *
 * @param nanos      {@link System#nanoTime()} when the reading started
 * @param unreadable source → why it gave nothing this time
 */
public record CounterSnapshot(long nanos, Instant takenAt, Map<CounterKey, CounterReading> readings,
                              Map<String, String> unreadable) {

    public CounterSnapshot {
        readings = Collections.unmodifiableMap(new LinkedHashMap<>(readings));
        unreadable = Collections.unmodifiableMap(new LinkedHashMap<>(unreadable));
    }

    public CounterReading get(CounterKey key) {
        return readings.get(key);
    }

    /** The keys of one source, in reading order. */
    public List<CounterKey> keys(CounterKey.Source source) {
        return readings.keySet().stream().filter(k -> k.source() == source).toList();
    }

    /** Builds a snapshot while it is read. */
    public static final class Builder {
        private final long nanos;
        private final Instant takenAt;
        private final Map<CounterKey, CounterReading> readings = new LinkedHashMap<>();
        private final Map<String, String> unreadable = new LinkedHashMap<>();

        public Builder(long nanos, Instant takenAt) {
            this.nanos = nanos;
            this.takenAt = takenAt;
        }

        public Builder put(CounterKey key, CounterReading reading) {
            readings.put(key, reading);
            return this;
        }

        public Builder unreadable(String source, String why) {
            unreadable.putIfAbsent(source, why);
            return this;
        }

        public CounterSnapshot build() {
            return new CounterSnapshot(nanos, takenAt, readings, unreadable);
        }
    }
}
