package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.BeegfsRdma.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.BeegfsClientConfig;
import io.rdmastorage.probe.parse.BeegfsNodes;
import io.rdmastorage.probe.parse.ProcMounts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * BeeGFS over RDMA. A BeeGFS client connects to its storage and metadata servers over RDMA when
 * {@code connUseRDMA} is on and the RDMA connection succeeds, and over TCP otherwise, silently. This
 * check reads what {@code beegfs-net} reads, without its {@code df} (which can block on an
 * unreachable server): the BeeGFS mounts with their {@code cfgFile} ({@code /proc/1/mounts}), and per
 * mounted client {@code /proc/fs/beegfs/<clientID>/} its effective {@code config} and the connections
 * it holds to each server ({@code storage_nodes}, {@code meta_nodes}). No host tool runs.
 */
public final class BeegfsRdmaCheck extends FactsCheck<BeegfsRdmaCheck.Facts> {

    static final String PROC_DIR = "/proc/fs/beegfs";
    static final String DKMS_DIR = "/var/lib/dkms/beegfs";
    static final String BEEGFS = "beegfs";
    static final List<String> SERVER_FILES = List.of("storage_nodes", "meta_nodes");

    /**
     * One mounted client's {@code /proc/fs/beegfs/<clientID>/} files; each empty when unreadable.
     *
     * @param interfacesFileExists whether the config's connRDMAInterfacesFile is on the host (empty when unset)
     */
    public record Client(String id, Optional<String> config, Map<String, Optional<String>> servers,
                         Optional<Boolean> interfacesFileExists) {
    }

    /**
     * What the host shows.
     *
     * @param mounts       PID 1's mount table; empty when unreadable
     * @param clients      the client directories under /proc/fs/beegfs; empty when that directory is absent
     * @param dkmsVersions the versions under /var/lib/dkms/beegfs (the DKMS client module)
     * @param procVisible  whether the host's /proc is there at all
     * @param hostRoot     where the host's file system is seen, for messages
     */
    public record Facts(Optional<ProcMounts> mounts, Optional<List<Client>> clients, List<String> dkmsVersions,
                        boolean procVisible, String hostRoot) {
    }

    @Override
    public CheckType type() {
        return CheckType.BEEGFS_RDMA;
    }

    /** With a beegfs section always; without a spec where the node has a BeeGFS mount. */
    @Override
    public boolean applies(ProbeContext context) {
        if (context.spec().beegfs() != null) {
            return true;
        }
        return ClientMounts.discovered(context, BeegfsRdmaCheck::beegfsMount);
    }

    static boolean beegfsMount(ProcMounts.Mount m) {
        return m.fsType().equals(BEEGFS);
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        Optional<List<Client>> clients = host.entries(PROC_DIR).map(ids -> ids.stream().sorted().map(id -> {
            String dir = PROC_DIR + "/" + id;
            Optional<String> config = host.read(dir + "/config");
            Map<String, Optional<String>> servers = new LinkedHashMap<>();
            SERVER_FILES.forEach(f -> servers.put(f, host.read(dir + "/" + f)));
            // the path comes from the kernel's copy of the client's settings, read under the host root
            Optional<Boolean> interfaces = config.flatMap(BeegfsClientConfig::parse)
                    .flatMap(BeegfsClientConfig::rdmaInterfacesFile).filter(p -> p.startsWith("/")).map(host::exists);
            return new Client(id, config, servers, interfaces);
        }).toList());
        return new Facts(host.read(ClientMounts.MOUNTS).map(ProcMounts::parse), clients,
                host.list(DKMS_DIR).stream().sorted().toList(), HostView.PROCFS.visible(host), host.root().toString());
    }

