package io.rdmastorage.probe.ports;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.probe.check.HostView;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.RoceGid;
import io.rdmastorage.probe.parse.SysfsIbPort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The host's RDMA ports, read once per probe run and handed to every check that needs them
 * ({@code ProbeContext.ports()}): the one place {@code /sys/class/infiniband} is walked. Each port's
 * state and link layer, its own netdev and the netdevs under it, its GID table, and the device's
 * PCIe function; the netdevs the ports and their GIDs name, with MTU and what each sits on.
 *
 * @param sysfsVisible the host's /sys is there at all ({@link HostView#SYSFS}); when it is not, the
 *                     empty device list is no evidence
 * @param devices      the entries of /sys/class/infiniband, by name
 * @param netdevs      every netdev a port or one of its GIDs names, by name
 */
public record PortView(boolean sysfsVisible, List<RdmaDevice> devices, Map<String, Netdev> netdevs) {

    public static final String IB_CLASS = "/sys/class/infiniband";

    /**
     * A netdev a port's traffic crosses.
     *
     * @param mtu   its MTU; empty when {@code mtu} cannot be read
     * @param under the devices directly under it ({@link NetdevStack#under}): a VLAN's parent, a bond's slaves
     */
    public record Netdev(String name, Optional<Integer> mtu, List<String> under) {
        public Netdev {
            under = List.copyOf(under);
        }
    }

    public PortView {
        devices = List.copyOf(devices);
        netdevs = Map.copyOf(netdevs);
    }

    /** Reads the view: every device and port under /sys/class/infiniband. */
    public static PortView read(HostRoot host) {
        List<RdmaDevice> devices = new ArrayList<>();
        Map<String, Netdev> netdevs = new LinkedHashMap<>();
        for (String device : host.list(IB_CLASS)) {
            String dir = IB_CLASS + "/" + device;
            boolean iwarp = host.readAttribute(dir + "/node_type").map(t -> t.startsWith("4:")).orElse(false);
            List<RdmaPort> ports = new ArrayList<>();
            for (int n : portNumbers(host, device)) {
                RdmaPort port = port(host, device, n, iwarp);
                ports.add(port);
                List<String> named = new ArrayList<>(port.netdev().stream().toList());
                port.gids().orElse(List.of()).stream().map(RoceGid::ndev).filter(g -> !g.isEmpty() && !named.contains(g))
                        .forEach(named::add);
                for (String netdev : named) {
                    netdevs.computeIfAbsent(netdev, d -> new Netdev(d, NetdevStack.mtu(host, d), NetdevStack.under(host, d)));
                }
            }
            devices.add(new RdmaDevice(device, host.isDirectory(dir + "/ports"), iwarp, host.hostRealPath(dir + "/device"),
                    ports, host.list(dir + "/device/net")));
        }
        return new PortView(HostView.SYSFS.visible(host), devices, netdevs);
    }

    /**
     * Every port under /sys/class/infiniband, listed without reading it: for readers that list the
     * ports again at each reading (counters around an acceptance run's I/O).
     */
    public static List<DevicePort> list(HostRoot host) {
        List<DevicePort> all = new ArrayList<>();
        for (String device : host.list(IB_CLASS)) {
            portNumbers(host, device).forEach(n -> all.add(new DevicePort(device, n)));
        }
        return all;
    }

    /** The same host with only the devices {@code keep} accepts (the netdevs stay: they are looked up by name). */
    public PortView only(Predicate<RdmaDevice> keep) {
        return new PortView(sysfsVisible, devices.stream().filter(keep).toList(), netdevs);
    }

    public List<String> deviceNames() {
        return devices.stream().map(RdmaDevice::name).toList();
    }

    public Optional<RdmaDevice> device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /** Every port of every device, in device and port order. */
    public List<RdmaPort> ports() {
        return devices.stream().flatMap(d -> d.ports().stream()).toList();
    }

    public Optional<RdmaPort> port(DevicePort wanted) {
        return device(wanted.device()).flatMap(d -> d.ports().stream().filter(p -> p.port() == wanted.port()).findFirst());
    }

    /** The parsed port attributes by {@code dev/port}. */
    public Map<String, SysfsIbPort> sysfsPorts() {
        Map<String, SysfsIbPort> out = new LinkedHashMap<>();
        ports().forEach(p -> out.put(p.name(), p.sysfs()));
        return out;
    }

    public Optional<Netdev> netdev(String name) {
        return Optional.ofNullable(netdevs.get(name));
    }

    private static List<Integer> portNumbers(HostRoot host, String device) {
        return host.list(IB_CLASS + "/" + device + "/ports").stream()
                .filter(n -> !n.isEmpty() && n.length() <= 3 && n.chars().allMatch(Character::isDigit))
                .map(Integer::parseInt).sorted().toList();
    }

    private static RdmaPort port(HostRoot host, String device, int n, boolean iwarp) {
        String p = IB_CLASS + "/" + device + "/ports/" + n + "/";
        Optional<String> linkLayer = host.readAttribute(p + "link_layer");
        SysfsIbPort sysfs = SysfsIbPort.of(device, n, attr(host, p + "state"), attr(host, p + "phys_state"),
                attr(host, p + "rate"), linkLayer.orElse(null), attr(host, p + "sm_lid"));
        if (sysfs.infiniband()) {
            return new RdmaPort(sysfs, linkLayer, Optional.empty(), List.of(), false, Optional.empty());
        }
        Optional<String> netdev = NetdevStack.ofPort(host, IB_CLASS, device, n);
        List<String> ethernet = netdev.map(d -> NetdevStack.ports(host, d)).orElse(List.of());
        boolean bond = netdev.map(d -> NetdevStack.bond(host, d)).orElse(false);
        Optional<List<RoceGid>> gids = iwarp ? Optional.empty() : gidTable(host, p);
        return new RdmaPort(sysfs, linkLayer, netdev, ethernet, bond, gids);
    }

    /**
     * The used entries; an unused slot reads as the zero GID and its attributes fail to read. Empty
     * when the port has no {@code gids/} directory or it cannot be listed: a table that is not there is
     * not an empty one.
     */
    private static Optional<List<RoceGid>> gidTable(HostRoot host, String dir) {
        Optional<List<String>> indexes = host.entries(dir + "gids");
        if (indexes.isEmpty()) {
            return Optional.empty();
        }
        List<RoceGid> table = new ArrayList<>();
        for (String index : indexes.get()) {
            if (index.isEmpty() || index.length() > 6 || !index.chars().allMatch(Character::isDigit)) {
                continue;
            }
            int i = Integer.parseInt(index);
            RoceGid gid = RoceGid.of(i, host.readAttribute(dir + "gids/" + index).orElse(""), null, null);
            if (!gid.zero()) {
                table.add(RoceGid.of(i, gid.gid(), host.readAttribute(dir + "gid_attrs/types/" + index).orElse(""),
                        host.readAttribute(dir + "gid_attrs/ndevs/" + index).orElse("")));
            }
        }
        table.sort(Comparator.comparingInt(RoceGid::index));
        return Optional.of(table);
    }

    private static String attr(HostRoot host, String path) {
        return host.readAttribute(path).orElse(null);
    }
}
