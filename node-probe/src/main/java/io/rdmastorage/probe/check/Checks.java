package io.rdmastorage.probe.check;

import java.util.List;

/**
 * The checks the node's own probe runs, in report order: one per check the contract says a node
 * probe measures ({@code CheckType.measuredBy(NODE_PROBE)}, ChecksTest holds them equal). Adding a
 * check = its descriptor in probe-contract, one parser, one check class, one line here
 * (docs/adding-a-check.md).
 */
public final class Checks {

    private Checks() {
    }

    public static List<Check> all() {
        return List.of(
                new RdmaDevicesCheck(),
                new GpfsVerbsCheck(),
                new NvmeofRdmaCheck(),
                new GdsReadyCheck(),
                new CephMessengerCheck(),
                new RoceLosslessCheck(),
                new RdmaTrafficCheck(),
                new NfsRdmaCheck(),
                new RdmaPortErrorsCheck(),
                new LustreLnetCheck(),
                new BeegfsRdmaCheck());
    }
}
