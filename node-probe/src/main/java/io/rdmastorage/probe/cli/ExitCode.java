package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.Status;

/** The probe's exit codes; the operator and scripts rely on them. */
public final class ExitCode {
    public static final int ALL_TRUE = 0;
    public static final int NOT_ALL_TRUE = 1;
    public static final int USAGE = 2;
    public static final int INTERNAL = 3;

    private ExitCode() {
    }

    public static int of(Status overall) {
        return overall == Status.TRUE ? ALL_TRUE : NOT_ALL_TRUE;
    }
}
