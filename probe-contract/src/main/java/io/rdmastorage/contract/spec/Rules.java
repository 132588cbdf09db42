package io.rdmastorage.contract.spec;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The validation rules for values that reach host tools or file paths. They allow only the
 * characters each kind of value really uses, so a value can never carry shell syntax, an option
 * ({@code -x}) or a path escape, even though tools get them as argv elements only. The CRD schema
 * of the operator uses the same patterns.
 */
public final class Rules {

    /*
     * Each rule is also a String constant, anchored with ^...$, so that it means the same to Java's
     * Pattern.matches and to the RE2 engine of the API server: the operator's CRD schema references
     * these constants, and the probe and the CRD can never disagree.
     */

    /** RDMA device names: mlx5_0, rxe0, hfi1_0, bnxt_re0, irdma-eth1, rdma0. */
    public static final String DEVICE_REGEX = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$";
    public static final Pattern DEVICE = Pattern.compile(DEVICE_REGEX);
    /** device/port as GPFS verbsPorts writes it (mlx5_0/1); the optional /fabric suffix is GPFS's too. */
    public static final String DEVICE_PORT_REGEX = "^([A-Za-z0-9][A-Za-z0-9_.-]{0,63})/([0-9]{1,3})(/[0-9]{1,3})?$";
    public static final Pattern DEVICE_PORT = Pattern.compile(DEVICE_PORT_REGEX);
    /**
     * A storage NIC selector ({@link StorageNics}): a device name, netdev or PCI address, or a glob of
     * one: {@code *} any characters, {@code ?} one, {@code [0-3]}/{@code [!45]} one of a class of
     * letters, digits and ranges. No other character, so a class always closes and nothing escapes;
     * no leading dash.
     */
    public static final String NIC_PATTERN_REGEX =
            "^([A-Za-z0-9_.:*?]|\\[!?[A-Za-z0-9-]+\\])([A-Za-z0-9_.:*?-]|\\[!?[A-Za-z0-9-]+\\])*$";
    public static final Pattern NIC_PATTERN = Pattern.compile(NIC_PATTERN_REGEX);
    public static final int NIC_PATTERN_MAX_LENGTH = 64;
    /** HCA port numbers: ports are numbered from 1, and an 8-bit field holds them. */
    public static final int MIN_HCA_PORT = 1;
    public static final int MAX_HCA_PORT = 255;
    /** NVMe Qualified Name, NVMe Base Specification 4.5: "nqn." date, reverse domain, optional ":" suffix; ≤ 223 bytes. */
    public static final String NQN_REGEX = "^nqn\\.[0-9]{4}-[0-9]{2}\\.[A-Za-z0-9][A-Za-z0-9.-]*(:[A-Za-z0-9._:@+-]+)?$";
    public static final Pattern NQN = Pattern.compile(NQN_REGEX);
    public static final int NQN_MAX_LENGTH = 223;
    /** GPFS daemon or admin node names: DNS names. */
    public static final String NODE_NAME_REGEX = "^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$";
    public static final Pattern NODE_NAME = Pattern.compile(NODE_NAME_REGEX);
    public static final int NODE_NAME_MAX_LENGTH = 253;
    /** Kubernetes quantities for sizes: 16Gi, 512M, 4294967296 (groups: number, suffix). */
    public static final String BYTE_QUANTITY_REGEX = "^([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$";
    /**
     * An absolute mount point as the mount table writes it: segments of letters, digits and
     * {@code ._@+-}, none starting with a dot (so no {@code .} or {@code ..}), no trailing slash.
     */
    public static final String MOUNT_POINT_REGEX = "^(/[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*)+$";
    public static final Pattern MOUNT_POINT = Pattern.compile(MOUNT_POINT_REGEX);
    public static final int MOUNT_POINT_MAX_LENGTH = 255;
    /**
     * A directory an acceptance run may lay its one file out in: a mount point's characters (so no
     * {@code ..}, no white space, no {@code :} that fio would take for a list of files), an optional
     * trailing slash, and never under {@code /proc}, {@code /sys} or {@code /dev}
     * ({@link #isAcceptanceDirectory}; the CRD's CEL rule says the same).
     */
    public static final String ACCEPTANCE_DIRECTORY_REGEX = "^(/[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*)+/?$";
    public static final Pattern ACCEPTANCE_DIRECTORY = Pattern.compile(ACCEPTANCE_DIRECTORY_REGEX);
    public static final int ACCEPTANCE_DIRECTORY_MAX_LENGTH = 200;
    /** An o2ib (RDMA) LNet network as lnetctl names it: o2ib, o2ib1 (o2ib0 is o2ib); LNet numbers networks up to 2^32. */
    public static final String O2IB_NETWORK_REGEX = "^o2ib[0-9]{0,10}$";
    public static final Pattern O2IB_NETWORK = Pattern.compile(O2IB_NETWORK_REGEX);
    public static final int O2IB_NETWORK_MAX_LENGTH = 14;
    /** The highest TCP port number. */
    public static final int MAX_TCP_PORT = 65535;
    /** Pseudo file systems: a file there is no storage. */
    public static final List<String> NOT_STORAGE = List.of("/proc", "/sys", "/dev");
    /** Most entries a list in a spec may have. */
    public static final int MAX_LIST = 256;

