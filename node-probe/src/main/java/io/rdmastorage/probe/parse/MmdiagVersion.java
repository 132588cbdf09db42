package io.rdmastorage.probe.parse;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mmdiag --version}: the running daemon's build, {@code Current GPFS build: "5.2.1.1 ".}
 * (the build string keeps a trailing space inside its quotes). Only the build is a fleet fact:
 * the "Built on" and "Running ..., pid" lines differ between healthy nodes.
 */
public final class MmdiagVersion {

    private static final Pattern BUILD = Pattern.compile("Current GPFS build:\\s*\"\\s*([^\"]*?)\\s*\"");

    private MmdiagVersion() {
    }

    /** The build, e.g. {@code 5.2.1.1}; empty when the output has no build line. */
    public static Optional<String> build(String text) {
        Matcher m = BUILD.matcher(text);
        return m.find() && !m.group(1).isEmpty() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
