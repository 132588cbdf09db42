package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptancePathTarget;

/** The {@code path} target: a directory, measured over the transport its file system uses ({@link PathComparison}). */
record PathDirectory(AcceptancePathTarget section) implements AcceptanceTarget {

    public static final String NAME = "path";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return "path " + section.getDirectory();
    }
}
