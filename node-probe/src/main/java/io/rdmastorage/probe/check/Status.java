package io.rdmastorage.probe.check;

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
