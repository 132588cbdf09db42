package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.LustreLnet.MOUNT_OVER_TCP;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.LnetNid;
import io.rdmastorage.probe.parse.LnetPeers;
import io.rdmastorage.probe.parse.LustreImports;
import io.rdmastorage.probe.parse.LustreImports.Import;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which LNet network carries a Lustre mount's metadata and file data. The mount's source names only
 * the MGS's NIDs: the MGS hands the client its configuration log and no file data, and real sites
 * often reach it on a tcp management network while the MDTs and OSTs are o2ib only. Each MDC and OSC
 * import says which NID its target is connected through ({@code current_connection}), so the
 * imports decide. A tcp NID of a Multi-Rail peer that also has an o2ib NID up is no evidence of TCP
 * (LNet picks the network per message). Without the imports the mount's NIDs decide only where they
 * can: o2ib NIDs, or tcp NIDs on a client that has no o2ib NI at all; an MGS on tcp beside o2ib NIs
 * is Unknown.
 */
final class LustreMountTransport {

    private static final int NAMED = 5;
    static final List<String> GET_IMPORTS = List.of("get_param", "mdc.*.import", "osc.*.import");

    /**
     * What one mount's judgement adds to the check's.
     *
     * @param finding  the problem, if its transport is not RDMA or cannot be told
     * @param passed   what True says of it
     * @param networks the o2ib networks its data uses (for the networks' judgement)
     */
    record Outcome(Optional<Finding> finding, String passed, Set<String> networks) {
    }

    private LustreMountTransport() {
    }

