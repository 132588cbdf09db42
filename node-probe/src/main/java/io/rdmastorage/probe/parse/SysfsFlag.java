package io.rdmastorage.probe.parse;

import java.util.Optional;

/**
 * A 0/1 sysfs attribute such as mlx5's ECN switches
 * {@code /sys/class/net/<if>/ecn/roce_np/enable/<prio>} and {@code .../roce_rp/enable/<prio>}.
 */
public final class SysfsFlag {

    private SysfsFlag() {
    }

    /** {@code 1} → true, {@code 0} → false; anything else empty. */
    public static Optional<Boolean> parse(String content) {
        return switch (content.strip()) {
            case "1" -> Optional.of(true);
            case "0" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
