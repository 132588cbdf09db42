package io.rdmastorage.probe.ports;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.probe.parse.RoceGid;
import io.rdmastorage.probe.parse.SysfsIbPort;
import java.util.List;
import java.util.Optional;

/**
 * One RDMA port as the host's sysfs shows it ({@code /sys/class/infiniband/<dev>/ports/<n>/}).
 * A source that is not there stays distinguishable from an empty one: {@code linkLayer} is empty
 * when {@code link_layer} cannot be read, {@code gids} is empty when the port has no {@code gids/}
 * directory (never an empty table).
 *
 * @param sysfs         state, physical state, rate, link layer and SM LID, parsed
 * @param linkLayer     {@code link_layer} as read, empty when it cannot be read
 * @param netdev        the port's own netdev ({@link NetdevStack#ofPort}); read for ports that are not
 *                      InfiniBand (RoCE, iWARP, unreadable link layer), empty otherwise or when none is known
 * @param ethernetPorts the Ethernet ports at the bottom of the netdev's stack (a bond's slaves, a VLAN's
 *                      parent; {@link NetdevStack#ports}), the netdev itself when nothing is under it; empty
 *                      without a netdev
 * @param bond          the netdev is a bond (its slaves count per priority and hold DCB settings)
 * @param gids          the used GID entries of a RoCE port (neither InfiniBand nor iWARP); empty when the
 *                      {@code gids/} directory is not there, and for InfiniBand and iWARP ports
 */
public record RdmaPort(SysfsIbPort sysfs, Optional<String> linkLayer, Optional<String> netdev, List<String> ethernetPorts,
                       boolean bond, Optional<List<RoceGid>> gids) {

    public RdmaPort {
        ethernetPorts = List.copyOf(ethernetPorts);
        gids = gids.map(List::copyOf);
    }

    public String device() {
        return sysfs.device();
    }

    public int port() {
        return sysfs.port();
    }

    /** "mlx5_0/1". */
    public String name() {
        return sysfs.name();
    }

    public DevicePort devicePort() {
        return new DevicePort(device(), port());
    }

    /** The link layer reads Ethernet: RoCE (or iWARP), the ports DCB and per-priority counters are about. */
    public boolean ethernet() {
        return linkLayer.filter("Ethernet"::equals).isPresent();
    }
}
