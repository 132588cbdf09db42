package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GpfsVerbs.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.GpfsClusterNode;
import io.rdmastorage.probe.parse.GpfsConfig;
import io.rdmastorage.probe.parse.GpfsNodeState;
import io.rdmastorage.probe.parse.GpfsYOutput;
import io.rdmastorage.probe.parse.MmdiagNetwork;
import io.rdmastorage.probe.parse.MmdiagVersion;
import io.rdmastorage.probe.parse.MmfsLogVerbsErrors;
import io.rdmastorage.probe.parse.VerbsConnections;
import io.rdmastorage.probe.parse.VerbsStatus;
import io.rdmastorage.probe.ports.RdmaPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
public final class GpfsVerbsCheck extends FactsCheck<GpfsVerbsCheck.Facts> {

    static final String LOG = "/var/adm/ras/mmfs.log.latest";
    /** Recent = the last day; older errors were most likely dealt with. */
    private static final Duration LOG_WINDOW = Duration.ofHours(24);
    /** The end of the log is what is recent; a day of a busy daemon's log fits easily. */
    private static final int LOG_TAIL_BYTES = 2 * 1024 * 1024;
    static final ProbeSpec.Gpfs NOTHING_REQUIRED = new ProbeSpec.Gpfs(null, null, null, null);

