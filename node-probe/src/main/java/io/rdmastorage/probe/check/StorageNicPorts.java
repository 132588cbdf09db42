package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaDevices.STORAGE_NIC_MISSING;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.parse.SysfsIbPort;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * RdmaDevices' storage-NIC part ({@code rdma.storageNics}): which ports must work once the compute
 * NICs are left out, and the verdict when no device of the node is a storage NIC. The split itself
 * is {@link io.rdmastorage.probe.ports.StorageNicSelection}'s; the check's facts are the storage NICs'.
 */
final class StorageNicPorts {

    private StorageNicPorts() {
    }

    /**
     * The ports that must work: {@code rdma.devices} less the compute NICs; with storage NICs named
     * and no port of them listed, every port of every storage NIC (the profile named them as storage,
     * so none of them is a spare); else none in particular (one working port is enough).
     */
    static List<DevicePort> expected(Map<String, SysfsIbPort> storagePorts, List<String> computeNics, ProbeSpec.Rdma rdma) {
        if (rdma == null) {
            return List.of();
        }
        List<DevicePort> listed = rdma.devicePorts().stream().filter(p -> !computeNics.contains(p.device())).toList();
        if (!listed.isEmpty() || rdma.storageNics() == null) {
            return listed;
        }
        return storagePorts.values().stream().map(p -> new DevicePort(p.device(), p.port())).toList();
    }

    /**
     * Names the compute NICs left out in the details; False {@code StorageNicMissing} when the node
     * has RDMA devices and none of them is a storage NIC.
     */
    static Optional<Finding> judge(List<String> storageDevices, List<String> computeNics, ProbeSpec.Rdma rdma, Details details) {
        if (computeNics.isEmpty()) {
            return Optional.empty();
        }
        details.list("computeNics", computeNics);
        if (!storageDevices.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Finding.of(Status.FALSE, STORAGE_NIC_MISSING, "no RDMA device matches rdma.storageNics ("
                + rdma.storageNics().describe() + "); the node's RDMA devices are " + String.join(", ", computeNics)
                + ": the storage NIC is missing, its driver is not bound, or the selectors name another tray's NICs; "
                + "compare `ibdev2netdev` and `lspci -D | grep -i mellanox` with the profile"));
    }
}
