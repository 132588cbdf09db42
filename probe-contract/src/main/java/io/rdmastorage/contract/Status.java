package io.rdmastorage.contract;

import java.util.Arrays;
import java.util.Optional;

/** Condition status, spelled as Kubernetes spells it. */
public enum Status {
    TRUE("True"), FALSE("False"), UNKNOWN("Unknown");

    private final String wire;

    Status(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The status spelled {@code wire}; empty for anything else (a report is never trusted blindly). */
    public static Optional<Status> ofWire(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
    }

    /** The worse of two statuses: False beats Unknown beats True. */
    public Status worse(Status other) {
        return severity() >= other.severity() ? this : other;
    }

    private int severity() {
        return switch (this) {
            case TRUE -> 0;
            case UNKNOWN -> 1;
            case FALSE -> 2;
        };
    }
}
