/**
 * The host's RDMA ports, read once per probe run and handed to every check that needs them, as
 * {@code counters/} hands out counter readings.
 *
 * <ul>
 * <li>{@link io.rdmastorage.probe.ports.PortView}: every device and port under
 * {@code /sys/class/infiniband} (state, link layer, own netdev and the netdevs under it, GIDs, the
 * device's PCIe function) and the netdevs they name; {@code ProbeContext.ports()} reads it at most
 * once per run;</li>
 * <li>{@link io.rdmastorage.probe.ports.NetdevStack}: how {@code /sys/class/net} links a port's
 * netdev to the VLAN, macvlan or bond over it and the Ethernet ports under it.</li>
 * </ul>
 * A source that is not there stays distinguishable from an empty one: a port without a
 * {@code gids/} directory has no table, not an empty one; an unreadable {@code link_layer} is not
 * InfiniBand.
 */
package io.rdmastorage.probe.ports;
