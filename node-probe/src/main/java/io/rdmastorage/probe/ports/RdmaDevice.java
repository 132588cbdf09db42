package io.rdmastorage.probe.ports;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.Set;

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
 * @param functionNetdevs the netdevs of its PCIe function ({@code device/net/}): an InfiniBand port's IPoIB
 *                       netdev ({@code ibp3s0}), which sysfs ties to no port; what {@code ibdev2netdev} lists
 */
public record RdmaDevice(String name, boolean portsDirectory, boolean iwarp, String pciFunction, List<RdmaPort> ports,
                         List<String> functionNetdevs) {

    /** domain:bus:device.function, as sysfs names a PCIe function. */
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    public RdmaDevice {
        ports = List.copyOf(ports);
        functionNetdevs = List.copyOf(functionNetdevs);
    }

    /** Without the function's netdevs. */
    public RdmaDevice(String name, boolean portsDirectory, boolean iwarp, String pciFunction, List<RdmaPort> ports) {
        this(name, portsDirectory, iwarp, pciFunction, ports, List.of());
    }

    /** Every netdev that belongs to it: its ports' own, the Ethernet ports under them, its function's. */
    public Set<String> netdevNames() {
        Set<String> names = new LinkedHashSet<>();
        for (RdmaPort port : ports) {
            port.netdev().ifPresent(names::add);
            names.addAll(port.ethernetPorts());
        }
        names.addAll(functionNetdevs);
        return names;
    }

    /** The PCIe function's address, when the device has one (soft-RoCE has none). */
    public Optional<String> pciAddress() {
        String bdf = bdf();
        return PCI_ADDRESS.matcher(bdf).matches() ? Optional.of(bdf) : Optional.empty();
    }

    /** The PCIe function's address ({@code 0000:3b:00.0}): the last component of {@link #pciFunction}. */
    public String bdf() {
        return pciFunction.substring(pciFunction.lastIndexOf('/') + 1);
    }
}
