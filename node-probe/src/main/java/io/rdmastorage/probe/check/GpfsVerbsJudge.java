package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GpfsVerbs.*;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ByteQuantity;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.probe.check.GpfsVerbsCheck.Facts;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.GpfsClusterNode;
import io.rdmastorage.probe.parse.GpfsConfig;
import io.rdmastorage.probe.parse.GpfsNodeState;
import io.rdmastorage.probe.parse.MmdiagNetwork;
import io.rdmastorage.probe.parse.MmfsLogVerbsErrors;
import io.rdmastorage.probe.parse.VerbsConnections;
import io.rdmastorage.probe.parse.VerbsStatus;
import io.rdmastorage.probe.ports.PortView;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** GpfsVerbsCheck's rules, applied to one node's facts: the problems found and the facts shown. */
final class GpfsVerbsJudge {
    private static final int LOG_LINES_SHOWN = 2;
    private static final int LOG_LINE_MAX_CHARS = 200;
    private static final int PEERS_NAMED = 5;

    private final Facts facts;
    private final ProbeSpec.Gpfs spec;
    private final boolean required;
    private final Details details = new Details();
    private final List<Finding> findings = new ArrayList<>();
    private String gpfsNode;
    private int peersConnected;
    private int peersOverRdma;

    GpfsVerbsJudge(Facts facts, ProbeSpec.Gpfs section) {
        this.facts = facts;
        this.required = section != null;
        this.spec = required ? section : GpfsVerbsCheck.NOTHING_REQUIRED;
    }

    Judgement judgement() {
        ToolResult stateRun = facts.state();
        if (!stateRun.succeeded()) {
            return Judgement.only(ToolFindings.cannotTell(stateRun, required, stateRun.ending() == ToolResult.Ending.NOT_FOUND
                    ? "IBM Storage Scale (GPFS) is not installed here: install it, name a non-standard install with "
                            + "--tool mmgetstate=PATH, or keep this node out of the profile with its nodeSelector"
                    : "Run `/usr/lpp/mmfs/bin/mmgetstate -Y` on the node to see why"), details);
        }
        Optional<GpfsNodeState> state = GpfsVerbsCheck.localState(stateRun);
        if (state.isEmpty()) {
            return Judgement.only(ToolFindings.unparseable(stateRun, "mmgetstate -Y output with a node state"), details);
        }
        GpfsNodeState local = state.get();
        gpfsNode = local.nodeName();
        details.put("gpfsNode", gpfsNode).put("state", local.state());
        if (!local.active()) {
            // mmdiag and mmfsadm ask the daemon: without an active daemon they fail or hang, so they were not asked
            return Judgement.only(Finding.of(Status.FALSE, GPFS_NOT_RUNNING, "GPFS is '" + local.state() + "' on " + gpfsNode
                    + ", not active, so nothing is served over RDMA. Start it with `mmstartup -N " + gpfsNode
                    + "`; if it does not become active (`mmgetstate -N " + gpfsNode + "`), read " + GpfsVerbsCheck.LOG), details);
        }
        Optional<GpfsConfig> config = effectiveConfig(asked(facts.config(), "mmdiag --config -Y"));
        Optional<Boolean> verbsRdma = config.flatMap(this::verbsRdma);
        config.ifPresent(this::compareVerbsPorts);
        if (verbsRdma.orElse(true) && verbsStarted(verbsRdma.isPresent())) {
            comparePeers();
        }
        config.ifPresent(this::compareVerbsRdmaSend);
        config.ifPresent(this::compareVerbsRdmaCm);
        config.ifPresent(this::comparePagepool);
        String logNote = logNote();
        return Judgement.of(findings, Finding.passed(RDMA_IN_USE, "GPFS on " + gpfsNode + " uses RDMA: verbsRdma enabled, "
                + "verbs started, " + peersSummary() + "."), details).withNote(logNote);
    }

