package io.rdmastorage.probe.host;

import java.util.Locale;

/** How host tools are started. */
public enum ExecMode {
    /** {@code chroot <root> <tool>}: the tool sees the host's libraries and configuration (production). */
    CHROOT,
    /** {@code <root>/<tool>} run as is: fixture roots whose tools are stub scripts (tests, demos). */
    DIRECT;

    public static ExecMode parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "chroot" -> CHROOT;
            case "direct" -> DIRECT;
            default -> throw new IllegalArgumentException("must be chroot or direct, got '" + value + "'");
        };
    }
}
