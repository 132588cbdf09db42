package io.rdmastorage.probe.parse;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One RDMA port as the kernel's sysfs describes it, from the attribute files of
 * {@code /sys/class/infiniband/<device>/ports/<port>/}: {@code state} ("4: ACTIVE"),
 * {@code phys_state} ("5: LinkUp"), {@code rate} ("400 Gb/sec (4X NDR)"), {@code link_layer}
 * ("InfiniBand" or "Ethernet" for RoCE and iWARP) and {@code sm_lid} ("0x1").
 *
 * @param state      the logical state; empty when the file is absent or not "code: NAME"
 * @param physState  the physical state; empty when absent or malformed
 * @param rate       as printed, or empty
 * @param linkLayer  as printed, or empty
 * @param smLid      the subnet manager's LID; empty when absent (RoCE drivers may not have it)
 */
public record SysfsIbPort(String device, int port, Optional<Coded> state, Optional<Coded> physState, String rate,
                          String linkLayer, OptionalInt smLid) {

    /** IBV_PORT_ACTIVE and IBV_PORT_ACTIVE_DEFER (verbs.h): both carry traffic. */
    private static final int ACTIVE = 4;
    private static final int ACTIVE_DEFER = 5;
    /** phys_state 0: iWARP devices report no InfiniBand physical state ("NOP" in `rdma link`). */
    private static final int PHYS_UNSPECIFIED = 0;

    /** A "code: NAME" attribute such as "4: ACTIVE" or "2: Polling". */
    public record Coded(int code, String name) {

        /** Tolerates surrounding white space and a missing space after the colon; anything else is empty. */
        public static Optional<Coded> parse(String attribute) {
            if (attribute == null) {
                return Optional.empty();
            }
            String s = attribute.strip();
            int colon = s.indexOf(':');
            if (colon <= 0) {
                return Optional.empty();
            }
            String digits = s.substring(0, colon).strip();
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            String name = s.substring(colon + 1).strip();
            return Optional.of(new Coded(Integer.parseInt(digits), name));
        }

        @Override
        public String toString() {
            return name.isEmpty() ? String.valueOf(code) : name;
        }
    }

    /**
     * Builds a port from the raw attribute contents (null when a file is absent). Never throws:
     * malformed attributes become empty values that {@link #readable()} reports.
     */
    public static SysfsIbPort of(String device, int port, String state, String physState, String rate,
                                 String linkLayer, String smLid) {
        return new SysfsIbPort(device, port, Coded.parse(state), Coded.parse(physState), clean(rate),
                clean(linkLayer), parseLid(smLid));
    }

    /** Both states could be read: without them we cannot tell whether the port works. */
    public boolean readable() {
        return state.isPresent() && physState.isPresent();
    }

    /** The logical state lets traffic through: ACTIVE, or ACTIVE_DEFER. */
    public boolean active() {
        return state.map(s -> s.code() == ACTIVE || s.code() == ACTIVE_DEFER).orElse(false);
    }

    /**
     * The physical link is up. Judged by name, not code: the code-to-name table is the kernel's,
     * but fixtures (prometheus/procfs) show "4: ACTIVE" in phys_state, so a name of ACTIVE counts as
     * up too. iWARP ports have no physical state (code 0); their logical state decides alone.
     */
    public boolean linkUp() {
        return physState.map(p -> {
            String name = p.name().toLowerCase(Locale.ROOT);
            return name.equals("linkup") || name.equals("active") || p.code() == PHYS_UNSPECIFIED;
        }).orElse(false);
    }

    public boolean healthy() {
        return active() && linkUp();
    }

    public boolean infiniband() {
        return linkLayer.equalsIgnoreCase("InfiniBand");
    }

    /** "mlx5_0/1": how the spec, GPFS verbsPorts and people name a port. */
    public String name() {
        return device + "/" + port;
    }

    /** "mlx5_0/1: ACTIVE/LinkUp, 400 Gb/sec (4X NDR), InfiniBand", for details and messages. */
    public String summary() {
        StringBuilder s = new StringBuilder(name()).append(": ").append(states());
        if (!rate.isEmpty()) {
            s.append(", ").append(rate);
        }
        if (!linkLayer.isEmpty()) {
            s.append(", ").append(linkLayer);
        }
        return s.toString();
    }

    /** "ACTIVE/LinkUp", "DOWN/Polling", "?/?" when unreadable. */
    public String states() {
        return state.map(Coded::toString).orElse("?") + "/" + physState.map(Coded::toString).orElse("?");
    }

    private static String clean(String value) {
        return value == null ? "" : value.strip();
    }

    /** sysfs prints LIDs in hex ("0x1"); older drivers print decimal. */
    private static OptionalInt parseLid(String value) {
        if (value == null) {
            return OptionalInt.empty();
        }
        String s = value.strip().toLowerCase(Locale.ROOT);
        try {
            return s.startsWith("0x")
                    ? OptionalInt.of(Integer.parseInt(s.substring(2), 16))
                    : OptionalInt.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
