package io.rdmastorage.operator.config;

import io.rdmastorage.operator.api.StartupTaintMode;
import io.rdmastorage.operator.api.StartupTaintSpec;

/**
 * A profile's startup taint: a key the node registered with, lifted once its verdict is True and,
 * when {@code continuous}, put back while it is False.
 */
public record StartupTaint(String key, boolean continuous) {

    /** The effect a Continuous gate puts the taint back with. */
    public static final String EFFECT = "NoSchedule";

    /** null when the spec names none. */
    public static StartupTaint of(StartupTaintSpec spec) {
        return spec == null || spec.getKey() == null ? null
                : new StartupTaint(spec.getKey(), spec.getMode() == StartupTaintMode.Continuous);
    }
}
