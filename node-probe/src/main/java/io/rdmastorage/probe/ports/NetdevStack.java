package io.rdmastorage.probe.ports;

import io.rdmastorage.probe.host.HostRoot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The netdevs a RoCE port's traffic crosses, as {@code /sys/class/net} links them. Storage rarely
 * sits on the port's own netdev alone: lossless RoCE usually runs on a VLAN ({@code eth1.100} over
 * {@code eth1}), some sites put it on a macvlan, and RoCE LAG puts the port under a bond. Addresses
 * and MTU belong to the upper device that carries the storage traffic (the GID table names it), while
 * DCB settings and per-priority counters belong to the Ethernet ports at the bottom of the stack.
 */
public final class NetdevStack {

    public static final String NET_CLASS = "/sys/class/net";
    /** A Linux interface name as sysfs lists it: passed to tools as one argv item, never as an option. */
    public static final Pattern NETDEV = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.@-]{0,14}");
    private static final String LOWER = "lower_";
    /** A bond of bonds of VLANs is the deepest layout seen; more is a loop in a broken fixture. */
    private static final int MAX_DEPTH = 4;

    private NetdevStack() {
    }

    /**
     * The port's own netdev: its default GID's {@code gid_attrs/ndevs/0} (the kernel fills index 0
     * from the port's netdev, never from a VLAN over it), else soft-RoCE's {@code parent}, else the
     * PCI function's only {@code device/net} entry.
     */
    public static Optional<String> ofPort(HostRoot host, String ibClass, String device, int port) {
        String dir = ibClass + "/" + device;
        Optional<String> ndev = host.readAttribute(dir + "/ports/" + port + "/gid_attrs/ndevs/0").filter(NetdevStack::valid);
        if (ndev.isPresent()) {
            return ndev;
        }
        Optional<String> parent = host.readAttribute(dir + "/parent").filter(NetdevStack::valid);
        if (parent.isPresent()) {
            return parent;
        }
        List<String> net = host.list(dir + "/device/net").stream().filter(NetdevStack::valid).toList();
        return net.size() == 1 ? Optional.of(net.get(0)) : Optional.empty();
    }

    /**
     * The Ethernet ports under {@code netdev}: a bond's slaves ({@code bonding/slaves}), a VLAN's or
     * macvlan's lower device ({@code lower_*} links), down to the bottom; {@code netdev} itself when
     * nothing is under it.
     */
    public static List<String> ports(HostRoot host, String netdev) {
        List<String> out = new ArrayList<>();
        collectPorts(host, netdev, 0, out);
        return out;
    }

    private static void collectPorts(HostRoot host, String netdev, int depth, List<String> out) {
        List<String> under = depth < MAX_DEPTH ? under(host, netdev) : List.of();
        if (under.isEmpty()) {
            if (!out.contains(netdev)) {
                out.add(netdev);
            }
            return;
        }
        for (String lower : under) {
            collectPorts(host, lower, depth + 1, out);
        }
    }

    /** The devices directly under {@code netdev}: a bond's slaves first, else its {@code lower_*} links. */
    public static List<String> under(HostRoot host, String netdev) {
        String dir = NET_CLASS + "/" + netdev;
        Optional<String> slaves = host.readAttribute(dir + "/bonding/slaves");
        if (slaves.isPresent() && !slaves.get().isBlank()) {
            return Arrays.stream(slaves.get().split("\\s+")).filter(NetdevStack::valid).toList();
        }
        return host.list(dir).stream().filter(e -> e.startsWith(LOWER)).map(e -> e.substring(LOWER.length()))
                .filter(NetdevStack::valid).toList();
    }

    /** Whether {@code netdev} is a bond: its slaves, not itself, count per priority and hold DCB settings. */
    public static boolean bond(HostRoot host, String netdev) {
        return host.isDirectory(NET_CLASS + "/" + netdev + "/bonding");
    }

    public static Optional<Integer> mtu(HostRoot host, String netdev) {
        return host.readAttribute(NET_CLASS + "/" + netdev + "/mtu")
                .filter(s -> !s.isEmpty() && s.length() <= 6 && s.chars().allMatch(Character::isDigit))
                .map(Integer::parseInt);
    }

    public static boolean valid(String netdev) {
        return NETDEV.matcher(netdev).matches();
    }
}
