package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.LustreLnet.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.LnetNets;
import io.rdmastorage.probe.parse.LnetNid;
import io.rdmastorage.probe.parse.LnetPeers;
import io.rdmastorage.probe.parse.LustreImports;
import io.rdmastorage.probe.parse.ProcMounts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Lustre over LNet o2ib. A Lustre client reaches its servers through LNet networks: o2ib (RDMA) or
 * tcp. When the o2ib network is missing or down, a server is reachable only by a tcp NID, or LNet
 * health marks the RDMA NI degraded, traffic goes over TCP or around the NI, and the mounts keep
 * working. This check reads the Lustre client mounts ({@code /proc/1/mounts}), which NID each of their
 * metadata and object targets is connected through ({@code lctl get_param mdc.*.import osc.*.import}:
 * {@link LustreMountTransport}, as the mount's own NIDs are only the MGS's), the local networks with
 * their status and health ({@code lnetctl net show -v 3}) and the peers with their NIDs' state and
 * health ({@code lnetctl peer show -v 3}).
 */
public final class LustreLnetCheck extends FactsCheck<LustreLnetCheck.Facts> {

    static final String MOUNTS = ClientMounts.MOUNTS;
    static final String KO2IBLND = "/sys/module/ko2iblnd";
    static final String VERSION = "/sys/fs/lustre/version";
    static final String LUSTRE = "lustre";
    /** -v 3 adds the health stats (Lustre 2.12 and later). */
    static final List<String> NET_SHOW = List.of("net", "show", "-v", "3");
    static final List<String> PEER_SHOW = List.of("peer", "show", "-v", "3");
    private static final int NAMED = 5;

    /**
     * What the host shows.
     *
     * @param mounts      PID 1's mount table; empty when unreadable
     * @param netShow     {@code lnetctl net show -v 3}
     * @param peerShow    {@code lnetctl peer show -v 3}, asked once net show answered
     * @param imports     {@code lctl get_param mdc.*.import osc.*.import}
     * @param ko2iblnd    /sys/module/ko2iblnd exists (the RDMA LND is loaded)
     * @param version     /sys/fs/lustre/version (the Lustre client's version); empty when absent
     * @param procVisible whether the host's /proc is there at all
     * @param sysVisible  whether the host's /sys is there at all (so an absent ko2iblnd is evidence)
     * @param hostRoot    where the host's file system is seen, for messages
     */
    public record Facts(Optional<ProcMounts> mounts, ToolResult netShow, Optional<ToolResult> peerShow, ToolResult imports, boolean ko2iblnd,
                        Optional<String> version, boolean procVisible, boolean sysVisible, String hostRoot) {
    }

    @Override
    public CheckType type() {
        return CheckType.LUSTRE_LNET;
    }

    /** With a lustre section always; without a spec where the node has a Lustre client mount. */
    @Override
    public boolean applies(ProbeContext context) {
        if (context.spec().lustre() != null) {
            return true;
        }
        return ClientMounts.discovered(context, LustreLnetCheck::clientMount);
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        ToolRunner tools = context.tools();
        ToolResult net = tools.run("lnetctl", NET_SHOW);
        Optional<ToolResult> peers = net.succeeded() ? Optional.of(tools.run("lnetctl", PEER_SHOW)) : Optional.empty();
        ToolResult imports = tools.run("lctl", LustreMountTransport.GET_IMPORTS);
        return new Facts(host.read(MOUNTS).map(ProcMounts::parse), net, peers, imports, host.isDirectory(KO2IBLND),
                host.readAttribute(VERSION), HostView.PROCFS.visible(host), HostView.SYSFS.visible(host), host.root().toString());
    }

