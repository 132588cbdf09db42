package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;

/** The {@code nvmeof} target: one NVMe-oF subsystem, connected over each transport in turn on the run's node. */
record NvmeofSubsystem(AcceptanceNvmeofTarget section) implements AcceptanceTarget {

    public static final String NAME = "nvmeof";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return section.getNqn();
    }
}
