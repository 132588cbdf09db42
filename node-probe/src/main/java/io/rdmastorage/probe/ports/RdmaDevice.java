package io.rdmastorage.probe.ports;

import java.util.List;

/**
 * One RDMA device ({@code /sys/class/infiniband/<dev>}) and its ports.
 *
 * @param name           {@code mlx5_0}, {@code rxe0}
 * @param portsDirectory its {@code ports/} directory is there (a device without one cannot be judged,
 *                       it is not a device without ports)
 * @param iwarp          {@code node_type} is "4: RNIC": Ethernet, but peers are addressed by IP, without RoCE GIDs
 * @param pciFunction    the host path its {@code device} link stands for, such as
 *                       {@code /sys/devices/pci0000:00/0000:00:01.0/0000:3b:00.0}; the link's own path when
 *                       it cannot be resolved (soft-RoCE has no PCIe function)
 * @param ports          its ports in number order
 */
public record RdmaDevice(String name, boolean portsDirectory, boolean iwarp, String pciFunction, List<RdmaPort> ports) {

    public RdmaDevice {
        ports = List.copyOf(ports);
    }

    /** The PCIe function's address ({@code 0000:3b:00.0}): the last component of {@link #pciFunction}. */
    public String bdf() {
        return pciFunction.substring(pciFunction.lastIndexOf('/') + 1);
    }
}