    private Optional<GpfsConfig> effectiveConfig(ToolResult run) {
        if (!run.succeeded()) {
            findings.add(daemonFailed(run,
                    "Run `mmdiag --config` on the node; it needs a responsive GPFS daemon (`mmdiag --waiters`)"));
            return Optional.empty();
        }
        Optional<GpfsConfig> parsed = GpfsVerbsCheck.parsedConfig(run);
        if (parsed.isEmpty()) {
            findings.add(ToolFindings.unparseable(run, "mmdiag -Y configuration records"));
            return Optional.empty();
        }
        GpfsConfig config = parsed.get();
        if (config.flag("verbsRdma").isEmpty()) {
            findings.add(ToolFindings.unparseable(run, "a configuration listing verbsRdma enable or disable"));
        }
        details.put("verbsRdma", config.value("verbsRdma").orElse(null))
                .put("verbsPorts", config.value("verbsPorts").orElse(""));
        config.pagepoolBytes().ifPresent(bytes -> details.put("pagepool", ByteQuantity.format(bytes)));
        return Optional.of(config);
    }
    private Optional<Boolean> verbsRdma(GpfsConfig config) {
        Optional<Boolean> enabled = config.flag("verbsRdma");
        if (enabled.isPresent() && !enabled.get()) {
            fail(VERBS_RDMA_DISABLED, "effective verbsRdma is '" + config.value("verbsRdma").orElse("")
                    + "' on " + gpfsNode + ", so GPFS moves all data over TCP. Run `mmchconfig verbsRdma=enable"
                    + verbsPortsHint(config) + " -N " + gpfsNode + "`, then " + restart(gpfsNode));
        }
        return enabled;
    }

    private String verbsPortsHint(GpfsConfig config) {
        return config.verbsPorts().isEmpty() && !spec.verbsPorts().isEmpty()
                ? " verbsPorts=\"" + String.join(" ", spec.verbsPorts()) + "\"" : "";
    }

    private void compareVerbsPorts(GpfsConfig config) {
        if (spec.verbsPorts().isEmpty()) {
            return;
        }
        Set<String> expected = new LinkedHashSet<>();
        spec.verbsPorts().forEach(p -> expected.add(DevicePort.parse(p).toString()));
        Set<String> actual = new LinkedHashSet<>(config.verbsPorts());
        if (expected.equals(actual)) {
            return;
        }
        List<String> missing = expected.stream().filter(p -> !actual.contains(p)).toList();
        List<String> unexpected = actual.stream().filter(p -> !expected.contains(p)).toList();
        String effective = config.value("verbsPorts").filter(v -> !v.isBlank()).map(v -> "'" + v + "'").orElse("not set");
        fail(VERBS_PORTS_MISMATCH, "effective verbsPorts on " + gpfsNode + " is " + effective
                + " but the profile expects '" + String.join(" ", spec.verbsPorts()) + "'"
                + (missing.isEmpty() ? "" : "; missing " + String.join(", ", missing))
                + (unexpected.isEmpty() ? "" : "; not expected " + String.join(", ", unexpected))
                + ". Run `mmchconfig verbsPorts=\"" + String.join(" ", spec.verbsPorts()) + "\" -N " + gpfsNode
                + "`, then " + restart(gpfsNode));
    }

    /** Whether the verbs layer runs; {@code configKnown} says whether verbsRdma was read as enabled. */
    private boolean verbsStarted(boolean configKnown) {
        ToolResult run = asked(facts.verbsStatus(), "mmfsadm test verbs status");
        if (!run.succeeded()) {
            findings.add(daemonFailed(run,
                    "Run `mmfsadm test verbs status` on the node; if it hangs, the daemon is busy or hung "
                            + "(`mmdiag --waiters`)"));
            return false;
        }
        VerbsStatus status = VerbsStatus.parse(run.stdout());
        if (!status.recognized()) {
            findings.add(ToolFindings.unparseable(run, "a 'VERBS RDMA status:' line"));
            return false;
        }
        details.put("verbsStatus", status.state().get());
        if (status.started()) {
            return true;
        }
        if (status.disabled()) {
            fail(VERBS_RDMA_DISABLED, "`mmfsadm test verbs status` says disabled on " + gpfsNode
                    + (configKnown ? " although the effective verbsRdma is enable" : "")
                    + ", so GPFS moves all data over TCP. " + (configKnown
                    ? "The daemon has not picked the setting up: " + restart(gpfsNode)
                    : "Run `mmchconfig verbsRdma=enable -N " + gpfsNode + "`, then " + restart(gpfsNode)));
            return false;
        }
        fail(VERBS_RDMA_NOT_STARTED, "verbsRdma is enabled but `mmfsadm test verbs status` says '"
                + status.state().get() + "' on " + gpfsNode + ": none of its verbsPorts could be opened, so all "
                + "data goes over TCP. Check that the ports are ACTIVE (`ibstat`), read the VERBS RDMA lines of "
                + GpfsVerbsCheck.LOG + ", then " + restart(gpfsNode));
        return false;
    }

