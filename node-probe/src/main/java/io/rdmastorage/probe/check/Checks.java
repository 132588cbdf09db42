package io.rdmastorage.probe.check;

import java.util.List;

/** The node checks, in report order. Adding a check = one parser, one check class, one line here. */
public final class Checks {

    private Checks() {
    }

    public static List<Check> all() {
        return List.of(
                new RdmaDevicesCheck(),
                new GpfsVerbsCheck(),
                new NvmeofRdmaCheck(),
                new GdsReadyCheck(),
                new CephMessengerCheck());
    }
}
