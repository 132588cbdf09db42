package io.rdmastorage.probe.parse;

import java.util.Optional;

/**
 * The ToS byte RoCE traffic gets when the application sets none, as the two kernel files show it:
 * rdma_cm's configfs {@code /sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_tos} (a number,
 * {@code 0} when unset) and MLNX_OFED's {@code /sys/class/infiniband/<dev>/tc/<p>/traffic_class}
 * ({@code Global tclass=106}; empty until a value is written). The DSCP is the ToS's upper six bits
 * (ToS = DSCP &lt;&lt; 2, plus the two ECN bits).
 */
public final class RoceTos {

    private RoceTos() {
    }

    /** {@code 106}; empty when not a number 0–255. */
    public static Optional<Integer> fromConfigfs(String content) {
        return MlnxQos.number(content.strip(), 255);
    }

    /** {@code Global tclass=106} → 106; empty when the file is empty (no global class set) or malformed. */
    public static Optional<Integer> fromTrafficClass(String content) {
        String s = content.strip();
        String prefix = "Global tclass=";
        return s.startsWith(prefix) ? MlnxQos.number(s.substring(prefix.length()).strip(), 255) : Optional.empty();
    }

    /** True when the file is there and empty: MLNX_OFED's "no global traffic class set". */
    public static boolean trafficClassUnset(String content) {
        return content.isBlank();
    }

    /** A DSCP attribute such as mlx5's {@code /sys/class/net/<if>/ecn/roce_np/cnp_dscp} ({@code 48}); empty unless 0–63. */
    public static Optional<Integer> dscpAttribute(String content) {
        return MlnxQos.number(content.strip(), 63);
    }

    public static int dscpOf(int tos) {
        return tos >> 2;
    }
}
