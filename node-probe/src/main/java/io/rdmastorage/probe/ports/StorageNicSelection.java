package io.rdmastorage.probe.ports;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.StorageNics;
import java.util.List;
import java.util.Optional;

/**
 * The host's RDMA devices split by {@code rdma.storageNics} into the storage NICs the checks judge
 * and the compute NICs they leave out (a GB200 tray's ConnectX compute rails beside its BlueField-3
 * storage NICs). Without storage NICs in the spec every device is a storage NIC.
 *
 * @param all       every RDMA device of the host
 * @param selectors the profile's selectors; empty when it names none
 */
public record StorageNicSelection(PortView all, Optional<StorageNics> selectors) {

    /** The split the spec asks for. */
    public static StorageNicSelection of(PortView all, ProbeSpec spec) {
        return new StorageNicSelection(all, Optional.ofNullable(spec.rdma()).map(ProbeSpec.Rdma::storageNics));
    }

    /** The storage NICs: what RdmaDevices, RdmaTraffic, RdmaPortErrors, RoceLossless and GDS judge. */
    public PortView storage() {
        return selectors.map(s -> all.only(d -> selected(s, d))).orElse(all);
    }

    /** The devices left out as compute NICs, by name; empty without selectors. */
    public List<String> computeNics() {
        return selectors.map(s -> all.devices().stream().filter(d -> !selected(s, d)).map(RdmaDevice::name).toList())
                .orElse(List.of());
    }

    /** Whether the device of that name is left out as a compute NIC. */
    public boolean leftOut(String device) {
        return computeNics().contains(device);
    }

    private static boolean selected(StorageNics selectors, RdmaDevice device) {
        return selectors.selects(device.name(), device.netdevNames(), device.bdf());
    }
}
