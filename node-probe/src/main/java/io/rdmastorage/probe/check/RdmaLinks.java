package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaDevices.*;

import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.PcieLink;
import io.rdmastorage.probe.parse.RoceGid;
import io.rdmastorage.probe.parse.SysfsIbPort;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaDevice;
import io.rdmastorage.probe.ports.RdmaPort;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The part of RdmaDevices beyond the port states: what makes a working port slow or unable to
 * connect. A RoCE v2 GID on the port's netdev (without one, rdma_cm and GPFS fail with "Failed to
 * modify QP to RTR"), the path MTU and the rate against the spec, and the HCA's PCIe link (a card
 * at x4 of x16 caps RDMA silently); plus the inventory facts the fleet is compared by (firmware,
 * board id, netdev MTU).
 */
public final class RdmaLinks {

    /** The RoCE headers an RDMA MTU must fit under the netdev MTU (GRH 40, UDP 8, BTH 12, extended headers 32, ICRC 4; the kernel's iboe_get_mtu). */
    static final int ROCE_HEADERS = 96;

    /**
     * What the host shows about links.
     *
     * @param gids        the used GID entries of RoCE ports (Ethernet, not iWARP), by port name; a port whose
     *                    {@code gids/} directory is not there is in {@code gidsMissing} instead
     * @param netdevs     the port's own netdev ({@link io.rdmastorage.probe.ports.NetdevStack#ofPort}), by port name, where one is known
     * @param netdevMtu   the MTU of each netdev the ports and their GIDs name
     * @param hcas        firmware, board id and PCIe link per device
     * @param lowers      for a GID's netdev that is not the port's own (a VLAN, a macvlan, a bond), the device it sits on
     * @param gidsMissing RoCE ports without a {@code gids/} directory: their table is unknown, not empty
     */
    public record Facts(Map<String, List<RoceGid>> gids, Map<String, String> netdevs, Map<String, Integer> netdevMtu,
                 Map<String, Hca> hcas, Map<String, String> lowers, List<String> gidsMissing) {

        /** A host whose GIDs name only the ports' own netdevs. */
        public Facts(Map<String, List<RoceGid>> gids, Map<String, String> netdevs, Map<String, Integer> netdevMtu,
                     Map<String, Hca> hcas) {
            this(gids, netdevs, netdevMtu, hcas, Map.of(), List.of());
        }

        public static Facts none() {
            return new Facts(Map.of(), Map.of(), Map.of(), Map.of());
        }

        /**
         * The netdevs that carry a port's storage traffic: those of its routable RoCE v2 GIDs (an IP
         * address, not fe80::), in GID order. A VLAN's or macvlan's address puts its GIDs on that
         * device, not on the port's own netdev.
         */
        public List<String> storageNetdevs(String port) {
            return gids.getOrDefault(port, List.of()).stream().filter(RdmaLinks::routableV2).map(RoceGid::ndev)
                    .filter(n -> !n.isEmpty()).distinct().toList();
        }

        /** What the MTU is judged on: the storage netdevs, else the port's own netdev. */
        List<String> judgedNetdevs(String port) {
            List<String> storage = storageNetdevs(port);
            return !storage.isEmpty() ? storage : Optional.ofNullable(netdevs.get(port)).map(List::of).orElse(List.of());
        }

        /** "eth1.100 (over eth1)", or the bare name. */
        String describe(String netdev) {
            return netdev + Optional.ofNullable(lowers.get(netdev)).map(l -> " (over " + l + ")").orElse("");
        }
    }

    /** One device's identity and PCIe link; empty strings and link where sysfs has none (soft-RoCE). */
    public record Hca(String firmware, String boardId, Optional<PcieLink> pcie) {
    }

    private RdmaLinks() {
    }

