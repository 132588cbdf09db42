package io.rdmastorage.probe.rails;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.RoceGid;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaPort;
import io.rdmastorage.probe.spec.IpAddress;
import java.util.List;
import java.util.Optional;

/**
 * The RDMA port under a netdev or a local address, as the kernel ties them: a RoCE port's netdev
 * (or a bond's slave) and the IP addresses in its GID table (what the RDMA CM binds a connection by);
 * an IPoIB netdev's device under its PCI function ({@code /sys/class/net/ib0/device/infiniband/}) and
 * port {@code dev_port + 1}.
 */
public final class RailPorts {

    private final HostRoot host;
    private final PortView view;

    public RailPorts(HostRoot host, PortView view) {
        this.host = host;
        this.view = view;
    }

    public Optional<DevicePort> ofNetdev(String netdev) {
        Optional<DevicePort> roce = view.ports().stream()
                .filter(p -> p.netdev().filter(netdev::equals).isPresent() || p.ethernetPorts().contains(netdev))
                .map(RdmaPort::devicePort).findFirst();
        if (roce.isPresent()) {
            return roce;
        }
        String net = "/sys/class/net/" + netdev;
        List<String> devices = host.list(net + "/device/infiniband");
        Optional<Integer> devPort = host.readAttribute(net + "/dev_port").filter(s -> s.matches("[0-9]{1,3}")).map(Integer::parseInt);
        if (devices.size() != 1 || devPort.isEmpty()) {
            return Optional.empty();
        }
        DevicePort port = new DevicePort(devices.get(0), devPort.get() + 1);
        return view.port(port).map(RdmaPort::devicePort);
    }

    /** The RoCE port whose GID table holds {@code address} (an IPv4 address appears IPv4-mapped there). */
    public Optional<DevicePort> ofAddress(String address) {
        if (IpAddress.canonical(address).isEmpty()) {
            return Optional.empty();
        }
        for (RdmaPort port : view.ports()) {
            for (RoceGid gid : port.gids().orElse(List.of())) {
                if (IpAddress.same(gid.gid(), address)) {
                    return Optional.of(port.devicePort());
                }
            }
        }
        return Optional.empty();
    }
}