    /**
     * What GPFS told us. A tool is asked only when the answers before it make its answer matter
     * (and the daemon can give it: mmdiag and mmfsadm hang while it is down), so later ones may be empty.
     *
     * @param state       {@code mmgetstate -Y}
     * @param config      {@code mmdiag --config -Y}, asked once GPFS is active
     * @param verbsStatus {@code mmfsadm test verbs status}, asked unless verbsRdma is known to be disabled
     * @param network     {@code mmdiag --network}, asked once verbs are started
     * @param verbsConn   {@code mmfsadm test verbs conn}, asked when there are peers to look for
     * @param cluster     {@code mmlscluster -Y}'s members, to know each peer under all its names
     * @param logErrors   VERBS RDMA error lines of the last day in mmfs.log.latest
     * @param linkLayers  sysfs {@code link_layer} of each effective verbsPort that has one ("Ethernet" = RoCE); a
     *                    verbsPort missing here is of an unknown kind, not an InfiniBand port
     * @param version     {@code mmdiag --version}, asked once GPFS is active (for the inventory only)
     * @param members     the {@code mmlscluster -Y} run {@code cluster} came from, when it was asked; a run
     *                    that gave no member (every cluster has this node) leaves the peers' other names unknown
     */
    public record Facts(ToolResult state, Optional<ToolResult> config, Optional<ToolResult> verbsStatus,
                        Optional<ToolResult> network, Optional<ToolResult> verbsConn, List<GpfsClusterNode> cluster,
                        List<MmfsLogVerbsErrors.Line> logErrors, Map<String, String> linkLayers,
                        Optional<ToolResult> version, Optional<ToolResult> members) {

        /** Without the member list's run: the cluster as given. */
        public Facts(ToolResult state, Optional<ToolResult> config, Optional<ToolResult> verbsStatus,
                     Optional<ToolResult> network, Optional<ToolResult> verbsConn, List<GpfsClusterNode> cluster,
                     List<MmfsLogVerbsErrors.Line> logErrors, Map<String, String> linkLayers, Optional<ToolResult> version) {
            this(state, config, verbsStatus, network, verbsConn, cluster, logErrors, linkLayers, version, Optional.empty());
        }

        /** The member list was asked and gave none: the peers are known only by the names the spec and mmdiag use. */
        boolean membersUnknown() {
            return members.isPresent() && cluster.isEmpty();
        }

        /** Without the daemon's version. */
        public Facts(ToolResult state, Optional<ToolResult> config, Optional<ToolResult> verbsStatus,
                     Optional<ToolResult> network, Optional<ToolResult> verbsConn, List<GpfsClusterNode> cluster,
                     List<MmfsLogVerbsErrors.Line> logErrors, Map<String, String> linkLayers) {
            this(state, config, verbsStatus, network, verbsConn, cluster, logErrors, linkLayers, Optional.empty());
        }

        /** Without link layers: ports whose kind sysfs does not show. */
        public Facts(ToolResult state, Optional<ToolResult> config, Optional<ToolResult> verbsStatus,
                     Optional<ToolResult> network, Optional<ToolResult> verbsConn, List<GpfsClusterNode> cluster,
                     List<MmfsLogVerbsErrors.Line> logErrors) {
            this(state, config, verbsStatus, network, verbsConn, cluster, logErrors, Map.of());
        }
    }

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
    protected Facts gather(ProbeContext context) {
        ToolRunner tools = context.tools();
        ToolResult state = tools.run("mmgetstate", "-Y");
        Optional<GpfsNodeState> local = localState(state);
        if (local.isEmpty() || !local.get().active()) {
            return new Facts(state, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), List.of());
        }
        ToolResult config = tools.run("mmdiag", "--config", "-Y");
        Optional<ToolResult> verbsStatus = Optional.empty();
        Optional<ToolResult> network = Optional.empty();
        Optional<ToolResult> verbsConn = Optional.empty();
        List<GpfsClusterNode> cluster = List.of();
        Optional<ToolResult> members = Optional.empty();
        // with verbsRdma off there is no verbs layer to ask: every peer is on TCP by definition
        if (parsedConfig(config).flatMap(c -> c.flag("verbsRdma")).orElse(true)) {
            verbsStatus = Optional.of(tools.run("mmfsadm", "test", "verbs", "status"));
            if (verbsStatus.filter(ToolResult::succeeded).map(r -> VerbsStatus.parse(r.stdout()).started()).orElse(false)) {
                network = Optional.of(tools.run("mmdiag", "--network"));
                ProbeSpec.Gpfs spec = context.spec().gpfs() != null ? context.spec().gpfs() : NOTHING_REQUIRED;
                if (!connectedPeers(network.get()).isEmpty() || !requiredPeers(spec, local.get().nodeName()).isEmpty()) {
                    verbsConn = Optional.of(tools.run("mmfsadm", "test", "verbs", "conn"));
                    if (verbsConn.get().succeeded()) {
                        members = Optional.of(tools.run("mmlscluster", "-Y"));
                        cluster = members.get().succeeded()
                                ? GpfsClusterNode.from(GpfsYOutput.parse(members.get().stdout())) : List.of();
                    }
                }
            }
        }
        List<MmfsLogVerbsErrors.Line> logErrors = context.host().readTail(LOG, LOG_TAIL_BYTES)
                .map(log -> MmfsLogVerbsErrors.recent(log, context.now(), LOG_WINDOW))
                .orElse(List.of());
        Map<String, String> linkLayers = new LinkedHashMap<>();
        for (String port : parsedConfig(config).map(GpfsConfig::verbsPorts).orElse(List.of())) {
            if (Rules.DEVICE_PORT.matcher(port).matches()) {
                DevicePort p = DevicePort.parse(port);
                context.allPorts().port(p).flatMap(RdmaPort::linkLayer).ifPresent(layer -> linkLayers.put(port, layer));
            }
        }
        return new Facts(state, Optional.of(config), verbsStatus, network, verbsConn, cluster, logErrors, linkLayers,
                Optional.of(tools.run("mmdiag", "--version")), members);
    }

    /** Settings of the verbs layer that must agree across a cluster; verbsPorts may differ by node. */
    static final List<String> FLEET_SETTINGS = List.of("verbsRdma", "verbsRdmaCm", "verbsRdmaSend");

    /**
     * The running daemon's build and its effective verbs settings; GPFS not installed when its
     * state tool is not found. A daemon that is down tells neither (mmdiag would hang).
     */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (facts.state().ending() == ToolResult.Ending.NOT_FOUND) {
            into.notInstalled(InventoryFact.GPFS_VERSION);
            return;
        }
        facts.version().filter(ToolResult::succeeded).flatMap(v -> MmdiagVersion.build(v.stdout()))
                .ifPresent(v -> into.put(InventoryFact.GPFS_VERSION, v));
        facts.config().flatMap(GpfsVerbsCheck::parsedConfig).ifPresent(config -> {
            List<String> settings = new ArrayList<>();
            for (String name : FLEET_SETTINGS) {
                config.value(name).ifPresent(v -> settings.add(name + " " + v));
            }
            into.put(InventoryFact.GPFS_VERBS, String.join(", ", settings));
        });
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        return new GpfsVerbsJudge(facts, spec.gpfs()).judgement();
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.SENTENCES;
    }

    /** The node's own state: mmgetstate -Y lists the local node first. */
    static Optional<GpfsNodeState> localState(ToolResult state) {
        if (!state.succeeded()) {
            return Optional.empty();
        }
        return GpfsNodeState.from(GpfsYOutput.parse(state.stdout())).stream().findFirst();
    }

    /** The effective configuration, when mmdiag answered with records. */
    static Optional<GpfsConfig> parsedConfig(ToolResult run) {
        if (!run.succeeded()) {
            return Optional.empty();
        }
        GpfsConfig config = GpfsConfig.from(GpfsYOutput.parse(run.stdout()));
        return config.values().isEmpty() ? Optional.empty() : Optional.of(config);
    }

    static List<MmdiagNetwork.TcpConnection> connectedPeers(ToolResult run) {
        if (!run.succeeded()) {
            return List.of();
        }
        MmdiagNetwork network = MmdiagNetwork.parse(run.stdout());
        return network.recognized() ? network.connectedPeers() : List.of();
    }

    /** The profile's required peers, less this node itself. */
    static List<String> requiredPeers(ProbeSpec.Gpfs spec, String gpfsNode) {
        return spec.requiredPeers().stream().filter(p -> !VerbsConnections.sameHost(p, gpfsNode)).toList();
    }
}
