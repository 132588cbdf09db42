package io.rdmastorage.probe.counters;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.EthtoolStats;
import io.rdmastorage.probe.parse.MmdiagNetwork;
import io.rdmastorage.probe.parse.SsTcpInfo;
import io.rdmastorage.probe.parse.SysfsCounter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Reads one {@link CounterSnapshot} of a node's storage counters through the host root, anew each
 * time:
 * <ul>
 * <li>every file of each RDMA port's {@code counters/} (the IB PMA registers, with their legacy
 * maxima; {@code port_*_data} in 4-octet units) and {@code hw_counters/} (soft-RoCE has only these);</li>
 * <li>{@code ethtool -S} of the given netdevs (per-priority bytes and pause frames), in the host's
 * network namespace ({@link ToolRunner#runInHostNetwork});</li>
 * <li>the TCP sockets to the storage ports, from {@code ss -tin} run in the host's network namespace
 * ({@code nsenter --net=/proc/1/ns/net}: the probe pod has a network namespace of its own);</li>
 * <li>GPFS's per-connection MB from {@code mmdiag --network}, where GPFS is installed.</li>
 * </ul>
 */
public final class StorageCounters {

    public static final String IB_CLASS = PortView.IB_CLASS;
    /** The storage protocols' TCP ports: NVMe/TCP (IANA), NFS, GPFS's daemon port. */
    public static final int NVME_TCP_PORT = 4420;
    public static final int NFS_PORT = 2049;
    public static final int GPFS_PORT = 1191;
    /** LNet's socklnd port (a Lustre client over tcp NIDs) and BeeGFS's service ports, where a spec does not say otherwise. */
    public static final int LUSTRE_PORT = ProbeSpec.Lustre.DEFAULT_TCP_PORT;
    public static final List<Integer> BEEGFS_PORTS = ProbeSpec.Beegfs.DEFAULT_TCP_PORTS;
    public static final String SOCKETS = "ss";
    public static final String GPFS = "mmdiag";
    /** One step of {@code port_xmit_data}/{@code port_rcv_data}: four octets. */
    static final long IB_DATA_UNIT = 4;
    static final long MEBIBYTE = 1024 * 1024;

    /**
     * What to read.
     *
     * @param ports    RDMA ports; every port under /sys/class/infiniband when empty
     * @param netdevs  interfaces to read {@code ethtool -S} of (none: not read)
     * @param tcpPorts the peer ports whose sockets carry storage ({@link #protocols}, the spec's NVMe-oF targets')
     * @param gpfs     read {@code mmdiag --network} when it is installed (its sockets on 1191 are then
     *                 left to it, named by GPFS node)
     */
    public record Scope(List<DevicePort> ports, List<String> netdevs, Set<Integer> tcpPorts, boolean gpfs) {
        public Scope {
            ports = List.copyOf(ports);
            netdevs = List.copyOf(netdevs);
            tcpPorts = Set.copyOf(new TreeSet<>(tcpPorts));
        }
    }

    /**
     * The storage protocols' TCP ports, port → protocol name: NVMe/TCP, NFS, GPFS, Lustre (the lustre
     * section's tcpPort) and BeeGFS (the beegfs section's tcpPorts), each at its default where the spec
     * (which may be null) has no section; a port two protocols share is named by the first.
     */
    public static Map<Integer, String> protocols(ProbeSpec spec) {
        Map<Integer, String> ports = new LinkedHashMap<>();
        ports.put(NVME_TCP_PORT, "NVMe/TCP");
        ports.put(NFS_PORT, "NFS");
        ports.put(GPFS_PORT, "GPFS");
        ports.putIfAbsent(spec != null && spec.lustre() != null ? spec.lustre().tcpPort() : LUSTRE_PORT, "Lustre");
        (spec != null && spec.beegfs() != null ? spec.beegfs().ports() : BEEGFS_PORTS).forEach(p -> ports.putIfAbsent(p, "BeeGFS"));
        return ports;
    }

    private final HostRoot host;
    private final ToolRunner tools;
    private final Scope scope;

    public StorageCounters(HostRoot host, ToolRunner tools, Scope scope) {
        this.host = host;
        this.tools = tools;
        this.scope = scope;
    }

    /** A reader for {@link CounterSampler#sample}. */
    public Supplier<CounterSnapshot> reader() {
        return this::read;
    }

    /** The RDMA ports this scope reads, as {@code dev/port}, in order. */
    public List<DevicePort> ports() {
        if (!scope.ports().isEmpty()) {
            return scope.ports();
        }
        return PortView.list(host);
    }

    public CounterSnapshot read() {
        CounterSnapshot.Builder snapshot = new CounterSnapshot.Builder(System.nanoTime(), Instant.now());
        boolean gpfsRead = scope.gpfs() && tools.locate(GPFS).isPresent() && readGpfs(snapshot);
        readSockets(snapshot, gpfsRead);
        for (DevicePort port : ports()) {
            readPort(snapshot, port);
        }
        for (String netdev : scope.netdevs()) {
            readNetdev(snapshot, netdev);
        }
        return snapshot.build();
    }

    private void readPort(CounterSnapshot.Builder snapshot, DevicePort port) {
        String dir = IB_CLASS + "/" + port.device() + "/ports/" + port.port();
        String subject = port.toString();
        List<String> counters = host.list(dir + "/counters");
        List<String> hw = host.list(dir + "/hw_counters");
        if (counters.isEmpty() && hw.isEmpty()) {
            snapshot.unreadable(subject, host.isDirectory(dir) ? dir + " has neither counters/ nor hw_counters/"
                    : dir + " is absent");
        }
        for (String name : counters) {
            host.readAttribute(dir + "/counters/" + name).map(SysfsCounter::parse).filter(v -> v.isPresent())
                    .ifPresent(v -> snapshot.put(new CounterKey(Source.RDMA_PORT, subject, name),
                            new CounterReading(v.getAsLong(), SysfsCounter.legacyMaximum(name),
                                    name.equals("port_xmit_data") || name.equals("port_rcv_data") ? IB_DATA_UNIT : 1)));
        }
        for (String name : hw) {
            host.readAttribute(dir + "/hw_counters/" + name).map(SysfsCounter::parse).filter(v -> v.isPresent())
                    .ifPresent(v -> snapshot.put(new CounterKey(Source.RDMA_PORT, subject, "hw_counters/" + name),
                            CounterReading.of(v.getAsLong())));
        }
    }

    private void readNetdev(CounterSnapshot.Builder snapshot, String netdev) {
        // by name over the ethtool ioctl: only the host's network namespace has the netdev
        ToolResult result = tools.runInHostNetwork("ethtool", List.of("-S", netdev));
        if (!result.succeeded()) {
            snapshot.unreadable("ethtool " + netdev, result.problem());
            return;
        }
        var stats = EthtoolStats.parse(result.stdout());
        if (stats.isEmpty()) {
            snapshot.unreadable("ethtool " + netdev, "'" + result.command() + "' printed no counters");
        }
        stats.forEach((name, value) -> snapshot.put(new CounterKey(Source.NETDEV, netdev, name), CounterReading.of(value)));
    }

    private void readSockets(CounterSnapshot.Builder snapshot, boolean gpfsRead) {
        Set<Integer> ports = new TreeSet<>(scope.tcpPorts());
        if (gpfsRead) {
            ports.remove(GPFS_PORT);
        }
        if (ports.isEmpty()) {
            return;
        }
        // an unreadable host namespace: nsenter would only say "Permission denied"
        Optional<String> unreachable = tools.hostNetwork().problem();
        if (unreachable.isPresent()) {
            snapshot.unreadable(SOCKETS, unreachable.get());
            return;
        }
        // ss's own filter keeps a busy node's answer small; every item is one argv element
        List<String> args = new ArrayList<>(List.of("--net=/proc/1/ns/net", "ss", "-tin", "("));
        for (int port : ports) {
            if (args.size() > 4) {
                args.add("or");
            }
            args.addAll(List.of("dport", "=", ":" + port));
        }
        args.add(")");
        ToolResult result = tools.run("nsenter", args);
        if (!result.succeeded()) {
            snapshot.unreadable(SOCKETS, result.problem());
            return;
        }
        SsTcpInfo table = SsTcpInfo.parse(result.stdout());
        if (!table.recognized()) {
            snapshot.unreadable(SOCKETS, "'" + result.command() + "' printed no ss table");
            return;
        }
        for (SsTcpInfo.Socket socket : table.sockets()) {
            if (!ports.contains(socket.peerPort())) {
                continue;
            }
            String subject = socket.local() + " -> " + socket.peer();
            if (socket.sent().isEmpty() && socket.received().isEmpty()) {
                snapshot.unreadable(SOCKETS, "ss shows no TCP_INFO for " + subject + " (no mss, no bytes_*: without the "
                        + "host's tcp_diag module ss falls back to /proc/net/tcp, which has no byte counts; `modprobe tcp_diag`)");
                continue;
            }
            socket.sent().ifPresent(v -> snapshot.put(new CounterKey(Source.TCP_SOCKET, subject, "bytes_sent"), CounterReading.of(v)));
            socket.received().ifPresent(v -> snapshot.put(new CounterKey(Source.TCP_SOCKET, subject, "bytes_received"),
                    CounterReading.of(v)));
        }
    }

    /** True when mmdiag answered with its table: GPFS's sockets are then counted per GPFS connection. */
    private boolean readGpfs(CounterSnapshot.Builder snapshot) {
        ToolResult result = tools.run(GPFS, "--network");
        if (!result.succeeded()) {
            snapshot.unreadable(GPFS, result.problem());
            return false;
        }
        MmdiagNetwork network = MmdiagNetwork.parse(result.stdout());
        if (!network.recognized()) {
            snapshot.unreadable(GPFS, "'" + result.command() + "' printed no TCP connection table");
            return false;
        }
        for (MmdiagNetwork.TcpConnection c : network.connections()) {
            String subject = c.hostname() + " " + c.destination() + (c.socket() >= 0 ? " sock " + c.socket() : "");
            c.sentMegabytes().ifPresent(v -> snapshot.put(new CounterKey(Source.GPFS_PEER, subject, "sent(MB)"),
                    new CounterReading(v, 0, MEBIBYTE)));
            c.receivedMegabytes().ifPresent(v -> snapshot.put(new CounterKey(Source.GPFS_PEER, subject, "recvd(MB)"),
                    new CounterReading(v, 0, MEBIBYTE)));
        }
        return true;
    }
}
