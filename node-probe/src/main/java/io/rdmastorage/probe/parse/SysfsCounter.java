package io.rdmastorage.probe.parse;

import java.util.Map;
import java.util.OptionalLong;

/**
 * One counter file of {@code /sys/class/infiniband/<dev>/ports/<p>/counters/} or {@code hw_counters/}:
 * a single unsigned decimal number. The {@code counters/} files are the InfiniBand PMA's
 * PortCounters, fixed-width registers that stop at their maximum instead of wrapping (a real host
 * showed {@code port_xmit_wait 4294967295}, {@code port_xmit_discards 65535}, {@code link_downed 255});
 * the data and packet counters are 64-bit where the HCA has the extended counters, else 32-bit.
 * {@code hw_counters/} are the driver's 64-bit counters.
 */
public final class SysfsCounter {

    /** The IBA PortCounters widths (IBA 1.3, 16.1.3.5) of the counters/ files, by file name. */
    private static final Map<String, Integer> LEGACY_BITS = Map.ofEntries(
            Map.entry("symbol_error", 16),
            Map.entry("link_error_recovery", 8),
            Map.entry("link_downed", 8),
            Map.entry("port_rcv_errors", 16),
            Map.entry("port_rcv_remote_physical_errors", 16),
            Map.entry("port_rcv_switch_relay_errors", 16),
            Map.entry("port_xmit_discards", 16),
            Map.entry("port_xmit_constraint_errors", 8),
            Map.entry("port_rcv_constraint_errors", 8),
            Map.entry("local_link_integrity_errors", 4),
            Map.entry("excessive_buffer_overrun_errors", 4),
            Map.entry("VL15_dropped", 16),
            Map.entry("port_xmit_data", 32),
            Map.entry("port_rcv_data", 32),
            Map.entry("port_xmit_packets", 32),
            Map.entry("port_rcv_packets", 32),
            Map.entry("port_xmit_wait", 32));

    private SysfsCounter() {
    }

    /** The file's number; empty when it is not one unsigned 64-bit decimal (an error text, an empty read). */
    public static OptionalLong parse(String text) {
        String s = text == null ? "" : text.strip();
        if (s.isEmpty() || s.length() > 20 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseUnsignedLong(s));
        } catch (NumberFormatException tooLarge) {
            return OptionalLong.empty();
        }
    }

    /**
     * The value a {@code counters/} file sticks at when its legacy register saturated
     * (2<sup>bits</sup> − 1); 0 for a counter that does not saturate (hw_counters, unknown names).
     */
    public static long legacyMaximum(String name) {
        Integer bits = LEGACY_BITS.get(name);
        return bits == null ? 0 : (1L << bits) - 1;
    }
}