    private void comparePeers() {
        List<MmdiagNetwork.TcpConnection> connected = connectedPeers();
        List<String> requiredPeers = GpfsVerbsCheck.requiredPeers(spec, gpfsNode);
        if (connected.isEmpty() && requiredPeers.isEmpty()) {
            return;
        }
        ToolResult run = asked(facts.verbsConn(), "mmfsadm test verbs conn");
        if (!run.succeeded()) {
            findings.add(daemonFailed(run,
                    "Run `mmfsadm test verbs conn` on the node to list its RDMA connections"));
            return;
        }
        VerbsConnections verbs = VerbsConnections.parse(run.stdout());
        List<GpfsClusterNode> cluster = facts.cluster();
        List<String> onTcp = new ArrayList<>();
        int overRdma = 0;
        for (MmdiagNetwork.TcpConnection peer : connected) {
            Optional<GpfsClusterNode> node = member(cluster, peer.hostname()).or(() -> member(cluster, peer.destination()));
            if (verbs.mentionsAny(identities(node, peer.hostname(), peer.destination()))) {
                overRdma++;
            } else {
                onTcp.add(node.map(GpfsClusterNode::daemonNodeName)
                        .orElse(peer.hostname().isEmpty() ? peer.destination() : peer.hostname()));
            }
        }
        List<String> requiredMissing = new ArrayList<>();
        List<String> requiredUnmatched = new ArrayList<>();
        for (String peer : requiredPeers) {
            Optional<GpfsClusterNode> node = member(cluster, peer);
            String name = node.map(GpfsClusterNode::daemonNodeName).orElse(peer);
            // mmdiag --network pairs a connected peer's name with its address: an identity of its own
            String[] known = connected.stream().filter(c -> VerbsConnections.sameHost(c.hostname(), peer))
                    .map(MmdiagNetwork.TcpConnection::destination).toArray(String[]::new);
            List<String> ids = identities(node, peer);
            ids.addAll(List.of(known));
            if (!verbs.mentionsAny(ids) && onTcp.stream().noneMatch(p -> VerbsConnections.sameHost(p, name))) {
                // without the member list a peer the spec names one way may be listed under its address
                (facts.membersUnknown() ? requiredUnmatched : requiredMissing).add(name);
            }
        }
        if (!requiredUnmatched.isEmpty()) {
            findings.add(membersUnknown(requiredUnmatched));
        }
        peersConnected = connected.size();
        peersOverRdma = overRdma;
        details.put("peersConnected", connected.size()).put("peersOverRdma", overRdma);
        if (!onTcp.isEmpty()) {
            details.list("peersOnTcp", onTcp);
        }
        if (!requiredMissing.isEmpty()) {
            details.list("requiredPeersWithoutRdma", requiredMissing);
        }
        if (onTcp.isEmpty() && requiredMissing.isEmpty()) {
            return;
        }
        List<String> affected = new ArrayList<>(onTcp);
        affected.addAll(requiredMissing);
        String reconnect = String.join(",", affected.subList(0, Math.min(PEERS_NAMED, affected.size())));
        StringBuilder message = new StringBuilder("GPFS on ").append(gpfsNode);
        if (!onTcp.isEmpty()) {
            message.append(" talks to ").append(named(onTcp)).append(" over TCP: connected in `mmdiag --network` but "
                    + "absent from `mmfsadm test verbs conn` (silent TCP fallback)");
        }
        if (!requiredMissing.isEmpty()) {
            message.append(onTcp.isEmpty() ? " has" : "; and has").append(" no RDMA connection to required peer")
                    .append(requiredMissing.size() > 1 ? "s " : " ").append(named(requiredMissing));
        }
        message.append(". On both sides check `mmlsconfig verbsRdma verbsPorts`, that the ports are ACTIVE on one "
                + "fabric (`ibstat`) and the VERBS RDMA lines of ").append(GpfsVerbsCheck.LOG)
                .append("; once fixed, reconnect with `mmshutdown -N ").append(reconnect)
                .append(" && mmstartup -N ").append(reconnect).append('`');
        fail(TCP_FALLBACK, message.toString());
    }

    private List<MmdiagNetwork.TcpConnection> connectedPeers() {
        ToolResult run = asked(facts.network(), "mmdiag --network");
        if (!run.succeeded()) {
            findings.add(daemonFailed(run,
                    "Run `mmdiag --network` on the node to list the peers it is connected to"));
            return List.of();
        }
        MmdiagNetwork network = MmdiagNetwork.parse(run.stdout());
        if (!network.recognized()) {
            findings.add(ToolFindings.unparseable(run, "mmdiag --network output with a TCP connection table"));
            return List.of();
        }
        return network.connectedPeers();
    }

