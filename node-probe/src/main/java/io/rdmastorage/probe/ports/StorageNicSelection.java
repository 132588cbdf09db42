package io.rdmastorage.probe.ports;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.StorageNics;
import java.util.List;

/**
 * The host's RDMA devices split by {@code rdma.storageNics} into the storage NICs the checks judge
 * and the compute NICs they leave out (a GB200 tray's ConnectX compute rails beside its BlueField-3
 * storage NICs). Without storage NICs in the spec every device is a storage NIC.
 *
 * @param all         every RDMA device of the host
 * @param storage     the storage NICs: what RdmaDevices, RdmaTraffic, RdmaPortErrors, RoceLossless and GDS judge
 * @param computeNics the devices left out as compute NICs, by name; empty without selectors
 */
public record StorageNicSelection(PortView all, PortView storage, List<String> computeNics) {

    public StorageNicSelection {
        computeNics = List.copyOf(computeNics);
    }

    /** The split the spec asks for, worked out once. */
    public static StorageNicSelection of(PortView all, ProbeSpec spec) {
        return of(all, spec.rdma() == null ? null : spec.rdma().storageNics());
    }

    /** The split {@code selectors} ask for (an acceptance run's {@code storageNics}); null: every device is a storage NIC. */
    public static StorageNicSelection of(PortView all, StorageNics selectors) {
        if (selectors == null) {
            return new StorageNicSelection(all, all, List.of());
        }
        PortView storage = all.only(d -> selectors.selects(d.name(), d.netdevNames(), d.bdf()));
        List<String> kept = storage.deviceNames();
        return new StorageNicSelection(all, storage, all.deviceNames().stream().filter(d -> !kept.contains(d)).toList());
    }
}