    /** The link facts of the port view; only the HCAs' firmware, board id and PCIe link are read here. */
    static Facts gather(HostRoot host, PortView view) {
        Map<String, List<RoceGid>> gids = new LinkedHashMap<>();
        Map<String, String> netdevs = new LinkedHashMap<>();
        Map<String, Integer> mtus = new LinkedHashMap<>();
        Map<String, String> lowers = new LinkedHashMap<>();
        List<String> gidsMissing = new ArrayList<>();
        for (RdmaDevice device : view.devices()) {
            for (RdmaPort port : device.ports()) {
                if (port.sysfs().infiniband()) {
                    continue;
                }
                Optional<String> own = port.netdev();
                own.ifPresent(netdev -> netdevs.put(port.name(), netdev));
                List<String> named = new ArrayList<>(own.stream().toList());
                // iWARP (node_type "4: RNIC") is Ethernet too, but addresses peers by IP, without RoCE GIDs
                if (!device.iwarp()) {
                    if (port.gids().isEmpty()) {
                        gidsMissing.add(port.name());
                    }
                    List<RoceGid> table = port.gids().orElse(List.of());
                    gids.put(port.name(), table);
                    table.stream().map(RoceGid::ndev).filter(n -> !n.isEmpty() && !named.contains(n)).forEach(named::add);
                }
                for (String netdev : named) {
                    Optional<PortView.Netdev> stack = view.netdev(netdev);
                    stack.flatMap(PortView.Netdev::mtu).ifPresent(mtu -> mtus.put(netdev, mtu));
                    if (own.isPresent() && !netdev.equals(own.get())) {
                        stack.flatMap(n -> n.under().stream().findFirst()).ifPresent(lower -> lowers.put(netdev, lower));
                    }
                }
            }
        }
        Map<String, Hca> hcas = new LinkedHashMap<>();
        for (RdmaDevice device : view.devices()) {
            String dir = RdmaDevicesCheck.SYSFS_CLASS + "/" + device.name();
            String pci = dir + "/device/";
            Optional<PcieLink> link = host.exists(pci + "current_link_speed")
                    ? PcieLink.of(device.bdf(), attr(host, pci + "current_link_speed"),
                            attr(host, pci + "current_link_width"), attr(host, pci + "max_link_speed"),
                            attr(host, pci + "max_link_width"))
                    : Optional.empty();
            hcas.put(device.name(), new Hca(attr(host, dir + "/fw_ver"), attr(host, dir + "/board_id"), link));
        }
        return new Facts(gids, netdevs, mtus, hcas, lowers, gidsMissing);
    }

    private static String attr(HostRoot host, String path) {
        return host.readAttribute(path).orElse("");
    }

    // ---- judging -------------------------------------------------------------------------

    /**
     * The findings about the working ports and their devices, and the fleet facts into
     * {@code details}. {@code verbs}: libibverbs' answer when it was asked, for the active MTU.
     */
    static List<Finding> judge(Facts facts, ProbeSpec.Rdma rdma, List<SysfsIbPort> working,
                               Optional<VerbsReport> verbs, Details details) {
        report(facts, details);
        List<Finding> findings = new ArrayList<>();
        for (SysfsIbPort port : working) {
            if (facts.gids().containsKey(port.name())) {
                roceGid(facts, port).ifPresent(findings::add);
            }
        }
        if (rdma != null && rdma.minMtu() != null) {
            for (SysfsIbPort port : working) {
                mtu(facts, port, rdma.minMtu(), activeMtu(verbs, port)).ifPresent(findings::add);
            }
        }
        if (rdma != null && rdma.minRate() != null) {
            for (SysfsIbPort port : working) {
                rate(port, rdma).ifPresent(findings::add);
            }
        }
        working.stream().map(SysfsIbPort::device).distinct()
                .forEach(device -> pcie(device, facts.hcas().get(device)).ifPresent(findings::add));
        return findings;
    }

    /**
     * "; RoCE storage on eth1.100 (over eth1); MTU ≥ 4096, rate ≥ 400 Gb/sec": what the True message adds,
     * the netdevs the RoCE ports were judged on and what the spec asked for.
     */
    static String passedSuffix(Facts facts, List<SysfsIbPort> working, ProbeSpec.Rdma rdma) {
        // named when it is not the port's own netdev: a VLAN, macvlan or bond over it
        List<String> storage = working.stream().flatMap(p -> facts.storageNetdevs(p.name()).stream()
                .filter(n -> !n.equals(facts.netdevs().get(p.name())))).distinct().map(facts::describe).toList();
        String on = storage.isEmpty() ? "" : "; RoCE storage on " + String.join(", ", storage);
        if (rdma == null) {
            return on;
        }
        List<String> parts = new ArrayList<>();
        if (rdma.minMtu() != null) {
            parts.add("MTU ≥ " + rdma.minMtu());
        }
        if (rdma.minRate() != null) {
            parts.add("rate ≥ " + rdma.minRate());
        }
        return on + (parts.isEmpty() ? "" : "; " + String.join(", ", parts));
    }

