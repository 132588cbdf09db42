package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GpfsVerbs.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ByteQuantity;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.GpfsClusterNode;
import io.rdmastorage.probe.parse.GpfsConfig;
import io.rdmastorage.probe.parse.GpfsNodeState;
import io.rdmastorage.probe.parse.GpfsYOutput;
import io.rdmastorage.probe.parse.MmdiagNetwork;
import io.rdmastorage.probe.parse.MmfsLogVerbsErrors;
import io.rdmastorage.probe.parse.VerbsConnections;
import io.rdmastorage.probe.parse.VerbsStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Is GPFS really moving data over RDMA? GPFS falls back to TCP without an error when a verbs
 * connection cannot be set up, so configuration alone proves nothing: besides the effective
 * {@code verbsRdma}/{@code verbsPorts} we ask the daemon which peers it has a verbs connection to
 * ({@code mmfsadm test verbs conn}) and compare them with the peers it is connected to at all
 * ({@code mmdiag --network}) and the peers the profile requires.
 *
 * <p>Every problem found is reported (the first, most fundamental one gives the reason); a tool
 * that cannot answer makes the verdict Unknown only when nothing definite is wrong.
 */
public final class GpfsVerbsCheck implements Check {

    static final String LOG = "/var/adm/ras/mmfs.log.latest";
    /** Recent = the last day; older errors were most likely dealt with. */
    private static final Duration LOG_WINDOW = Duration.ofHours(24);
    /** The end of the log is what is recent; a day of a busy daemon's log fits easily. */
    private static final int LOG_TAIL_BYTES = 2 * 1024 * 1024;
    private static final int LOG_LINES_SHOWN = 2;
    private static final int LOG_LINE_MAX_CHARS = 200;
    private static final int PEERS_NAMED = 5;
    private static final ProbeSpec.Gpfs NOTHING_REQUIRED = new ProbeSpec.Gpfs(null, null, null, null);

    @Override
    public CheckType type() {
        return CheckType.GPFS_VERBS;
    }

    /** With a gpfs section always (a node without GPFS then fails); without a spec where GPFS is installed. */
    @Override
    public boolean applies(ProbeContext context) {
        if (context.spec().gpfs() != null) {
            return true;
        }
        return context.discovery()
                && (context.tools().locate("mmfsadm").isPresent() || context.tools().locate("mmdiag").isPresent());
    }

    @Override
    public CheckResult run(ProbeContext context) {
        return new Run(context).verdict();
    }

    /** One probe of one node: the facts gathered so far and the problems found. */
    private final class Run {
        private final ProbeContext context;
        private final ToolRunner tools;
        private final ProbeSpec.Gpfs spec;
        private final boolean required;
        private final CheckResult.Builder result = CheckResult.builder(type());
        private final List<CheckResult> failures = new ArrayList<>();
        private final List<CheckResult> unknowns = new ArrayList<>();
        private String gpfsNode;
        private int peersConnected;

        Run(ProbeContext context) {
            this.context = context;
            this.tools = context.tools();
            this.required = context.spec().gpfs() != null;
            this.spec = required ? context.spec().gpfs() : NOTHING_REQUIRED;
        }

        CheckResult verdict() {
            ToolResult stateRun = tools.run("mmgetstate", "-Y");
            if (!stateRun.succeeded()) {
                return ToolVerdicts.cannotTell(type(), stateRun, required, stateRun.outcome() == ToolResult.Outcome.NOT_FOUND
                        ? "IBM Storage Scale (GPFS) is not installed here: install it, name a non-standard install with "
                                + "--tool mmgetstate=PATH, or keep this node out of the profile with its nodeSelector"
                        : "Run `/usr/lpp/mmfs/bin/mmgetstate -Y` on the node to see why").build();
            }
            List<GpfsNodeState> states = GpfsNodeState.from(GpfsYOutput.parse(stateRun.stdout()));
            if (states.isEmpty()) {
                return ToolVerdicts.unparseable(type(), stateRun, "mmgetstate -Y output with a node state").build();
            }
            GpfsNodeState local = states.get(0);
            gpfsNode = local.nodeName();
            result.detail("gpfsNode", gpfsNode).detail("state", local.state());
            if (!local.active()) {
                // mmdiag and mmfsadm ask the daemon: without an active daemon they fail or hang, so stop here
                return result.verdict(Status.FALSE, GPFS_NOT_RUNNING, "GPFS is '" + local.state() + "' on " + gpfsNode
                        + ", not active, so nothing is served over RDMA. Start it with `mmstartup -N " + gpfsNode
                        + "`; if it does not become active (`mmgetstate -N " + gpfsNode + "`), read " + LOG).build();
            }
            Optional<GpfsConfig> config = effectiveConfig();
            Optional<Boolean> verbsRdma = config.flatMap(this::verbsRdma);
            config.ifPresent(this::compareVerbsPorts);
            // with verbsRdma off there is no verbs layer to ask: every peer is on TCP by definition
            if (verbsRdma.orElse(true) && verbsStarted(verbsRdma.isPresent())) {
                comparePeers();
            }
            config.ifPresent(this::compareVerbsRdmaSend);
            config.ifPresent(this::comparePagepool);
            List<MmfsLogVerbsErrors.Line> logErrors = recentLogErrors();
            return decide(logErrors);
        }