    /** A link rate as sysfs and perftest write it: "400 Gb/sec", "12.5 Gb/sec". */
    public static final String LINK_RATE_REGEX = "^([0-9]{1,4}(?:\\.[0-9]{1,2})?) Gb/sec$";
    public static final Pattern LINK_RATE = Pattern.compile(LINK_RATE_REGEX);
    /** The InfiniBand MTUs (enum ibv_mtu): an RDMA path MTU is one of these. */
    public static final List<Integer> IB_MTUS = List.of(256, 512, 1024, 2048, 4096);
    /** A sampling window: a whole number of ms, s or m (10s, 1500ms, 1m); its range is the section's. */
    public static final String WINDOW_REGEX = "^([0-9]{1,6})(ms|s|m)$";
    public static final Pattern WINDOW = Pattern.compile(WINDOW_REGEX);
    private static final Pattern IPV4 =
            Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private Rules() {
    }

    public static boolean isIpAddress(String value) {
        return IPV4.matcher(value).matches() || isIpv6(value);
    }

    /** Literal IPv6 only; never a host name (no name lookups from a validator). */
    private static boolean isIpv6(String value) {
        if (!IPV6_CHARS.matcher(value).matches() || !value.contains(":")) {
            return false;
        }
        int doubleColon = value.indexOf("::");
        if (doubleColon >= 0 && value.indexOf("::", doubleColon + 1) >= 0) {
            return false;
        }
        String[] groups = value.split(":", -1);
        int count = 0;
        for (int i = 0; i < groups.length; i++) {
            String g = groups[i];
            if (g.isEmpty()) {
                continue;
            }
            if (i == groups.length - 1 && g.contains(".")) {
                if (!IPV4.matcher(g).matches()) {
                    return false;
                }
                count += 2;
            } else if (g.length() <= 4 && !g.contains(".")) {
                count++;
            } else {
                return false;
            }
        }
        return doubleColon >= 0 ? count < 8 : count == 8;
    }

    /**
     * The Gb/s of a rate that starts like sysfs writes it: the spec's "400 Gb/sec" and the port's
     * "100 Gb/sec (4X EDR)" alike; empty for anything else ("Unknown", or an empty file).
     */
    public static java.util.OptionalDouble linkRateGbps(String rate) {
        java.util.regex.Matcher m = RATE_PREFIX.matcher(rate == null ? "" : rate.strip());
        return m.lookingAt() ? java.util.OptionalDouble.of(Double.parseDouble(m.group(1))) : java.util.OptionalDouble.empty();
    }

    private static final Pattern RATE_PREFIX = Pattern.compile("([0-9]{1,5}(?:\\.[0-9]{1,3})?) Gb/sec");

    /** The duration a window such as {@code 10s} stands for; empty when it is not one. */
    public static java.util.Optional<java.time.Duration> windowDuration(String window) {
        java.util.regex.Matcher m = WINDOW.matcher(window == null ? "" : window);
        if (!m.matches()) {
            return java.util.Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        return java.util.Optional.of(switch (m.group(2)) {
            case "ms" -> java.time.Duration.ofMillis(n);
            case "s" -> java.time.Duration.ofSeconds(n);
            default -> java.time.Duration.ofMinutes(n);
        });
    }

    public static boolean isNqn(String value) {
        return value.length() <= NQN_MAX_LENGTH && NQN.matcher(value).matches();
    }

    public static boolean isMountPoint(String value) {
        return value.length() <= MOUNT_POINT_MAX_LENGTH && MOUNT_POINT.matcher(value).matches();
    }

    public static boolean isAcceptanceDirectory(String value) {
        return value.length() <= ACCEPTANCE_DIRECTORY_MAX_LENGTH && ACCEPTANCE_DIRECTORY.matcher(value).matches()
                && NOT_STORAGE.stream().noneMatch(p -> value.equals(p) || value.startsWith(p + "/"));
    }

    public static boolean isNodeName(String value) {
        return value.length() <= NODE_NAME_MAX_LENGTH && NODE_NAME.matcher(value).matches();
    }

    /** Printable form of a refused value: quoted, control characters shown, long values cut. */
    public static String show(String value) {
        StringBuilder s = new StringBuilder("'");
        for (int i = 0; i < value.length() && i < 80; i++) {
            char c = value.charAt(i);
            s.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return s.append(value.length() > 80 ? "…'" : "'").toString();
    }
}