    private void compareVerbsRdmaSend(GpfsConfig config) {
        if (spec.requireVerbsRdmaSend() && !config.flag("verbsRdmaSend").orElse(false)) {
            fail(VERBS_RDMA_SEND_DISABLED, "the profile requires verbsRdmaSend but its effective value on " + gpfsNode
                    + " is " + config.value("verbsRdmaSend").map(v -> "'" + v + "'").orElse("not set")
                    + ". Run `mmchconfig verbsRdmaSend=yes -N " + gpfsNode + "`, then " + restart(gpfsNode));
        }
    }

    /** GPFS connects RoCE ports only through RDMA CM: with verbsRdmaCm off, verbs never come up on Ethernet. */
    private void compareVerbsRdmaCm(GpfsConfig config) {
        details.put("verbsRdmaCm", config.value("verbsRdmaCm").orElse(null))
                .put("verbsRdmaSend", config.value("verbsRdmaSend").orElse(null));
        List<String> roce = facts.linkLayers().entrySet().stream()
                .filter(e -> e.getValue().equalsIgnoreCase("Ethernet")).map(Map.Entry::getKey).toList();
        if (config.flag("verbsRdmaCm").orElse(true)) {
            return;
        }
        if (!roce.isEmpty()) {
            fail(VERBS_RDMA_CM_DISABLED, "verbsPorts " + String.join(", ", roce) + " on " + gpfsNode + " are RoCE "
                    + "(link layer Ethernet) but the effective verbsRdmaCm is '" + config.value("verbsRdmaCm").orElse("")
                    + "': GPFS needs RDMA CM to connect over Ethernet, so these ports carry no RDMA. Run "
                    + "`mmchconfig verbsRdmaCm=enable -N " + gpfsNode + "`, then " + restart(gpfsNode));
            return;
        }
        // a port whose link layer sysfs does not show is not an InfiniBand port: only a verbs connection proves it works
        List<String> unknown = config.verbsPorts().stream()
                .filter(p -> Rules.DEVICE_PORT.matcher(p).matches() && !facts.linkLayers().containsKey(p)).toList();
        if (!unknown.isEmpty() && peersOverRdma == 0) {
            findings.add(Finding.of(Status.UNKNOWN, LINK_LAYER_UNKNOWN, "the effective verbsRdmaCm on " + gpfsNode
                    + " is '" + config.value("verbsRdmaCm").orElse("") + "' and the link layer of verbsPorts "
                    + String.join(", ", unknown) + " cannot be read (no " + PortView.IB_CLASS + "/<device>/ports/<port>"
                    + "/link_layer), while no peer is connected over RDMA to show they work: if they are RoCE, GPFS "
                    + "cannot connect over them without RDMA CM. Check `ibv_devinfo` (link_layer) on the node and the "
                    + "probe's /sys mount; on RoCE run `mmchconfig verbsRdmaCm=enable -N " + gpfsNode + "`, then "
                    + restart(gpfsNode), "verbsPorts link layer unknown"));
        }
    }