    /** The devices' identities and links, one short line per device: the report stays small however many HCAs. */
    private static void report(Facts facts, Details details) {
        List<String> hcas = new ArrayList<>();
        facts.hcas().forEach((device, hca) -> {
            List<String> parts = new ArrayList<>();
            if (!hca.firmware().isEmpty()) {
                parts.add("fw " + hca.firmware());
            }
            if (!hca.boardId().isEmpty()) {
                parts.add("board " + hca.boardId());
            }
            hca.pcie().ifPresent(link -> parts.add("PCIe " + link.bdf() + " " + link.summary()));
            if (!parts.isEmpty()) {
                hcas.add(device + ": " + String.join(", ", parts));
            }
        });
        if (!hcas.isEmpty()) {
            details.list("hcas", hcas);
        }
        if (!facts.netdevs().isEmpty()) {
            List<String> netdevs = new ArrayList<>();
            facts.netdevs().forEach((port, netdev) -> {
                List<String> storage = facts.storageNetdevs(port).stream().filter(n -> !n.equals(netdev)).toList();
                netdevs.add(port + ": " + withMtu(facts, netdev) + (storage.isEmpty() ? "" : ", storage on "
                        + String.join(", ", storage.stream().map(n -> withMtu(facts, facts.describe(n), n)).toList())));
            });
            details.list("netdevs", netdevs);
        }
    }

    private static String withMtu(Facts facts, String netdev) {
        return withMtu(facts, netdev, netdev);
    }

    private static String withMtu(Facts facts, String shown, String netdev) {
        return shown + Optional.ofNullable(facts.netdevMtu().get(netdev)).map(m -> " mtu " + m).orElse("");
    }

    /** The HCAs' board ids and firmware and the RoCE netdevs' MTUs (those the storage runs on), each as the node's distinct values. */
    static void inventory(Facts facts, Inventory into) {
        into.distinct(InventoryFact.HCA_MODEL, facts.hcas().values().stream().map(Hca::boardId).toList());
        into.distinct(InventoryFact.HCA_FIRMWARE, facts.hcas().values().stream().map(Hca::firmware).toList());
        into.distinct(InventoryFact.RDMA_MTU, facts.netdevs().keySet().stream().flatMap(p -> facts.judgedNetdevs(p).stream())
                .map(facts.netdevMtu()::get).filter(java.util.Objects::nonNull).map(String::valueOf).toList());
    }