        private Optional<GpfsConfig> effectiveConfig() {
            ToolResult run = tools.run("mmdiag", "--config", "-Y");
            if (!run.succeeded()) {
                unknowns.add(ToolVerdicts.cannotTell(type(), run, required,
                        "Run `mmdiag --config` on the node; it needs a responsive GPFS daemon (`mmdiag --waiters`)").build());
                return Optional.empty();
            }
            GpfsConfig config = GpfsConfig.from(GpfsYOutput.parse(run.stdout()));
            if (config.values().isEmpty()) {
                unknowns.add(ToolVerdicts.unparseable(type(), run, "mmdiag -Y configuration records").build());
                return Optional.empty();
            }
            if (config.flag("verbsRdma").isEmpty()) {
                unknowns.add(ToolVerdicts.unparseable(type(), run, "a configuration listing verbsRdma enable or disable")
                        .build());
            }
            result.detail("verbsRdma", config.value("verbsRdma").orElse(null))
                    .detail("verbsPorts", config.value("verbsPorts").orElse(""));
            config.pagepoolBytes().ifPresent(bytes -> result.detail("pagepool", ByteQuantity.format(bytes)));
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
            ToolResult run = tools.run("mmfsadm", "test", "verbs", "status");
            if (!run.succeeded()) {
                unknowns.add(ToolVerdicts.cannotTell(type(), run, required,
                        "Run `mmfsadm test verbs status` on the node; if it hangs, the daemon is busy or hung "
                                + "(`mmdiag --waiters`)").build());
                return false;
            }
            VerbsStatus status = VerbsStatus.parse(run.stdout());
            if (!status.recognized()) {
                unknowns.add(ToolVerdicts.unparseable(type(), run, "a 'VERBS RDMA status:' line").build());
                return false;
            }
            result.detail("verbsStatus", status.state().get());
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
                    + LOG + ", then " + restart(gpfsNode));
            return false;
        }

        private void comparePeers() {
            List<MmdiagNetwork.TcpConnection> connected = connectedPeers();
            List<String> requiredPeers = spec.requiredPeers().stream()
                    .filter(p -> !VerbsConnections.sameHost(p, gpfsNode)).toList();
            if (connected.isEmpty() && requiredPeers.isEmpty()) {
                return;
            }
            ToolResult run = tools.run("mmfsadm", "test", "verbs", "conn");
            if (!run.succeeded()) {
                unknowns.add(ToolVerdicts.cannotTell(type(), run, required,
                        "Run `mmfsadm test verbs conn` on the node to list its RDMA connections").build());
                return;
            }
            VerbsConnections verbs = VerbsConnections.parse(run.stdout());
            List<GpfsClusterNode> cluster = clusterNodes();
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
            for (String peer : requiredPeers) {
                Optional<GpfsClusterNode> node = member(cluster, peer);
                String name = node.map(GpfsClusterNode::daemonNodeName).orElse(peer);
                if (!verbs.mentionsAny(identities(node, peer)) && onTcp.stream().noneMatch(p -> VerbsConnections.sameHost(p, name))) {
                    requiredMissing.add(name);
                }
            }
            peersConnected = connected.size();
            result.detail("peersConnected", connected.size()).detail("peersOverRdma", overRdma);
            if (!onTcp.isEmpty()) {
                result.detailList("peersOnTcp", onTcp);
            }
            if (!requiredMissing.isEmpty()) {
                result.detailList("requiredPeersWithoutRdma", requiredMissing);
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
                    + "fabric (`ibstat`) and the VERBS RDMA lines of ").append(LOG)
                    .append("; once fixed, reconnect with `mmshutdown -N ").append(reconnect)
                    .append(" && mmstartup -N ").append(reconnect).append('`');
            fail(TCP_FALLBACK, message.toString());
        }

        private List<MmdiagNetwork.TcpConnection> connectedPeers() {
            ToolResult run = tools.run("mmdiag", "--network");
            if (!run.succeeded()) {
                unknowns.add(ToolVerdicts.cannotTell(type(), run, required,
                        "Run `mmdiag --network` on the node to list the peers it is connected to").build());
                return List.of();
            }
            MmdiagNetwork network = MmdiagNetwork.parse(run.stdout());
            if (!network.recognized()) {
                unknowns.add(ToolVerdicts.unparseable(type(), run, "mmdiag --network output with a TCP connection table")
                        .build());
                return List.of();
            }
            return network.connectedPeers();
        }

