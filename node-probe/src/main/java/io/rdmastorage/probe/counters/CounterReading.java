package io.rdmastorage.probe.counters;

/**
 * One counter as read: its raw value (unsigned 64-bit), the value it sticks at once saturated
 * (0: it does not saturate; a legacy register stops there, an extended one counts past it) and what one step counts ({@code port_xmit_data} counts 4 octets,
 * mmdiag's {@code sent(MB)} a MiB).
 */
public record CounterReading(long raw, long saturatesAt, long unit) {

    public CounterReading {
        if (unit <= 0) {
            throw new IllegalArgumentException("a counter's unit is positive: " + unit);
        }
    }

    /** A 64-bit counter of single events or bytes. */
    public static CounterReading of(long raw) {
        return new CounterReading(raw, 0, 1);
    }

    /**
     * Exactly at its saturation value: a legacy register that stopped counting. A value beyond it
     * comes from the port's extended (64-bit) counter, which does not saturate.
     */
    public boolean saturated() {
        return saturatesAt != 0 && raw == saturatesAt;
    }
}