    /** A RoCE v2 GID carrying an IP address on any netdev of the port's stack (its own, a VLAN, a macvlan, a bond). */
    private static Optional<Finding> roceGid(Facts facts, SysfsIbPort port) {
        String gidsDir = RdmaDevicesCheck.SYSFS_CLASS + "/" + port.device() + "/ports/" + port.port() + "/gids";
        if (facts.gidsMissing().contains(port.name())) {
            return Optional.of(Finding.of(Status.UNKNOWN, GID_TABLE_UNREADABLE, port.name() + " (RoCE) has no " + gidsDir
                    + ", so whether a RoCE v2 GID carries its storage address cannot be told; check the probe's /sys mount, "
                    + "then `show_gids " + port.device() + "` on the host", port.name() + " gids missing"));
        }
        if (!facts.storageNetdevs(port.name()).isEmpty()) {
            return Optional.empty();
        }
        List<RoceGid> table = facts.gids().getOrDefault(port.name(), List.of());
        // an address whose type cannot be read may well be the RoCE v2 one: not evidence of a table without it
        List<RoceGid> untyped = table.stream().filter(g -> !g.zero() && g.type().isEmpty() && !linkLocal(g)).toList();
        if (!untyped.isEmpty()) {
            String typesDir = gidsDir.substring(0, gidsDir.length() - "gids".length()) + "gid_attrs/types";
            return Optional.of(Finding.of(Status.UNKNOWN, GID_TABLE_UNREADABLE, port.name() + " (RoCE) has no readable RoCE "
                    + "v2 GID, but the type of GID " + String.join(", ", untyped.stream().map(g -> g.index() + " (" + g.gid()
                    + ")").toList()) + " cannot be read (no " + typesDir + "/<index>), so whether a RoCE v2 GID carries its "
                    + "storage address cannot be told; check the probe's /sys mount, then `show_gids " + port.device()
                    + "` on the host", port.name() + " GID types unreadable"));
        }
        Optional<String> netdev = Optional.ofNullable(facts.netdevs().get(port.name()));
        List<RoceGid> v2 = table.stream().filter(g -> !g.zero() && g.roceV2()).toList();
        String on = netdev.map(n -> " for its netdev " + n + " or a VLAN, macvlan or bond over it,").orElse("");
        String has = table.isEmpty() ? "its GID table is empty"
                : v2.isEmpty() ? "its GIDs are " + String.join(", ", table.stream().map(g -> g.index() + " "
                        + (g.type().isEmpty() ? "?" : g.type())).distinct().limit(4).toList())
                : "its RoCE v2 GIDs are link-local only (fe80::) on " + String.join(", ", v2.stream().map(RoceGid::ndev)
                        .filter(n -> !n.isEmpty()).distinct().toList()) + ", no storage address";
        String where = netdev.orElse("<netdev>");
        return Optional.of(Finding.of(Status.FALSE, NO_ROCE_V2_GID, port.name() + " (RoCE) has no RoCE v2 GID" + on
                + " carrying an IP address (" + has + "): connections fail with \"Failed to modify QP to RTR\"; check that "
                + "the netdev that carries storage (" + where + ", or the VLAN over it) is up and has its storage IP address "
                + "(`ip addr show " + where + "`; `ip -d link show` lists the VLANs over it), then `show_gids " + port.device() + "` and `ibv_devinfo -v -d "
                + port.device() + "` (GID type RoCE v2)", port.name() + " no RoCE v2 GID"));
    }

    /** A RoCE v2 entry with an IP address (IPv4-mapped or global IPv6), not the link-local one every netdev has. */
    static boolean routableV2(RoceGid gid) {
        return !gid.zero() && gid.roceV2() && !linkLocal(gid);
    }

    private static boolean linkLocal(RoceGid gid) {
        return gid.gid().toLowerCase(java.util.Locale.ROOT).startsWith("fe80:");
    }

    private static OptionalInt activeMtu(Optional<VerbsReport> verbs, SysfsIbPort port) {
        return verbs.stream().flatMap(r -> r.tests().stream()).filter(t -> t.device().equals(port.device()))
                .flatMap(t -> t.ports().stream()).filter(p -> p.port() == port.port())
                .map(VerbsReport.PortAttributes::activeMtuBytes).filter(OptionalInt::isPresent).findFirst()
                .orElse(OptionalInt.empty());
    }