    /**
     * @param imports      the client's imports; empty when lctl did not answer or printed something else
     * @param lctl         lctl's run, for the message when the imports are missing
     * @param peers        LNet's peers, where lnetctl listed them
     * @param clientO2ib   whether the client has an o2ib NI up; empty when lnetctl's networks are unknown
     */
    static Outcome judge(String point, String device, Optional<LustreImports> imports, ToolResult lctl,
                         Optional<LnetPeers> peers, Optional<Boolean> clientO2ib) {
        List<LnetNid> mgs = LnetNid.ofMountDevice(device);
        String fs = LnetNid.fsname(device).orElse("");
        List<Import> data = imports.map(i -> i.of(fs)).orElse(List.of()).stream()
                .filter(i -> i.connected() && i.current().isPresent()).toList();
        if (!data.isEmpty()) {
            return byImports(point, device, mgs, data, peers);
        }
        List<LnetNid> rdma = mgs.stream().filter(LnetNid::rdma).toList();
        if (!rdma.isEmpty()) {
            return new Outcome(Optional.empty(), point + " (" + device + ")", networks(rdma));
        }
        String nets = String.join(", ", new TreeSet<>(mgs.stream().map(LnetNid::network).toList()));
        if (clientO2ib.isPresent() && !clientO2ib.get()) {
            return new Outcome(Optional.of(Finding.of(Status.FALSE, MOUNT_OVER_TCP, point + " (" + device + ") was mounted "
                    + "through " + nets + " NIDs only (" + String.join(", ", mgs.stream().map(LnetNid::toString).toList())
                    + ") and this client has no o2ib NI up: all its traffic goes over TCP (LNet's socklnd, port 988), not "
                    + "RDMA. Configure an o2ib network on the client (`lnetctl net add --net o2ib --if ib0`, or `options lnet "
                    + "networks=\"o2ib(ib0)\"`), then `umount " + point + "` and mount it again",
                    point + " on " + nets)), "", Set.of());
        }
        String mgsOnTcp = point + " (" + device + ") names only the MGS's " + nets + " NIDs, and the MGS carries no file "
                + "data: which network the metadata and object targets use is in the client's imports";
        if (!lctl.succeeded()) {
            return new Outcome(Optional.of(ToolFindings.cannotTell(lctl, false, mgsOnTcp + ", and they could not be read. "
                    + "Run `lctl get_param mdc.*.import osc.*.import` on the node (from Lustre 2.17 they are in debugfs: "
                    + "the probe needs the host's /sys/kernel/debug)")), "", Set.of());
        }
        if (imports.isEmpty()) {
            return new Outcome(Optional.of(ToolFindings.unparseable(lctl, "lctl's import blocks (import: name: ... "
                    + "connection: current_connection: ...)")), "", Set.of());
        }
        return new Outcome(Optional.of(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, mgsOnTcp + ", but `lctl "
                + String.join(" ", GET_IMPORTS) + "` lists no connected import of " + fs + " although it is mounted: run "
                + "it on the node itself and check `lctl dl`", point + ": no import of " + fs)), "", Set.of());
    }

    private static Outcome byImports(String point, String device, List<LnetNid> mgs, List<Import> data, Optional<LnetPeers> peers) {
        List<Import> overTcp = data.stream().filter(i -> !i.current().get().rdma() && !multiRailO2ib(i.current().get(), peers))
                .toList();
        String targets = data.size() + " target(s)";
        if (!overTcp.isEmpty()) {
            boolean o2ibConfigured = overTcp.stream().allMatch(i -> i.failover().stream().anyMatch(LnetNid::rdma));
            String fix = o2ibConfigured ? "Their o2ib NIDs are configured (" + String.join(", ", overTcp.stream()
                    .flatMap(i -> i.failover().stream().filter(LnetNid::rdma)).map(LnetNid::toString).distinct().toList())
                    + "): the imports fell back to a tcp NID when o2ib failed. Find why (`lnetctl ping <o2ib nid>`, the "
                    + "ports, the fabric), then reconnect them (`lctl --device <import name> recover`, or remount)"
                    : "The servers give these targets no o2ib NID: configure one (the targets' servicenode/failnode NIDs on "
                    + "an o2ib network), and an o2ib network on this client";
            return new Outcome(Optional.of(Finding.of(Status.FALSE, MOUNT_OVER_TCP, point + " (" + device + "): "
                    + overTcp.size() + " of its " + targets + " are connected through non-o2ib NIDs ("
                    + String.join(", ", overTcp.stream().limit(NAMED).map(Import::shown).toList())
                    + (overTcp.size() > NAMED ? ", …" : "") + "): their metadata and file data go over TCP (LNet's socklnd, "
                    + "port 988), not RDMA. " + fix, point + " " + overTcp.get(0).target() + " on "
                    + overTcp.get(0).current().get().network())), "", Set.of());
        }
        Set<String> used = networks(data.stream().map(i -> i.current().get()).filter(LnetNid::rdma).toList());
        boolean mgsOffRdma = !mgs.isEmpty() && mgs.stream().noneMatch(LnetNid::rdma);
        String mgsNote = mgsOffRdma ? "; its MGS " + String.join(", ", mgs.stream().map(LnetNid::toString).toList())
                + " is reached over " + String.join(", ", new TreeSet<>(mgs.stream().map(LnetNid::network).toList()))
                + ", which carries the configuration log, no file data" : "";
        return new Outcome(Optional.empty(), point + " (" + targets + " over " + String.join(", ", used) + mgsNote + ")", used);
    }

    /** A tcp NID of a Multi-Rail peer that also has an o2ib NID up: LNet may send over either. */
    private static boolean multiRailO2ib(LnetNid nid, Optional<LnetPeers> peers) {
        return peers.stream().flatMap(p -> p.peers().stream())
                .filter(p -> p.nis().stream().anyMatch(n -> n.nid().equals(nid)))
                .anyMatch(p -> p.nis().stream().anyMatch(n -> n.nid().rdma() && !n.down()));
    }

    private static Set<String> networks(List<LnetNid> nids) {
        Set<String> networks = new LinkedHashSet<>();
        nids.forEach(n -> networks.add(n.network()));
        return networks;
    }

    /**
     * The NIDs of the mounts' MGSs that are not o2ib and that no import uses: a peer with only these
     * NIDs is an MGS on a management network, not a server reached over TCP for file data.
     */
    static Set<LnetNid> configurationOnly(List<String> devices, Optional<LustreImports> imports) {
        Set<LnetNid> nids = new LinkedHashSet<>();
        devices.forEach(d -> LnetNid.ofMountDevice(d).stream().filter(n -> !n.rdma()).forEach(nids::add));
        imports.ifPresent(i -> i.imports().forEach(imp -> imp.current().ifPresent(nids::remove)));
        return nids;
    }
}