    /** The BeeGFS client's version where DKMS built it; not installed when neither the module's /proc entry nor DKMS has it. */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (!facts.dkmsVersions().isEmpty()) {
            into.distinct(InventoryFact.BEEGFS_VERSION, facts.dkmsVersions());
        } else if (facts.procVisible() && facts.clients().isEmpty()) {
            into.notInstalled(InventoryFact.BEEGFS_VERSION);
        }
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return List.of(RDMA_DISABLED, SERVER_ON_TCP, NOT_MOUNTED);
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        Details details = new Details();
        if (!facts.procVisible()) {
            return Judgement.only(HostView.PROCFS.missing(facts.hostRoot()), details);
        }
        if (facts.mounts().isEmpty()) {
            return Judgement.only(ClientMounts.unreadable(MOUNTS_UNREADABLE, facts.hostRoot(), "BeeGFS"), details);
        }
        ProcMounts mounts = facts.mounts().get();
        List<String> wanted = ClientMounts.wanted(mounts, spec.beegfs() != null ? spec.beegfs().mounts() : List.of(),
                BeegfsRdmaCheck::beegfsMount);
        if (wanted.isEmpty()) {
            return Judgement.only(Finding.of(Status.UNKNOWN, NO_BEEGFS_MOUNTS, "the beegfs section lists no mount and "
                    + ClientMounts.MOUNTS + " has no BeeGFS mount, so there is nothing to judge. List the mounts that must "
                    + "use RDMA in beegfs.mounts (e.g. [/mnt/beegfs])"), details);
        }
        List<Finding> findings = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        List<String> onTcp = new ArrayList<>();
        for (String point : wanted) {
            judgeMount(point, mounts, facts, findings, passed, shown, onTcp);
        }
        details.list("mounts", shown);
        details.list("serversOnTcp", onTcp.stream().limit(5).toList());
        return Judgement.of(findings, Finding.passed(SERVERS_OVER_RDMA, "BeeGFS over RDMA: " + String.join("; ", passed)),
                details);
    }

    private static void judgeMount(String point, ProcMounts mounts, Facts facts, List<Finding> findings, List<String> passed,
                                   List<String> shown, List<String> onTcp) {
        Optional<ProcMounts.Mount> at = mounts.at(point);
        if (at.isEmpty() || !beegfsMount(at.get())) {
            shown.add(point + ": " + at.map(m -> m.fsType() + ", not BeeGFS").orElse("not mounted"));
            findings.add(Finding.of(Status.FALSE, NOT_MOUNTED, point + " has no BeeGFS mount in " + ClientMounts.MOUNTS
                    + at.map(m -> " (it is " + m.fsType() + " from " + m.device() + ")").orElse(" (nothing is mounted there)")
                    + ", so its I/O cannot be BeeGFS over RDMA. Mount it (`systemctl start beegfs-client`, or the mount "
                    + "line in /etc/beegfs/beegfs-mounts.conf)", point + " not mounted"));
            return;
        }
        Optional<String> cfgFile = at.get().option("cfgFile");
        if (facts.clients().isEmpty() || facts.clients().get().isEmpty()) {
            shown.add(point + ": no client in " + PROC_DIR);
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, point + " is a BeeGFS mount in "
                    + ClientMounts.MOUNTS + ", but " + PROC_DIR + " has no client directory: a mounted client always has "
                    + "one, so the two cannot both be this host's now. Run `beegfs-net` and `lsmod | grep beegfs` on the "
                    + "node itself", point + ": mounts and " + PROC_DIR + " disagree"));
            return;
        }
        List<Client> clients = clientsOf(cfgFile, mounts, facts.clients().get());
        if (clients.size() != 1) {
            shown.add(point + ": " + (clients.isEmpty() ? "no" : clients.size()) + " client directories for cfgFile "
                    + cfgFile.orElse("(none)"));
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, point + " is mounted with cfgFile="
                    + cfgFile.orElse("(no cfgFile option)") + ", and " + (clients.isEmpty() ? "no" : clients.size())
                    + " client directories under " + PROC_DIR + " name that file, so which client serves the mount "
                    + "cannot be told. Give each BeeGFS mount its own client configuration file",
                    point + ": which client is not known"));
            return;
        }
        judgeClient(point, clients.get(0), findings, passed, shown, onTcp);
    }

    /** The client directories of a mount: those whose cfgFile is the mount's; the only one where the node has one BeeGFS mount without cfgFile. */
    private static List<Client> clientsOf(Optional<String> cfgFile, ProcMounts mounts, List<Client> clients) {
        if (cfgFile.isEmpty()) {
            boolean single = mounts.mounts().stream().filter(BeegfsRdmaCheck::beegfsMount).count() == 1;
            return single && clients.size() == 1 ? clients : List.of();
        }
        return clients.stream().filter(c -> c.config().flatMap(BeegfsClientConfig::parse)
                .map(k -> k.cfgFile().equals(cfgFile.get())).orElse(false)).toList();
    }

    private static void judgeClient(String point, Client client, List<Finding> findings, List<String> passed, List<String> shown,
                                    List<String> onTcp) {
        String dir = PROC_DIR + "/" + client.id();
        Optional<BeegfsClientConfig> config = client.config().flatMap(BeegfsClientConfig::parse);
        if (config.isEmpty()) {
            findings.add(unreadable(dir + "/config", client.config(), "`key = value` lines with cfgFile"));
            return;
        }
        boolean rdmaOff = config.get().useRdma().map(on -> !on).orElse(false);
        String why = rdmaOff ? "connUseRDMA is off" : client.interfacesFileExists().filter(e -> !e).map(e ->
                "connRDMAInterfacesFile " + config.get().rdmaInterfacesFile().get() + " is absent on the host").orElse("");
        List<BeegfsNodes.Node> servers = new ArrayList<>();
        for (Map.Entry<String, Optional<String>> file : client.servers().entrySet()) {
            Optional<BeegfsNodes> nodes = file.getValue().flatMap(BeegfsNodes::parse);
            if (nodes.isEmpty()) {
                findings.add(unreadable(dir + "/" + file.getKey(), file.getValue(),
                        "`<alias> [ID: <n>]` lines each with `Connections: ...`"));
                return;
            }
            servers.addAll(nodes.get().nodes());
        }
        List<BeegfsNodes.Node> connected = servers.stream().filter(BeegfsNodes.Node::connected).toList();
        int rdmaServers = 0;
        for (BeegfsNodes.Node server : connected) {
            List<BeegfsNodes.Connection> other = server.notRdma();
            if (other.isEmpty()) {
                rdmaServers++;
                continue;
            }
            onTcp.add(server.name());
            String conns = String.join(", ", other.stream().map(c -> c.count() + " " + c.type() + " (" + c.peer()
                    + (c.fallbackRoute() ? ", fallback route" : "") + ")").toList());
            findings.add(Finding.of(Status.FALSE, SERVER_ON_TCP, "the BeeGFS server " + server.name() + " of " + point
                    + " is reached over " + conns + (server.rdmaCount() > 0 ? " beside " + server.rdmaCount() + " RDMA" : "")
                    + " (" + dir + "): " + (why.isEmpty() ? "the client fell back from RDMA, silently" : "because " + why)
                    + ". " + fix(why, config.get()), server.name() + " on " + other.get(0).type()));
        }
        if (rdmaOff) {
            findings.add(Finding.of(Status.FALSE, RDMA_DISABLED, "the client of " + point + " runs with connUseRDMA = 0 ("
                    + dir + "/config, from " + config.get().cfgFile() + "): it reaches every server over TCP. Set "
                    + "connUseRDMA = true in " + config.get().cfgFile() + " and mount " + point + " again",
                    point + " connUseRDMA off"));
            if (rdmaServers > 0) {
                findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, dir + " shows RDMA connections while its "
                        + "config says connUseRDMA = 0: the client cannot hold both. Run `beegfs-net` and `cat " + dir
                        + "/config` on the node itself", point + ": config and connections disagree"));
            }
        }
        String idle = servers.size() > connected.size() ? ", " + (servers.size() - connected.size()) + " idle (no connection "
                + "now, not judged)" : "";
        shown.add(point + ": " + client.id() + ", " + rdmaServers + " of " + servers.size() + " server(s) on RDMA only" + idle);
        if (connected.isEmpty()) {
            findings.add(Finding.of(Status.UNKNOWN, NO_CONNECTIONS, "the client of " + point + " holds no connection to any "
                    + "of its " + servers.size() + " storage and metadata server(s) now (" + dir + "): BeeGFS connects on "
                    + "demand and drops idle connections, so the transport is not shown. I/O on " + point + " (or "
                    + "`beegfs-net`, which runs df) makes the client connect", point + " idle"));
            return;
        }
        passed.add(point + " (" + rdmaServers + " server(s) on RDMA only" + idle + ")");
    }

    private static String fix(String why, BeegfsClientConfig config) {
        if (why.startsWith("connUseRDMA")) {
            return "Set connUseRDMA = true in " + config.cfgFile() + " and mount again";
        }
        if (!why.isEmpty()) {
            return "Create " + config.rdmaInterfacesFile().get() + " with the RDMA interfaces (one per line, e.g. ib0), or "
                    + "unset connRDMAInterfacesFile in " + config.cfgFile() + ", and mount again";
        }
        return "Check the client's RDMA interfaces (`beegfs-ctl --listnodes --nodetype=storage --details`: RDMA next to "
                + "the server's interfaces; an IP on the IPoIB/RoCE netdev), libbeegfs-ib on the servers, and "
                + "/var/log/beegfs-client.log for the failed RDMA connect";
    }

    private static Finding unreadable(String file, Optional<String> text, String expected) {
        return Finding.of(Status.UNKNOWN, Reasons.OUTPUT_UNPARSEABLE, file + (text.isEmpty() ? " cannot be read"
                : " is not in the BeeGFS client's layout (" + expected + "); it begins: "
                + text.get().lines().limit(2).reduce((a, b) -> a + " | " + b).orElse("")) + ". Never a guess: run "
                + "`beegfs-net` on the node", file + " unreadable");
    }
}
