package io.rdmastorage.probe.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The GPFS side of the shared healthy node and its failure modes, laid out on a {@link FixtureHost}:
 * stub {@code mmgetstate}, {@code mmdiag}, {@code mmfsadm}, {@code mmlscluster} under
 * /usr/lpp/mmfs/bin and /var/adm/ras/mmfs.log.latest. The outputs name the host's
 * {@link FixtureIdentity} (gpu-01: GPFS daemon name gpu-01-ib, 10.10.0.11, peer gpu-02-ib; the
 * methods without an identity are gpu-01's), so each node of a simulated cluster names itself.
 *
 * <p>Recorded samples are used where they exist ({@code mmfsadm test verbs status}); the rest is
 * CONSTRUCTED in the recorded formats, because no public sample covers this cluster: the {@code -Y}
 * outputs follow the HEADER rows of the recorded mmdiag/mmgetstate samples and IBM's documented
 * mmlscluster header; {@code mmdiag --network} follows the recorded 5.1 table; {@code mmfsadm test
 * verbs conn} has no public sample at all (see samples/SOURCES.md), so its lines are invented in a
 * plausible layout that the check reads only as whole tokens; mmfs.log lines use the 5.x timestamp
 * format of the recorded log sample.
 */
public final class GpfsFixtures {

    public static final String BIN = "/usr/lpp/mmfs/bin";
    public static final String LOG = "/var/adm/ras/mmfs.log.latest";
    /** gpu-01's GPFS daemon name. */
    public static final String GPFS_NODE = FixtureIdentity.GPU_01.gpfsName();
    /** The healthy profile's gpfs section, as JSON. */
    public static final String HEALTHY_SPEC =
            "{\"verbsPorts\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"requiredPeers\":[\"nsd-01\",\"nsd-02\"],\"minPagepool\":\"16Gi\"}";
    public static final String HEALTHY_PORTS = "mlx5_0/1 mlx5_1/1";
    public static final long HEALTHY_PAGEPOOL = 32L << 30;

    /** Peers of a GPU node: daemon name, IP, node id in mmdiag --network; the NSD servers, then its GPU peer. */
    private static List<String[]> peers(FixtureIdentity node) {
        FixtureIdentity peer = node.gpfsPeer();
        return List.of(
                new String[] {"nsd-01", "10.10.0.1", "<c0n0>"},
                new String[] {"nsd-02", "10.10.0.2", "<c0n1>"},
                new String[] {peer.gpfsName(), peer.address(), peer.gpfsNodeId()});
    }

    private static final DateTimeFormatter LOG_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd_HH:mm:ss.SSSZ", Locale.ROOT).withZone(ZoneOffset.UTC);

    private GpfsFixtures() {
    }

    /** Active daemon, verbsRdma enable on mlx5_0/1 mlx5_1/1, pagepool 32G, every peer over RDMA. */
    public static FixtureHost healthy(FixtureHost host) {
        FixtureIdentity node = host.identity();
        host.tool(BIN + "/mmgetstate").on("-Y").prints(mmgetstateY(node, "active"));
        host.tool(BIN + "/mmdiag").on("--config", "-Y").prints(mmdiagConfigY("enable", HEALTHY_PORTS, HEALTHY_PAGEPOOL));
        host.tool(BIN + "/mmdiag").on("--network").prints(mmdiagNetwork(node));
        host.tool(BIN + "/mmdiag").on("--version").printsSample("gpfs/mmdiag-version_5.2.1.1_ibm-cloud-faq.txt");
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "status").printsSample("gpfs/mmfsadm-test-verbs-status_started.txt");
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "conn").prints(verbsConn(node, true));
        host.tool(BIN + "/mmlscluster").on("-Y").prints(mmlsclusterY(node));
        host.file(LOG, healthyLog(Instant.now()));
        return host;
    }

    /** The GPU peer (gpu-02-ib for gpu-01) is connected over TCP but has no verbs connection; the log says why. */
    public static FixtureHost tcpFallback(FixtureHost host) {
        healthy(host);
        FixtureIdentity peer = host.identity().gpfsPeer();
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "conn").prints(verbsConn(host.identity(), false));
        Instant now = Instant.now();
        String to = peer.address() + " (" + peer.gpfsName() + ")";
        host.file(LOG, healthyLog(now)
                + LOG_TIME.format(now.minus(Duration.ofMinutes(50))) + ": [E] VERBS RDMA rdma read error "
                + "IBV_WC_RETRY_EXC_ERR to " + to + " on mlx5_0 port 1 fabnum 0 vendor_err 129\n"
                + LOG_TIME.format(now.minus(Duration.ofMinutes(50))) + ": [E] VERBS RDMA closed connection to "
                + to + " on mlx5_0 port 1 fabnum 0 due to RDMA read error IBV_WC_RETRY_EXC_ERR index 2\n");
        return host;
    }

    /** verbsRdma disable: the daemon never started its verbs layer (recorded "disabled" status). */
    public static FixtureHost verbsRdmaDisabled(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmdiag").on("--config", "-Y").prints(mmdiagConfigY("disable", HEALTHY_PORTS, HEALTHY_PAGEPOOL));
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "status").printsSample("gpfs/mmfsadm-test-verbs-status_disabled.txt");
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "conn").prints("");
        return host;
    }

    /** The classic typo: verbsPorts mlx5_0/2 for mlx5_0/1 (verbs still start on mlx5_1). */
    public static FixtureHost verbsPortsTypo(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmdiag").on("--config", "-Y").prints(mmdiagConfigY("enable", "mlx5_0/2 mlx5_1/1", HEALTHY_PAGEPOOL));
        return host;
    }

    /** pagepool 4G, below the healthy profile's 16Gi. */
    public static FixtureHost pagepoolTooSmall(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmdiag").on("--config", "-Y").prints(mmdiagConfigY("enable", HEALTHY_PORTS, 4L << 30));
        return host;
    }

    /**
     * GPFS on RoCE ports (sysfs link_layer Ethernet for both verbsPorts) with verbsRdmaCm left at
     * its default, disable.
     */
    public static FixtureHost roceWithoutRdmaCm(FixtureHost host) {
        healthy(host);
        for (String device : new String[] {"mlx5_0", "mlx5_1"}) {
            host.file("/sys/class/infiniband/" + device + "/ports/1/link_layer", "Ethernet\n");
        }
        return host;
    }

    /** The same RoCE ports with verbsRdmaCm enable. */
    public static FixtureHost roceWithRdmaCm(FixtureHost host) {
        roceWithoutRdmaCm(host);
        host.tool(BIN + "/mmdiag").on("--config", "-Y")
                .prints(mmdiagConfigY("enable", HEALTHY_PORTS, HEALTHY_PAGEPOOL, "enable"));
        return host;
    }

    /** The daemon is down: mmgetstate says so, and the tools that ask the daemon fail. */
    public static FixtureHost notRunning(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmgetstate").on("-Y").prints(mmgetstateY(host.identity(), "down"));
        // constructed failure text: the exact wording of these errors varies by release
        host.tool(BIN + "/mmdiag").otherwise().fails(1, "mmdiag: GPFS is not running on this node.\n");
        host.tool(BIN + "/mmfsadm").otherwise().fails(1, "mmfsadm: GPFS daemon not running\n");
        return host;
    }

    /** mmdiag --config -Y prints something that is not -Y output. */
    public static FixtureHost garbage(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmdiag").on("--config", "-Y")
                .prints("\u0000\u0013ELF garbage ##### \nSegmentation fault (core dumped)\n%%%:::\n");
        return host;
    }

    /** mmfsadm never answers (a hung daemon): test with --tool-timeout 1s. */
    public static FixtureHost hanging(FixtureHost host) {
        healthy(host);
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "status").hangs();
        host.tool(BIN + "/mmfsadm").on("test", "verbs", "conn").hangs();
        return host;
    }

    /** {@code mmgetstate -Y} for gpu-01, in the recorded sample's format. */
    public static String mmgetstateY(String state) {
        return mmgetstateY(FixtureIdentity.GPU_01, state);
    }

    /** {@code mmgetstate -Y} for {@code node}. */
    public static String mmgetstateY(FixtureIdentity node, String state) {
        return "mmgetstate::HEADER:version:reserved:reserved:nodeName:nodeNumber:state:quorum:nodesUp:totalNodes:"
                + "remarks:cnfsState:\n"
                + "mmgetstate::0:1:::" + node.gpfsName() + ":" + node.gpfsNodeNumber() + ":" + state + ":2:"
                + ("active".equals(state) ? 4 : 3) + ":4::(undefined):\n";
    }

    /**
     * {@code mmdiag --config -Y} in the recorded sample's format (including its record wrapped over two
     * lines); a real output lists every attribute, this one the relevant ones and some neighbours.
     */
    public static String mmdiagConfigY(String verbsRdma, String verbsPorts, long pagepoolBytes) {
        return mmdiagConfigY(verbsRdma, verbsPorts, pagepoolBytes, "disable");
    }

    /** The same with a given verbsRdmaCm. */
    public static String mmdiagConfigY(String verbsRdma, String verbsPorts, long pagepoolBytes, String verbsRdmaCm) {
        return "mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\n"
                + "mmdiag:config:0:1:::maxMBpS:40000:static:\n"
                + "mmdiag:config:0:1:::opensslLibName:/usr/lib64/libssl.so.10%3A/usr/lib64/libssl.so.6%3Alibss\n"
                + "l.so.0%3Alibssl.so.4::\n"
                + "mmdiag:config:0:1:::pagepool:" + pagepoolBytes + ":static:\n"
                + "mmdiag:config:0:1:::pagepoolMaxPhysMemPct:75::\n"
                + "mmdiag:config:0:1:::verbsPorts:" + verbsPorts + ":static:\n"
                + "mmdiag:config:0:1:::verbsRdma:" + verbsRdma + ":static:\n"
                + "mmdiag:config:0:1:::verbsRdmaCm:" + verbsRdmaCm + "::\n"
                + "mmdiag:config:0:1:::verbsRdmaSend:no::\n";
    }

    /** {@code mmdiag --network} of gpu-01 as Storage Scale 5.1 prints it (layout of the recorded sample). */
    public static String mmdiagNetwork() {
        return mmdiagNetwork(FixtureIdentity.GPU_01);
    }

    /** {@code mmdiag --network} of {@code node}. */
    public static String mmdiagNetwork(FixtureIdentity node) {
        return mmdiagNetwork(node, 0, 0);
    }

    /**
     * {@code mmdiag --network} of {@code node} whose TCP connection to its GPU peer (on tscTcpPort
     * 1191) has sent and received these MB; the NSD servers' show 0.
     */
    public static String mmdiagNetwork(FixtureIdentity node, long gpuPeerSentMb, long gpuPeerReceivedMb) {
        StringBuilder s = new StringBuilder("""
                === mmdiag: network ===

                Pending messages:
                  (none)
                Inter-node communication configuration:
                  tscConnMode     mrot
                  tscTcpPort      1191
                  my address      %1$s/24 (ib0) %2$s
                  my addr list    %1$s/24 (ib0)
                  my subnet list  10.10.0.0/24
                  my node number  %3$d
                TCP Connections between nodes:
                    hostname                            node     idx destination     status     err  sock  sent(MB)  recvd(MB)  ostype
                """.formatted(node.address(), node.gpfsNodeId(), node.gpfsNodeNumber()));
        int sock = 126;
        List<String[]> peers = peers(node);
        for (String[] peer : peers) {
            boolean gpuPeer = peer[0].equals(node.gpfsPeer().gpfsName());
            s.append(String.format("    %-36s%-9s%4d %-16s%-11s%-5s%-6d%-10s%-11s%s\n",
                    peer[0], peer[2], 0, peer[1], "connected", "0", sock++, gpuPeer ? gpuPeerSentMb : 0,
                    gpuPeer ? gpuPeerReceivedMb : 0, "Linux/L"));
        }
        s.append("Connection details:\n");
        for (String[] peer : peers) {
            s.append("  ").append(peer[2]).append(' ').append(peer[1]).append("/0 (").append(peer[0]).append(")\n")
                    .append("    status connected was_broken 0 err 0 reconnEnabled 1 delayedAckEnabled 1\n");
        }
        return s.toString();
    }

    /**
     * {@code mmfsadm test verbs conn} of gpu-01: CONSTRUCTED (no public sample). Peers appear by
     * address and name, the GPU peer (gpu-02-ib) by address only, so matching must know the
     * cluster's name ↔ address pairs.
     */
    public static String verbsConn(boolean withGpu02) {
        return verbsConn(FixtureIdentity.GPU_01, withGpu02);
    }

    /** {@code mmfsadm test verbs conn} of {@code node}, with or without its GPU peer. */
    public static String verbsConn(FixtureIdentity node, boolean withGpuPeer) {
        return "RDMA Connections between nodes:\n"
                + "  destination            idx  dev     port  qp_num  state\n"
                + "  10.10.0.1 (nsd-01)     0    mlx5_0  1     0x1a4   RTS\n"
                + "  10.10.0.1 (nsd-01)     1    mlx5_1  1     0x1a5   RTS\n"
                + "  10.10.0.2 (nsd-02)     0    mlx5_0  1     0x1b0   RTS\n"
                + (withGpuPeer ? "  %-22s 0    mlx5_0  1     0x2c1   RTS\n".formatted(node.gpfsPeer().address()) : "");
    }

    /** {@code mmlscluster -Y} of gpu-01's cluster with IBM's documented HEADER rows. */
    public static String mmlsclusterY() {
        return mmlsclusterY(FixtureIdentity.GPU_01);
    }

    /** {@code mmlscluster -Y}: the NSD servers, {@code node} and its GPU peer, in node number order. */
    public static String mmlsclusterY(FixtureIdentity node) {
        FixtureIdentity first = node.number() < node.gpfsPeer().number() ? node : node.gpfsPeer();
        FixtureIdentity second = first == node ? node.gpfsPeer() : node;
        return "mmlscluster:clusterSummary:HEADER:version:reserved:reserved:clusterName:clusterId:uidDomain:rshPath:"
                + "rshSudoWrapper:rcpPath:rcpSudoWrapper:repositoryType:primaryServer:secondaryServer:\n"
                + "mmlscluster:clusterNode:HEADER:version:reserved:reserved:nodeNumber:daemonNodeName:ipAddress:"
                + "adminNodeName:designation:otherNodeRoles:adminLoginName:otherNodeRolesAlias:\n"
                + "mmlscluster:clusterSummary:0:1:::gpfs.example:17502596657464854352:gpfs.example:%2Fusr%2Fbin%2Fssh:no:"
                + "%2Fusr%2Fbin%2Fscp:no:CCR:::\n"
                + "mmlscluster:clusterNode:0:1:::1:nsd-01:10.10.0.1:nsd-01:quorumManager::::\n"
                + "mmlscluster:clusterNode:0:1:::2:nsd-02:10.10.0.2:nsd-02:quorumManager::::\n"
                + clusterNode(first) + clusterNode(second);
    }

    private static String clusterNode(FixtureIdentity node) {
        return "mmlscluster:clusterNode:0:1:::" + node.gpfsNodeNumber() + ":" + node.gpfsName() + ":" + node.address() + ":"
                + node.hostname() + ":::::\n";
    }

    /** A daemon start with RDMA coming up, a few hours before {@code now}. */
    public static String healthyLog(Instant now) {
        String t = LOG_TIME.format(now.minus(Duration.ofHours(3)));
        return t + ": [I] mmfsd initializing. {Version: 5.1.9.0   Built: Oct 26 2023 12:00:00} ...\n"
                + t + ": [I] VERBS RDMA starting with verbsRdmaCm=no verbsRdmaSend=no verbsRdmaUseMultiCqThreads=yes\n"
                + t + ": [I] VERBS RDMA library libibverbs.so loaded and initialized.\n"
                + t + ": [I] VERBS RDMA device mlx5_0 port 1 fabnum 0 opened, lid 11, 4x NDR.\n"
                + t + ": [I] VERBS RDMA device mlx5_1 port 1 fabnum 0 opened, lid 12, 4x NDR.\n"
                + t + ": [I] VERBS RDMA started.\n"
                + t + ": [I] VERBS RDMA connecting to 10.10.0.1 (nsd-01) on mlx5_0 port 1 fabnum 0 sl 0 index 0\n"
                + t + ": [I] VERBS RDMA connected to 10.10.0.1 (nsd-01) on mlx5_0 port 1 fabnum 0 sl 0 index 0\n";
    }
}