    /** The Lustre client's version and the node's LNet networks; not installed when neither lnetctl nor the version is there. */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (facts.netShow().ending() == ToolResult.Ending.NOT_FOUND && facts.version().isEmpty()) {
            into.notInstalled(InventoryFact.LUSTRE_VERSION);
            return;
        }
        // older clients write "lustre: 2.12.6"
        facts.version().map(v -> v.replaceFirst("^lustre:\\s*", "")).ifPresent(v -> into.put(InventoryFact.LUSTRE_VERSION, v));
        netShow(facts).filter(n -> n.error().isEmpty()).ifPresent(n -> into.distinct(InventoryFact.LNET_NETWORKS, n.names()));
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return List.of(MOUNT_OVER_TCP, PEER_ON_TCP, RDMA_NETWORK_DOWN, NOT_MOUNTED, HEALTH_DEGRADED);
    }

    /** A client mount: type lustre with server NIDs in its device (an MDT or OST mount has a block device). */
    static boolean clientMount(ProcMounts.Mount m) {
        return m.fsType().equals(LUSTRE) && !LnetNid.ofMountDevice(m.device()).isEmpty();
    }

    /** net show's document: from stdout, or from stderr where lnetctl writes its error document. */
    private static Optional<LnetNets> netShow(Facts facts) {
        ToolResult r = facts.netShow();
        if (!r.ran()) {
            return Optional.empty();
        }
        return LnetNets.parse(r.stdout()).or(() -> LnetNets.parse(r.stderr()));
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        Details details = new Details();
        if (!facts.procVisible()) {
            return Judgement.only(HostView.PROCFS.missing(facts.hostRoot()), details);
        }
        if (facts.mounts().isEmpty()) {
            return Judgement.only(ClientMounts.unreadable(MOUNTS_UNREADABLE, facts.hostRoot(), "Lustre"), details);
        }
        ProbeSpec.Lustre lustre = spec.lustre() != null ? spec.lustre() : new ProbeSpec.Lustre(null, null, null);
        List<String> wanted = wanted(facts.mounts().get(), spec.lustre());
        if (wanted.isEmpty()) {
            return Judgement.only(Finding.of(Status.UNKNOWN, NO_LUSTRE_MOUNTS, "the lustre section lists no mount and "
                    + MOUNTS + " has no Lustre client mount, so there is nothing to judge. List the mounts that must use "
                    + "RDMA in lustre.mounts (e.g. [/mnt/lustre]) and mount them through the servers' o2ib NIDs"), details);
        }
        List<Finding> findings = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        Set<String> needed = new LinkedHashSet<>(lustre.networks());
        List<String> shown = new ArrayList<>();
        List<String> mounted = new ArrayList<>();
        for (String point : wanted) {
            if (mounted(point, facts.mounts().get(), shown, findings)) {
                mounted.add(point);
            }
        }
        details.list("mounts", shown);
        Optional<LnetNets> nets = netShow(facts);
        Optional<LnetPeers> peers = facts.peerShow().filter(ToolResult::succeeded).flatMap(r -> LnetPeers.parse(r.stdout()));
        Optional<LustreImports> imports = facts.imports().ran() ? LustreImports.parse(facts.imports().stdout()) : Optional.empty();
        Optional<Boolean> clientO2ib = nets.filter(n -> n.error().isEmpty()).map(n -> n.nets().stream()
                .flatMap(net -> net.nis().stream()).anyMatch(ni -> ni.up() && ni.nid().rdma()));
        List<String> devices = new ArrayList<>();
        for (String point : mounted) {
            String device = facts.mounts().get().at(point).orElseThrow().device();
            devices.add(device);
            LustreMountTransport.Outcome outcome = LustreMountTransport.judge(point, device, imports, facts.imports(), peers,
                    clientO2ib);
            outcome.finding().ifPresent(findings::add);
            if (outcome.finding().isEmpty()) {
                passed.add(outcome.passed());
                if (lustre.networks().isEmpty()) {
                    needed.addAll(outcome.networks());
                }
            }
        }
        if (!facts.netShow().succeeded() && (nets.isEmpty() || nets.get().error().isEmpty())) {
            findings.add(ToolFindings.cannotTell(facts.netShow(), false, "Without lnetctl's networks the transport of the "
                    + "Lustre mounts cannot be told: install lnetctl (lustre-client utilities) on the node, or run "
                    + "`lnetctl net show -v 3` there"));
            return Judgement.of(findings, null, details);
        }
        if (nets.isEmpty()) {
            findings.add(ToolFindings.unparseable(facts.netShow(), "lnetctl's YAML list of networks (net: - net type: ...)"));
            return Judgement.of(findings, null, details);
        }
        if (nets.get().error().isPresent() && mounted.isEmpty()) {
            // nothing mounted and LNet down: the two sources agree, the listed mounts are simply not there
            return Judgement.of(findings, null, details).withNote(". LNet is not up either (`lnetctl net show`: \""
                    + nets.get().error().get() + "\"): load and configure it first (`modprobe lnet && lnetctl lnet "
                    + "configure`, then the o2ib network)");
        }
        if (nets.get().error().isPresent()) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, MOUNTS + " has Lustre client mounts ("
                    + String.join(", ", mounted) + "), but `lnetctl net show` says \"" + nets.get().error().get() + "\": a "
                    + "mounted client needs LNet up, so the two cannot both be this host's now. Run `lnetctl net show` and "
                    + "`lctl dl` on the node itself", "the mounts and lnetctl disagree"));
            return Judgement.of(findings, null, details);
        }
        details.list("networks", nets.get().nets().stream().filter(n -> !n.type().equals("lo"))
                .map(n -> n.type() + ": " + String.join(", ", n.nis().stream().map(LustreLnetCheck::showNi).toList())).toList());
        String networks = judgeNetworks(nets.get(), needed, lustre.minHealthValue(), facts, findings);
        Set<LnetNid> configurationOnly = LustreMountTransport.configurationOnly(devices, imports);
        String peerText = facts.peerShow().map(r -> judgePeers(r, peers, lustre.minHealthValue(), configurationOnly, details,
                findings)).orElse("");
        return Judgement.of(findings, Finding.passed(MOUNTS_OVER_RDMA, "Lustre over LNet o2ib: " + String.join("; ", passed)
                + "; " + networks + peerText), details);
    }

    /** The listed mount points; else (an empty list, or no section) every Lustre client mount. */
    private static List<String> wanted(ProcMounts mounts, ProbeSpec.Lustre lustre) {
        return ClientMounts.wanted(mounts, lustre != null ? lustre.mounts() : List.of(), LustreLnetCheck::clientMount);
    }

    /** Whether a Lustre client mount is at a listed point; NotMounted where none is. */
    private static boolean mounted(String point, ProcMounts mounts, List<String> shown, List<Finding> findings) {
        Optional<ProcMounts.Mount> at = mounts.at(point);
        if (at.isEmpty() || !clientMount(at.get())) {
            shown.add(point + ": " + at.map(m -> m.fsType() + ", not a Lustre client mount").orElse("not mounted"));
            findings.add(Finding.of(Status.FALSE, NOT_MOUNTED, point + " has no Lustre client mount in " + MOUNTS
                    + at.map(m -> " (it is " + m.fsType() + " from " + m.device() + ")").orElse(" (nothing is mounted there)")
                    + ", so its I/O cannot be Lustre over o2ib. Mount it through the servers' o2ib NIDs: `mount -t lustre "
                    + "<mgs-ip>@o2ib:/<fsname> " + point + "`", point + " not mounted"));
            return false;
        }
        shown.add(point + ": " + at.get().device());
        return true;
    }

    /** Every needed o2ib network is configured, its NIs are up and healthy; what True says of them. */
    private static String judgeNetworks(LnetNets nets, Set<String> needed, int minHealth, Facts facts, List<Finding> findings) {
        List<String> said = new ArrayList<>();
        boolean anyUp = false;
        for (String name : needed) {
            Optional<LnetNets.Net> net = nets.net(name);
            if (net.isEmpty() || net.get().nis().isEmpty()) {
                findings.add(Finding.of(Status.FALSE, RDMA_NETWORK_DOWN, "the LNet network " + name + " is needed (by "
                        + "the mounts' server NIDs or lustre.networks) but `lnetctl net show` lists "
                        + (nets.names().isEmpty() ? "no network" : "only " + String.join(", ", nets.names())) + ": this client "
                        + "has no RDMA path to those servers" + (facts.sysVisible() && !facts.ko2iblnd() ? ", and the o2ib "
                        + "LND is not loaded (" + KO2IBLND + " is absent): `modprobe ko2iblnd`" : "") + ". Add it: `lnetctl "
                        + "net add --net " + name + " --if <ib netdev>` (and in /etc/lnet.conf or the lnet networks= option "
                        + "so it survives a reboot)", name + " not configured"));
                continue;
            }
            List<LnetNets.Ni> down = net.get().nis().stream().filter(n -> !n.up()).toList();
            anyUp |= down.size() < net.get().nis().size();
            if (!down.isEmpty()) {
                findings.add(Finding.of(Status.FALSE, RDMA_NETWORK_DOWN, "the LNet network " + name + " has " + down.size()
                        + " of its " + net.get().nis().size() + " local NI(s) down ("
                        + String.join(", ", down.stream().map(LustreLnetCheck::showNi).toList()) + ")"
                        + (down.size() == net.get().nis().size() ? ": no RDMA path is left on it" : ": LNet sends over the "
                        + "others only") + ". Check the interfaces (`ip link`, `ibstat`) and `lnetctl net show -v 3 --net "
                        + name + "`; once the link is back, LNet's recovery brings the NI up", name + " NI down"));
            }
            for (LnetNets.Ni ni : net.get().nis()) {
                if (ni.health().isPresent() && ni.health().getAsInt() < minHealth) {
                    findings.add(Finding.of(Status.FALSE, HEALTH_DEGRADED, "the local NI " + showNi(ni) + " has LNet "
                            + "health value " + ni.health().getAsInt() + " (below " + minHealth + "; 1000 means no failure): "
                            + "LNet has seen send failures on it and routes traffic around it. Look at its `health stats` "
                            + "(timeouts, drops) in `lnetctl net show -v 3`, the port's errors, and the route setup of "
                            + "multi-NIC hosts (net.ipv4.conf.all.accept_local, per-interface routing)", ni.nid() + " health "
                            + ni.health().getAsInt()));
                }
            }
            OptionalHealth low = OptionalHealth.of(net.get().nis());
            said.add(name + " (" + (net.get().nis().size() - down.size()) + " NI(s) up" + low.text() + ")");
        }
        if (anyUp && facts.sysVisible() && !facts.ko2iblnd()) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, "`lnetctl net show` has o2ib NIs up but "
                    + KO2IBLND + " is absent: the RDMA LND cannot be both unloaded and carrying these NIs on this host. Run "
                    + "`lsmod | grep ko2iblnd` and `lnetctl net show` on the node itself", "lnetctl and /sys/module disagree"));
        }
        return "networks " + String.join(", ", said);
    }

    /** The lowest health value of some NIs, for the True message. */
    private record OptionalHealth(java.util.OptionalInt lowest) {
        static OptionalHealth of(List<LnetNets.Ni> nis) {
            return new OptionalHealth(nis.stream().filter(n -> n.health().isPresent()).mapToInt(n -> n.health().getAsInt()).min());
        }

        String text() {
            return lowest.isPresent() ? ", lowest health " + lowest.getAsInt() : ", health not shown by this lnetctl";
        }
    }

    /** Every peer has an o2ib NID that is not down, with health; what True says of them. */
    /** @param parsed peer show's list, parsed once by the judge (empty when it failed or is not a peer list) */
    private static String judgePeers(ToolResult result, Optional<LnetPeers> parsed, int minHealth, Set<LnetNid> configurationOnly,
                                     Details details, List<Finding> findings) {
        if (!result.succeeded()) {
            findings.add(ToolFindings.cannotTell(result, false, "Without the peer list, a server reached over TCP cannot "
                    + "be seen: run `lnetctl peer show -v 3` on the node"));
            return "";
        }
        if (parsed.isEmpty()) {
            findings.add(ToolFindings.unparseable(result, "lnetctl's YAML list of peers (peer: - primary nid: ...)"));
            return "";
        }
        List<String> onTcp = new ArrayList<>();
        int rdmaPeers = 0;
        for (LnetPeers.Peer peer : parsed.get().peers()) {
            List<LnetPeers.PeerNi> o2ib = peer.nis().stream().filter(n -> n.nid().rdma()).toList();
            List<LnetPeers.PeerNi> others = peer.nis().stream().filter(n -> !n.nid().rdma() && !n.nid().loopback()).toList();
            if (peer.primaryNid().loopback()) {
                continue;
            }
            if (o2ib.isEmpty() && !others.isEmpty() && others.stream().allMatch(n -> configurationOnly.contains(n.nid()))) {
                continue;   // an MGS on a management network: the mounts' judgement names it, it carries no file data
            }
            boolean o2ibAllDown = !o2ib.isEmpty() && o2ib.stream().allMatch(LnetPeers.PeerNi::down);
            if (o2ib.isEmpty() || o2ibAllDown && others.stream().anyMatch(n -> !n.down())) {
                onTcp.add(peer.primaryNid().toString());
                findings.add(Finding.of(Status.FALSE, PEER_ON_TCP, "the LNet peer " + peer.primaryNid() + " is reachable "
                        + (o2ib.isEmpty() ? "only by " + String.join(", ", others.stream().map(n -> n.nid().toString()).toList())
                        + " (no o2ib NID)" : "by o2ib NID(s) that are all down (" + String.join(", ", o2ib.stream()
                        .map(n -> n.nid().toString()).toList()) + ") and by " + String.join(", ", others.stream()
                        .filter(n -> !n.down()).map(n -> n.nid() + " " + n.state()).toList())) + ": LNet talks to it over "
                        + "TCP (the silent fallback). Give the server an o2ib NID on a network this client has (`lnetctl "
                        + "peer show -v 3 --nid " + peer.primaryNid() + "` on the client, `lnetctl net show` on the server), "
                        + "then `lnetctl discover " + peer.primaryNid() + "`", peer.primaryNid() + " on tcp"));
                continue;
            }
            if (o2ibAllDown) {
                findings.add(Finding.of(Status.FALSE, HEALTH_DEGRADED, "every o2ib NID of the LNet peer " + peer.primaryNid()
                        + " is down (" + String.join(", ", o2ib.stream().map(n -> n.nid().toString()).toList()) + "): LNet "
                        + "cannot reach it over RDMA. Check the server's o2ib NIs and the fabric between them; `lnetctl "
                        + "discover " + peer.primaryNid() + "`", peer.primaryNid() + " o2ib down"));
                continue;
            }
            rdmaPeers++;
            for (LnetPeers.PeerNi ni : o2ib) {
                if (ni.health().isPresent() && ni.health().getAsInt() < minHealth) {
                    findings.add(Finding.of(Status.FALSE, HEALTH_DEGRADED, "the peer NI " + ni.nid() + " (peer "
                            + peer.primaryNid() + ") has LNet health value " + ni.health().getAsInt() + " (below " + minHealth
                            + "): sends to it have failed, and LNet prefers its other NIDs. Look at its `health stats` in "
                            + "`lnetctl peer show -v 3 --nid " + peer.primaryNid() + "`", ni.nid() + " health "
                            + ni.health().getAsInt()));
                }
            }
        }
        details.list("peersOnTcp", onTcp.stream().limit(NAMED).toList());
        return "; " + rdmaPeers + " peer(s) with an o2ib NID up";
    }

    private static String showNi(LnetNets.Ni ni) {
        return ni.nid() + (ni.interfaces().isEmpty() ? "" : " on " + String.join("+", ni.interfaces())) + " " + ni.status()
                + (ni.health().isPresent() ? " health " + ni.health().getAsInt() : "");
    }
}
