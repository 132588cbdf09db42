package io.rdmastorage.probe.parse;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PCI function's link as sysfs shows it under {@code /sys/bus/pci/devices/<bdf>/}:
 * {@code current_link_speed} / {@code max_link_speed} ("16.0 GT/s PCIe"; older kernels "8 GT/s",
 * "Unknown" when not trained) and {@code current_link_width} / {@code max_link_width} ("16").
 */
public record PcieLink(String bdf, OptionalDouble currentGts, OptionalInt currentWidth, OptionalDouble maxGts,
                       OptionalInt maxWidth) {

    private static final Pattern SPEED = Pattern.compile("^([0-9]{1,3}(?:\\.[0-9]{1,3})?) GT/s");

    /** Empty unless all four attributes read as numbers: a device without them (soft-RoCE, a VF) is not judged. */
    public static Optional<PcieLink> of(String bdf, String currentSpeed, String currentWidth, String maxSpeed,
                                        String maxWidth) {
        PcieLink link = new PcieLink(bdf, speed(currentSpeed), width(currentWidth), speed(maxSpeed), width(maxWidth));
        boolean complete = link.currentGts.isPresent() && link.currentWidth.isPresent() && link.maxGts.isPresent()
                && link.maxWidth.isPresent();
        return complete ? Optional.of(link) : Optional.empty();
    }

    /** Trained below its maximum speed or width: the card's RDMA throughput is capped by the slot. */
    public boolean degraded() {
        return currentGts.getAsDouble() < maxGts.getAsDouble() || currentWidth.getAsInt() < maxWidth.getAsInt();
    }

    /** "16 GT/s x8 (max 16 GT/s x16)". */
    public String summary() {
        return gts(currentGts) + " x" + currentWidth.getAsInt() + " (max " + gts(maxGts) + " x" + maxWidth.getAsInt() + ")";
    }

    private static String gts(OptionalDouble value) {
        double v = value.getAsDouble();
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v)) + " GT/s";
    }

    private static OptionalDouble speed(String value) {
        Matcher m = SPEED.matcher(value == null ? "" : value.strip());
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : OptionalDouble.empty();
    }

    private static OptionalInt width(String value) {
        String s = value == null ? "" : value.strip();
        // width 0: a link that is down or a function without one; not a width to compare
        return !s.isEmpty() && s.length() <= 2 && s.chars().allMatch(Character::isDigit) && Integer.parseInt(s) > 0
                ? OptionalInt.of(Integer.parseInt(s)) : OptionalInt.empty();
    }
}