    private void comparePagepool(GpfsConfig config) {
        long minimum = spec.minPagepoolBytes();
        if (minimum <= 0) {
            return;
        }
        OptionalLong pagepool = config.pagepoolBytes();
        if (pagepool.isEmpty()) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.OUTPUT_UNPARSEABLE,
                    "`mmdiag --config -Y` on " + gpfsNode + " shows no readable pagepool ("
                            + config.value("pagepool").orElse("absent") + "); run `mmdiag --config` by hand"));
        } else if (pagepool.getAsLong() < minimum) {
            fail(PAGEPOOL_TOO_SMALL, "effective pagepool on " + gpfsNode + " is " + ByteQuantity.format(pagepool.getAsLong())
                    + ", below the profile's minPagepool " + spec.minPagepool() + ". Run `mmchconfig pagepool="
                    + gpfsSize(minimum) + " -N " + gpfsNode + "`, then " + restart(gpfsNode));
        }
    }

    /** The day's VERBS RDMA errors: facts in the details, the latest in every verdict's message. */
    private String logNote() {
        List<MmfsLogVerbsErrors.Line> lines = facts.logErrors();
        if (lines.isEmpty()) {
            return "";
        }
        details.put("verbsErrors24h", lines.size()).put("recentVerbsErrors",
                lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()).stream()
                        .map(l -> clip(l.text()))
                        .toList());
        return " " + GpfsVerbsCheck.LOG + " has " + lines.size() + " VERBS RDMA error line(s) in the last 24h, latest: "
                + withoutTimestamp(lines.get(lines.size() - 1));
    }

    /**
     * A daemon command that could not answer. One that exited with an error contradicts mmgetstate's
     * "active" (an active daemon answers): the verdict depends on which is right, so it is Unknown
     * with both named; a hang or a missing tool is the tool's own finding.
     */
    private Finding daemonFailed(ToolResult run, String fix) {
        if (!run.ran()) {
            return ToolFindings.cannotTell(run, required, fix);
        }
        return Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, "`mmgetstate -Y` says GPFS is active on " + gpfsNode
                + ", but " + run.problem() + ": an active daemon answers it. Settle it on the node with `mmgetstate -N "
                + gpfsNode + "` and `mmdiag --waiters`, then run `" + run.command() + "` by hand; " + GpfsVerbsCheck.LOG
                + " says why the daemon does not answer", run.tool() + " failed although GPFS is active")
                .withDetail("command", run.command());
    }

    /**
     * Required peers that {@code mmfsadm test verbs conn} does not name, while {@code mmlscluster -Y} gave no
     * member list to know their other names and addresses by: whether they are connected over RDMA is unknown.
     */
    private Finding membersUnknown(List<String> peers) {
        ToolResult run = facts.members().orElseThrow();
        String unmatched = "required peer(s) " + named(peers) + " are not named in `mmfsadm test verbs conn`, which "
                + "may list them under another name or their daemon address; without the cluster's member list that "
                + "cannot be told";
        return run.succeeded()
                ? ToolFindings.unparseable(run, "mmlscluster -Y member records (" + unmatched + ")")
                : ToolFindings.cannotTell(run, false, unmatched.substring(0, 1).toUpperCase(Locale.ROOT)
                        + unmatched.substring(1) + ". Run `mmlscluster` on the node");
    }

    /** A tool whose answer the rules need was asked by {@link #gather}; facts without it are a bug. */
    private static ToolResult asked(Optional<ToolResult> run, String command) {
        return run.orElseThrow(() -> new IllegalStateException("the facts lack `" + command + "`, which these rules need"));
    }

    private String peersSummary() {
        return peersConnected == 0
                ? "no peer connections open yet, so no peer could be seen using RDMA"
                : "all " + peersConnected + " connected peer(s) over RDMA";
    }

    /** A problem of the running daemon's settings or connections: a sentence, ended. */
    private void fail(String reason, String message) {
        findings.add(Finding.of(Status.FALSE, reason, message + "."));
    }

    /** The cluster member a peer name or address stands for. */
    private static Optional<GpfsClusterNode> member(List<GpfsClusterNode> cluster, String id) {
        return cluster.stream()
                .filter(n -> VerbsConnections.sameHost(n.daemonNodeName(), id) || VerbsConnections.sameHost(n.adminNodeName(), id)
                        || n.ipAddress().equalsIgnoreCase(id))
                .findFirst();
    }

    /** Every name and address a peer may appear under in the verbs connection list. */
    private static List<String> identities(Optional<GpfsClusterNode> node, String... known) {
        List<String> ids = new ArrayList<>();
        for (String k : known) {
            if (!k.isEmpty()) {
                ids.add(k);
            }
        }
        node.ifPresent(n -> {
            ids.add(n.daemonNodeName());
            ids.add(n.ipAddress());
            ids.add(n.adminNodeName());
        });
        ids.removeIf(String::isEmpty);
        return ids;
    }

    /** The message part of a log line; its time is in the details. */
    private static String withoutTimestamp(MmfsLogVerbsErrors.Line line) {
        int colon = line.text().indexOf(": ");
        String text = colon < 0 ? line.text() : line.text().substring(colon + 2);
        return clip(text);
    }

    private static String clip(String text) {
        return text.length() > LOG_LINE_MAX_CHARS ? text.substring(0, LOG_LINE_MAX_CHARS) + "…" : text;
    }

    private static String named(List<String> peers) {
        return peers.size() <= PEERS_NAMED ? String.join(", ", peers)
                : String.join(", ", peers.subList(0, PEERS_NAMED)) + " and " + (peers.size() - PEERS_NAMED) + " more";
    }

    /** verbs settings are read when the daemon starts. */
    private static String restart(String node) {
        return "restart GPFS on the node: `mmshutdown -N " + node + " && mmstartup -N " + node + "`";
    }

    /** A size as mmchconfig takes it: GPFS's K/M/G suffixes are binary. */
    static String gpfsSize(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "G";
        }
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        return ((bytes + 1023) >> 10) + "K";
    }
}
