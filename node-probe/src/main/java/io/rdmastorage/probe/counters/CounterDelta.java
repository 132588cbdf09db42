package io.rdmastorage.probe.counters;

import java.util.OptionalLong;

/**
 * How much one counter moved over a window, in its unit's measure (octets, packets, events); or,
 * when it has no delta, why ({@code problem}): absent in a sample, at its maximum, or going backwards.
 */
public record CounterDelta(CounterKey key, OptionalLong amount, String problem) {

    /**
     * The delta of {@code key} from {@code before} to {@code after} (either null when the sample
     * lacks it). A subject that appears only in {@code after} counts from zero where its source says
     * so (a socket opened during the window); one that disappeared has no delta (closed: what it
     * carried in the window is lost, which never makes TCP look busier than it was).
     */
    public static CounterDelta between(CounterKey key, CounterReading before, CounterReading after) {
        if (after == null) {
            return none(key, before == null ? "not read" : "gone by the second sample");
        }
        if (after.saturated()) {
            return none(key, "at its maximum " + Long.toUnsignedString(after.raw()) + " (a saturated legacy counter; "
                    + "reset it, e.g. perfquery -x -R, or use a port with extended counters)");
        }
        if (before == null) {
            return key.source().bornAtZero() ? of(key, after.raw(), after.unit())
                    : none(key, "absent in the first sample");
        }
        if (before.saturated()) {
            return none(key, "at its maximum " + Long.toUnsignedString(before.raw()) + " in the earlier reading");
        }
        if (Long.compareUnsigned(after.raw(), before.raw()) < 0) {
            return none(key, "went backwards from " + Long.toUnsignedString(before.raw()) + " to "
                    + Long.toUnsignedString(after.raw()) + " (reset or reloaded in between)");
        }
        return of(key, after.raw() - before.raw(), after.unit());
    }

    private static CounterDelta of(CounterKey key, long steps, long unit) {
        // a delta beyond 2^63 octets in one window is not a measurement
        if (steps < 0 || (unit > 1 && steps > Long.MAX_VALUE / unit)) {
            return none(key, "moved by more than a counter of this kind can in one window");
        }
        return new CounterDelta(key, OptionalLong.of(steps * unit), "");
    }

    private static CounterDelta none(CounterKey key, String problem) {
        return new CounterDelta(key, OptionalLong.empty(), problem);
    }

    public boolean known() {
        return amount.isPresent();
    }
}
