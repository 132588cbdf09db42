package io.rdmastorage.probe.rails;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.NvmeControllers;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.BeegfsClientConfig;
import io.rdmastorage.probe.parse.GpfsConfig;
import io.rdmastorage.probe.parse.GpfsYOutput;
import io.rdmastorage.probe.parse.LnetNets;
import io.rdmastorage.probe.parse.NvmeController;
import io.rdmastorage.probe.parse.ProcMounts;
import io.rdmastorage.probe.ports.PortView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA rails each storage client is configured to use, read from the client's own
 * configuration on the node, for the profile's storage sections only (a port no storage client names
 * is not a rail): GPFS's {@code verbsPorts} ({@code mmdiag --config -Y}), LNet's o2ib NIs and their
 * interfaces ({@code lnetctl net show}), each live NVMe-oF rdma controller of a subsystem (a native
 * multipath path) by its local address ({@code host_traddr}/{@code src_addr}) or interface
 * ({@code host_iface}), each NFS-over-RDMA mount by its {@code clientaddr}, and each interface of a
 * mounted BeeGFS client's {@code connRDMAInterfacesFile} (BeeGFS's multi-rail list, as the client
 * module runs with it: {@code /proc/fs/beegfs/<clientID>/config}). A path or mount that
 * names no local end (an rdma controller connected without {@code -w}, an NFSv3 mount) is placed by
 * the host's route to its server ({@code ip -o route get}, in the host's network namespace): the
 * netdev and source address the kernel sends from.
 */
public final class StorageRails {

    static final String MOUNTS = "/proc/1/mounts";
    static final String SUBSYSTEMS = "/sys/class/nvme-subsystem";
    static final String BEEGFS = "/proc/fs/beegfs";
    private static final Pattern ROUTE_SRC = Pattern.compile("\\ssrc\\s+(\\S+)");
    private static final Pattern ROUTE_DEV = Pattern.compile("\\sdev\\s+(\\S+)");

    private StorageRails() {
    }

    public static List<StorageRail> read(HostRoot host, ToolRunner tools, PortView view, ProbeSpec spec) {
        RailPorts ports = new RailPorts(host, view);
        List<StorageRail> rails = new ArrayList<>();
        if (spec.gpfs() != null) {
            gpfs(tools.run("mmdiag", "--config", "-Y"), rails);
        }
        if (spec.lustre() != null) {
            lnet(tools.run("lnetctl", "net", "show"), ports, rails);
        }
        Function<String, Optional<DevicePort>> routed = address -> route(tools, address, ports);
        if (spec.nvmeof() != null) {
            nvmeof(host, NvmeControllers.list(host), ports, routed, rails);
        }
        if (spec.nfs() != null) {
            host.read(MOUNTS).map(ProcMounts::parse).ifPresent(m -> nfs(m, ports, routed, rails));
        }
        if (spec.beegfs() != null) {
            beegfs(host, ports, rails);
        }
        return rails;
    }

    static void gpfs(ToolResult config, List<StorageRail> into) {
        if (!config.succeeded()) {
            return;
        }
        for (String port : GpfsConfig.from(GpfsYOutput.parse(config.stdout())).verbsPorts()) {
            if (Rules.DEVICE_PORT.matcher(port).matches()) {
                into.add(new StorageRail("GPFS", "verbsPorts " + port, Optional.of(DevicePort.parse(port))));
            }
        }
    }

    static void lnet(ToolResult netShow, RailPorts ports, List<StorageRail> into) {
        if (!netShow.succeeded()) {
            return;
        }
        for (LnetNets.Net net : LnetNets.parse(netShow.stdout()).map(LnetNets::nets).orElse(List.of())) {
            for (LnetNets.Ni ni : net.nis()) {
                if (!ni.nid().rdma() || ni.interfaces().isEmpty()) {
                    continue;
                }
                String netdev = ni.interfaces().get(0);
                into.add(new StorageRail("LNet " + net.type(), "NI " + ni.nid() + " on " + netdev, ports.ofNetdev(netdev)));
            }
        }
    }