    /** The active MTU where libibverbs told it; on RoCE the netdev MTU must carry minMtu plus the RoCE headers. */
    private static Optional<Finding> mtu(Facts facts, SysfsIbPort port, int minMtu, OptionalInt active) {
        if (active.isPresent() && active.getAsInt() < minMtu) {
            return Optional.of(Finding.of(Status.FALSE, MTU_TOO_SMALL, port.name() + " runs at active MTU "
                    + active.getAsInt() + ", below rdma.minMtu " + minMtu + ": "
                    + (port.infiniband() ? "raise the partition's MTU in the subnet manager (opensm partitions.conf "
                    + "mtu=5 for 4096) and check `ibv_devinfo -v -d " + port.device() + "` active_mtu"
                    : "raise the netdev MTU (" + netdevHint(facts.judgedNetdevs(port.name()).stream().findFirst()
                            .orElse("<netdev>"), minMtu) + ")"), port.name() + " MTU " + active.getAsInt()));
        }
        if (!port.infiniband()) {
            // the netdevs that carry storage: a VLAN keeps its own MTU, often 1500 over a parent at 9000
            List<String> judged = facts.judgedNetdevs(port.name()).stream()
                    .filter(n -> facts.netdevMtu().containsKey(n)).toList();
            if (!judged.isEmpty()) {
                if (judged.stream().allMatch(n -> facts.netdevMtu().get(n) < minMtu + ROCE_HEADERS)) {
                    String netdev = judged.get(0);
                    int mtu = facts.netdevMtu().get(netdev);
                    String parent = Optional.ofNullable(facts.lowers().get(netdev)).filter(facts.netdevMtu()::containsKey)
                            .map(l -> " (over " + l + " at MTU " + facts.netdevMtu().get(l) + ")").orElse("");
                    String sits = netdev.equals(facts.netdevs().get(port.name())) ? " sits on " : " carries storage on ";
                    return Optional.of(Finding.of(Status.FALSE, MTU_TOO_SMALL, port.name() + " (RoCE)" + sits
                            + netdev + parent + " with MTU " + mtu + ", too small for the RDMA MTU " + minMtu + " that "
                            + "rdma.minMtu asks: RoCE needs the netdev MTU ≥ " + (minMtu + ROCE_HEADERS) + " (IB MTU 4096 needs "
                            + "≥ 4200 as vendors set it); " + netdevHint(netdev, minMtu) + ", on the switch ports too",
                            port.name() + " " + netdev + " MTU " + mtu));
                }
                return Optional.empty();
            }
        }
        if (active.isPresent()) {
            return Optional.empty();
        }
        return Optional.of(Finding.of(Status.UNKNOWN, MTU_UNREADABLE, "rdma.minMtu " + minMtu + " is set but the MTU of "
                + port.name() + " cannot be read: " + (port.infiniband()
                ? "sysfs has no active MTU for InfiniBand ports; set rdma.userspaceVerbs so the probe asks libibverbs, "
                + "or check `ibv_devinfo -v -d " + port.device() + "` active_mtu"
                : "no netdev found for it under /sys/class/net; check `rdma link show " + port.name() + "`"),
                port.name() + " MTU unreadable"));
    }

    private static String netdevHint(String netdev, int minMtu) {
        int suggested = (minMtu + ROCE_HEADERS + 99) / 100 * 100;
        return "`ip link set " + netdev + " mtu " + suggested + "`";
    }

    private static Optional<Finding> rate(SysfsIbPort port, ProbeSpec.Rdma rdma) {
        OptionalDouble min = rdma.minRateGbps();
        OptionalDouble rate = Rules.linkRateGbps(port.rate());
        if (min.isEmpty()) {
            return Optional.empty();
        }
        if (rate.isEmpty()) {
            return Optional.of(Finding.of(Status.UNKNOWN, RATE_BELOW_EXPECTED, "cannot read the rate of " + port.name()
                    + " ('" + port.rate() + "') to compare with rdma.minRate " + rdma.minRate() + ": check `ibstat "
                    + port.device() + " " + port.port() + "`", port.name() + " rate unreadable"));
        }
        if (rate.getAsDouble() >= min.getAsDouble()) {
            return Optional.empty();
        }
        return Optional.of(Finding.of(Status.FALSE, RATE_BELOW_EXPECTED, port.name() + " runs at " + port.rate()
                + ", below rdma.minRate " + rdma.minRate() + ": the link trained down (cable, transceiver or switch port "
                + "speed); check `ibstat " + port.device() + " " + port.port() + "`"
                + (port.infiniband() ? " and `iblinkinfo`" : " and `ethtool <netdev>`") + ", reseat or replace the cable",
                port.name() + " " + port.rate()).onDevice(port.device()));
    }

    private static Optional<Finding> pcie(String device, Hca hca) {
        if (hca == null || hca.pcie().isEmpty() || !hca.pcie().get().degraded()) {
            return Optional.empty();
        }
        PcieLink link = hca.pcie().get();
        return Optional.of(Finding.of(Status.FALSE, PCIE_LINK_DEGRADED, device + "'s PCIe link (" + link.bdf()
                + ") trained at " + link.summary() + ": RDMA throughput is capped by the slot, not the network; check "
                + "`lspci -vv -s " + link.bdf() + "` (LnkSta against LnkCap), reseat the card or move it to a full-width "
                + "slot, and check the BIOS slot settings", device + " PCIe " + link.summary()).onDevice(device));
    }
}