        /** The cluster's members, to know each peer under all its names; optional, matching works without. */
        private List<GpfsClusterNode> clusterNodes() {
            ToolResult run = tools.run("mmlscluster", "-Y");
            return run.succeeded() ? GpfsClusterNode.from(GpfsYOutput.parse(run.stdout())) : List.of();
        }

        private void compareVerbsRdmaSend(GpfsConfig config) {
            if (spec.requireVerbsRdmaSend() && !config.flag("verbsRdmaSend").orElse(false)) {
                fail(VERBS_RDMA_SEND_DISABLED, "the profile requires verbsRdmaSend but its effective value on " + gpfsNode
                        + " is " + config.value("verbsRdmaSend").map(v -> "'" + v + "'").orElse("not set")
                        + ". Run `mmchconfig verbsRdmaSend=yes -N " + gpfsNode + "`, then " + restart(gpfsNode));
            }
        }

        private void comparePagepool(GpfsConfig config) {
            long minimum = spec.minPagepoolBytes();
            if (minimum <= 0) {
                return;
            }
            OptionalLong pagepool = config.pagepoolBytes();
            if (pagepool.isEmpty()) {
                unknowns.add(CheckResult.builder(type()).verdict(Status.UNKNOWN, Reasons.OUTPUT_UNPARSEABLE,
                        "`mmdiag --config -Y` on " + gpfsNode + " shows no readable pagepool ("
                                + config.value("pagepool").orElse("absent") + "); run `mmdiag --config` by hand").build());
            } else if (pagepool.getAsLong() < minimum) {
                fail(PAGEPOOL_TOO_SMALL, "effective pagepool on " + gpfsNode + " is " + ByteQuantity.format(pagepool.getAsLong())
                        + ", below the profile's minPagepool " + spec.minPagepool() + ". Run `mmchconfig pagepool="
                        + gpfsSize(minimum) + " -N " + gpfsNode + "`, then " + restart(gpfsNode));
            }
        }

        private List<MmfsLogVerbsErrors.Line> recentLogErrors() {
            List<MmfsLogVerbsErrors.Line> lines = context.host().readTail(LOG, LOG_TAIL_BYTES)
                    .map(log -> MmfsLogVerbsErrors.recent(log, context.now(), LOG_WINDOW))
                    .orElse(List.of());
            if (!lines.isEmpty()) {
                result.detail("verbsErrors24h", lines.size()).detail("recentVerbsErrors",
                        lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()).stream()
                                .map(l -> clip(l.text()))
                                .toList());
            }
            return lines;
        }

        private CheckResult decide(List<MmfsLogVerbsErrors.Line> logErrors) {
            String logNote = logErrors.isEmpty() ? "" : " " + LOG + " has " + logErrors.size()
                    + " VERBS RDMA error line(s) in the last 24h, latest: " + withoutTimestamp(logErrors.get(logErrors.size() - 1));
            if (!failures.isEmpty()) {
                StringBuilder message = new StringBuilder(failures.get(0).message());
                for (CheckResult other : failures.subList(1, failures.size())) {
                    message.append(". Also ").append(other.reason()).append(": ").append(other.message());
                }
                if (failures.size() > 1 || !unknowns.isEmpty()) {
                    List<String> reasons = new ArrayList<>();
                    failures.forEach(f -> reasons.add(f.reason()));
                    unknowns.forEach(u -> reasons.add(u.reason()));
                    result.detailList("problems", reasons);
                }
                return result.verdict(Status.FALSE, failures.get(0).reason(), message + "." + logNote).build();
            }
            if (!unknowns.isEmpty()) {
                CheckResult first = unknowns.get(0);
                for (Map.Entry<String, Object> d : first.details().entrySet()) {
                    result.detail(d.getKey(), d.getValue());
                }
                return result.verdict(first.status(), first.reason(), first.message() + logNote).build();
            }
            return result.verdict(Status.TRUE, RDMA_IN_USE, "GPFS on " + gpfsNode + " uses RDMA: verbsRdma enabled, "
                    + "verbs started, " + peersSummary() + "." + logNote).build();
        }

        private String peersSummary() {
            return peersConnected == 0
                    ? "no peer connections open yet, so no peer could be seen using RDMA"
                    : "all " + peersConnected + " connected peer(s) over RDMA";
        }

        private void fail(String reason, String message) {
            failures.add(CheckResult.builder(type()).verdict(Status.FALSE, reason, message).build());
        }
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