    static void nvmeof(HostRoot host, List<NvmeController> controllers, RailPorts ports, Function<String, Optional<DevicePort>> routed,
                       List<StorageRail> into) {
        Map<String, String> policies = new HashMap<>();   // per subsystem, not per path
        for (NvmeController c : controllers) {
            if (!c.transport().equals("rdma") || !c.state().equals("live") || c.subsysnqn().equals(NvmeController.DISCOVERY_NQN)) {
                continue;
            }
            Optional<String> local = field(c, "host_traddr").or(() -> field(c, "src_addr"));
            Optional<String> iface = field(c, "host_iface");
            Optional<DevicePort> port = local.flatMap(ports::ofAddress).or(() -> iface.flatMap(ports::ofNetdev))
                    .or(() -> local.isEmpty() && iface.isEmpty() ? c.address().traddr().flatMap(routed) : Optional.empty());
            String policy = policies.computeIfAbsent(c.subsysnqn(), nqn -> iopolicy(host, nqn).map(p -> " (iopolicy " + p + ")")
                    .orElse(""));
            into.add(new StorageRail("NVMe-oF " + c.subsysnqn() + policy, c.name() + " to " + c.address().traddr().orElse("?")
                    + ":" + c.address().port(NvmeController.DEFAULT_PORT).map(String::valueOf).orElse("?")
                    + local.map(a -> " from " + a).or(() -> iface.map(i -> " on " + i)).orElse(""), port));
        }
    }

    static void nfs(ProcMounts mounts, RailPorts ports, Function<String, Optional<DevicePort>> routed, List<StorageRail> into) {
        for (ProcMounts.Mount m : mounts.mounts()) {
            boolean rdma = m.option("proto").map(p -> p.startsWith("rdma")).orElse(false);
            if (!m.nfs() || !rdma) {
                continue;
            }
            Optional<String> clientaddr = m.option("clientaddr");
            Optional<String> server = m.option("addr");
            Optional<DevicePort> port = clientaddr.isPresent() ? ports.ofAddress(clientaddr.get()) : server.flatMap(routed);
            into.add(new StorageRail("NFS " + server.orElse(m.device()), m.mountPoint() + clientaddr.map(a -> " from " + a)
                    .orElse(""), port));
        }
    }

    static void beegfs(HostRoot host, RailPorts ports, List<StorageRail> into) {
        for (String client : host.list(BEEGFS)) {
            Optional<BeegfsClientConfig> config = host.read(BEEGFS + "/" + client + "/config").flatMap(BeegfsClientConfig::parse);
            Optional<String> list = config.filter(c -> c.useRdma().orElse(true))
                    .flatMap(c -> Optional.ofNullable(c.values().get("connRDMAInterfacesFile"))).filter(f -> f.startsWith("/"));
            List<String> netdevs = list.flatMap(host::read).map(text -> text.lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()).orElse(List.of());
            for (String netdev : netdevs) {
                into.add(new StorageRail("BeeGFS " + client, "connRDMAInterfacesFile " + netdev, ports.ofNetdev(netdev)));
            }
        }
    }

    /** The RDMA port the host sends to {@code address} from: {@code ip -o route get}'s source address, else its netdev. */
    static Optional<DevicePort> route(ToolRunner tools, String address, RailPorts ports) {
        ToolResult r = tools.runInHostNetwork("ip", List.of("-o", "route", "get", address));
        if (!r.succeeded()) {
            return Optional.empty();
        }
        Matcher src = ROUTE_SRC.matcher(r.stdout());
        Matcher dev = ROUTE_DEV.matcher(r.stdout());
        Optional<DevicePort> bySource = src.find() ? ports.ofAddress(src.group(1)) : Optional.empty();
        return bySource.or(() -> dev.find() ? ports.ofNetdev(dev.group(1)) : Optional.empty());
    }

    private static Optional<String> field(NvmeController c, String name) {
        return Optional.ofNullable(c.address().fields().get(name)).filter(v -> !v.isBlank());
    }

    /** The native multipath I/O policy of the subsystem ({@code numa}, {@code round-robin}, {@code queue-depth}). */
    private static Optional<String> iopolicy(HostRoot host, String nqn) {
        for (String subsystem : host.list(SUBSYSTEMS)) {
            String dir = SUBSYSTEMS + "/" + subsystem;
            if (host.readAttribute(dir + "/subsysnqn").filter(nqn::equals).isPresent()) {
                return host.readAttribute(dir + "/iopolicy");
            }
        }
        return Optional.empty();
    }
}
