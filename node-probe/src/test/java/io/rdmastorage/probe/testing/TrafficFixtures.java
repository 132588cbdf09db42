package io.rdmastorage.probe.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Storage I/O during the RdmaTraffic window of a whole fixture node (as the operator's simulated
 * nodes run it, the probe really sleeping the window): the host steps from one reading of its
 * storage counters to the next each time the probe reads them.
 *
 * <p>Every reading of the probe asks the host's {@code ss} first (through {@code nsenter
 * --net=/proc/1/ns/net ss -tin ...}), then reads the RDMA ports' sysfs counters. So a stub
 * {@code nsenter} lays the next reading's counter files into the host root and prints that
 * reading's ss table; the readings alternate before, after, before, ... and every probe's window
 * (its two readings) sees one before → after step, as a node under steady storage I/O would. This
 * is the mechanism of RdmaTrafficCheckTest (counters that change between the two reads) for a
 * probe that cannot be given a pause of its own.
 *
 * <p>The {@code ss -tin} tables list only the storage sockets the node has: none where every
 * storage protocol rides RDMA (the profile's NVMe-oF target over rdma, GPFS's sockets left to
 * {@code mmdiag}), the NVMe/TCP queue sockets of a tcp controller the node's sysfs lists, LNet's
 * socklnd socket to a server it reaches by a tcp NID. Where GPFS talks to a peer over TCP, the
 * stub {@code mmdiag --network} steps with the same readings (the probe asks it just before ss),
 * its connection to that peer's 1191 growing.
 *
 * <p>Recorded: mlx5_0 port 1's {@code counters/} and {@code hw_counters/} (prometheus/procfs's
 * sysfs snapshot), the {@code ss -tin} tables of the NVMe/TCP queue sockets around a 64 MiB read
 * (this project's VM, with the addresses changed to the node's and its target's). Constructed: the
 * RDMA "after" reading, the recorded counters plus 1 GB each way (and, on the lossy fabric, 40 more
 * out-of-sequence packets); the Lustre socket (the constructed sample of a socklnd socket, with the
 * Lustre fixture's addresses); GPFS's MB (64 MB more received, 1 MB more sent, to its GPU peer).
 */
public final class TrafficFixtures {

    /** The spec's traffic section these scenarios are judged with. */
    public static final String SECTION = "{\"window\": \"1s\", \"devices\": [\"mlx5_0/1\"]}";
    private static final String MLX5 = "counters/sysfs-infiniband-counters-and-hw_counters_mlx5_0_procfs-fixture.txt";
    private static final String RECORDED_PORT = "fixtures/sys/class/infiniband/mlx5_0/ports/1/";
    private static final String PORT = "/sys/class/infiniband/mlx5_0/ports/1/";
    private static final String STATE = "/fixture/traffic/next-reading";
    /** 1 GB in port_*_data's 4-octet units, and its packets at 4 KiB MTU. */
    private static final long GIGABYTE_DATA_UNITS = 250_000_000;
    private static final long GIGABYTE_PACKETS = 244_141;
    private static final long LOST_PACKETS = 40;
    /** ss's header row, as iproute2 6.1 prints it (the recorded sample's, without its trailing blanks). */
    private static final String SS_HEADER = "State Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n";
    /** The NVMe/TCP target {@link #overTcp} reads from: the recorded VM's target name, an address outside the profile. */
    public static final String UNLISTED_TARGET = "192.0.2.1";
    public static final String UNLISTED_NQN = "nqn.2014-08.org.example:vm-target";
    /** GPFS's MB to the GPU peer before the window: the daemon has been up a while. */
    private static final long GPFS_SENT_MB = 812;
    private static final long GPFS_RECEIVED_MB = 40_960;

    private TrafficFixtures() {
    }

    /** Storage over RDMA: mlx5_0/1 moves about 1 GB/s each way, no storage TCP socket. DataOverRdma. */
    public static FixtureHost overRdma(FixtureHost host) {
        return steps(host, rdmaMoved(0), "", "");
    }

    /**
     * Storage over a lossy RoCE fabric: as {@link #overRdma}, and the port's out_of_sequence count
     * grows (packets dropped and retransmitted, what PFC on the wrong priority leads to). FabricErrors.
     */
    public static FixtureHost lossyRdma(FixtureHost host) {
        return steps(host, rdmaMoved(LOST_PACKETS), "", "");
    }

    /**
     * Storage over NVMe/TCP to a target the profile does not list: {@link #UNLISTED_NQN} at
     * {@value #UNLISTED_TARGET}:4420 connected over tcp as nvme2 from the node's address, its three
     * queue sockets carrying the recorded 64 MiB read, while mlx5_0/1's counters stand still.
     * DataOnTcp, whatever the configuration checks (which judge the profile's targets) say.
     */
    public static FixtureHost overTcp(FixtureHost host) {
        NvmeofFixtures.fabricsController(host, "nvme2", "tcp", "traddr=" + UNLISTED_TARGET + ",trsvcid=4420,src_addr="
                + host.identity().address() + "\n", UNLISTED_NQN, "live");
        String local = host.identity().address();
        return steps(host, Map.of(), nvmeTcp(false, local, UNLISTED_TARGET), nvmeTcp(true, local, UNLISTED_TARGET));
    }

    /**
     * The profile's NVMe-oF target connected over tcp ({@link NvmeofFixtures#targetOnTcp}): its queue
     * sockets from the controller's source address carry the recorded read while mlx5_0/1 moves
     * about 1 GB/s each way (the other storage still on RDMA). DataOnTcp, naming the target.
     */
    public static FixtureHost nvmeofTargetOnTcp(FixtureHost host) {
        String local = NvmeofFixtures.TARGET_TCP_SOURCE;
        String target = NvmeofFixtures.TARGET_ADDRESS;
        return steps(host, rdmaMoved(0), nvmeTcp(false, local, target), nvmeTcp(true, local, target));
    }

    /**
     * GPFS fell back to TCP for its GPU peer ({@link GpfsFixtures#tcpFallback}): the daemon's
     * connection to that peer (tscTcpPort 1191, {@code mmdiag --network}) receives 64 MB and sends 1 MB
     * in the window, while mlx5_0/1 moves about 1 GB/s each way (the NSD servers still over RDMA).
     * DataOnTcp, naming the GPFS node.
     */
    public static FixtureHost gpfsPeerOnTcp(FixtureHost host) {
        String dir = "/fixture/traffic";
        host.file(dir + "/mmdiag-network-before.txt", GpfsFixtures.mmdiagNetwork(host.identity(), GPFS_SENT_MB, GPFS_RECEIVED_MB))
                .file(dir + "/mmdiag-network-after.txt", GpfsFixtures.mmdiagNetwork(host.identity(), GPFS_SENT_MB + 1,
                        GPFS_RECEIVED_MB + 64));
        // the reading nsenter is about to print (mmdiag is asked first): after when its state file says so
        host.tool(GpfsFixtures.BIN + "/mmdiag").on("--network").runs(
                "if [ \"$(cat " + FixtureHost.shQuote(host.path(STATE).toString()) + " 2>/dev/null)\" = after ]; then\n"
                + "  cat " + FixtureHost.shQuote(host.path(dir + "/mmdiag-network-after.txt").toString()) + "\n"
                + "else\n"
                + "  cat " + FixtureHost.shQuote(host.path(dir + "/mmdiag-network-before.txt").toString()) + "\n"
                + "fi\n");
        return steps(host, rdmaMoved(0), "", "");
    }

    /**
     * A Lustre client reaching oss-1 by its tcp NID ({@link LustreFixtures#o2ibDown}): LNet's socklnd
     * socket from the client's tcp NI to {@link LustreFixtures#O2IB_DOWN_TCP_PEER}:988 receives 64 MiB
     * (the constructed sample) while mlx5_0/1 moves about 1 GB/s each way. DataOnTcp, naming Lustre.
     */
    public static FixtureHost lustrePeerOnTcp(FixtureHost host) {
        return steps(host, rdmaMoved(0), lustreTcp(false), lustreTcp(true));
    }

    /** The recorded NVMe/TCP queue sockets before or after the read, from {@code local} to {@code target}:4420. */
    private static String nvmeTcp(boolean after, String local, String target) {
        // the VM talked to its own target: peer first, then the local side
        return sockets(CounterSamples.ssRead(after).replace("192.0.2.1:4420", target + ":4420").replace("192.0.2.1:47", local + ":47"));
    }

    /** The constructed socklnd socket before or after its 64 MiB, with the Lustre fixture's addresses. */
    private static String lustreTcp(boolean after) {
        String table = CounterSamples.ss(CounterSamples.SS_LUSTRE_BEEGFS, after);
        String[] lines = sockets(table).split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(":988")) {
                return (lines[i] + "\n" + lines[i + 1] + "\n").replace("10.20.0.10:988", LustreFixtures.O2IB_DOWN_TCP_PEER + ":988")
                        .replace("10.20.0.5:", LustreFixtures.O2IB_DOWN_TCP_LOCAL + ":");
            }
        }
        throw new IllegalStateException(CounterSamples.SS_LUSTRE_BEEGFS + " has no socket to port 988");
    }

    /** A table's socket lines and their TCP_INFO lines: what follows the header, up to anything else (dd's summary). */
    private static String sockets(String table) {
        StringBuilder out = new StringBuilder();
        boolean inTable = false;
        for (String line : table.split("\n")) {
            if (line.startsWith("State ")) {
                inTable = true;
            } else if (inTable && (line.startsWith("ESTAB ") || line.startsWith("\t"))) {
                out.append(line).append('\n');
            } else if (inTable) {
                break;
            }
        }
        return out.toString();
    }

    /** The recorded port counters, those that move in the "after" reading, with their after values. */
    private static Map<String, Long> rdmaMoved(long lost) {
        Map<String, Long> after = new LinkedHashMap<>();
        for (String name : new String[] {"counters/port_xmit_data", "counters/port_rcv_data"}) {
            after.put(name, recorded(name) + GIGABYTE_DATA_UNITS);
        }
        for (String name : new String[] {"counters/port_xmit_packets", "counters/port_rcv_packets"}) {
            after.put(name, recorded(name) + GIGABYTE_PACKETS);
        }
        if (lost > 0) {
            after.put("hw_counters/out_of_sequence", recorded("hw_counters/out_of_sequence") + lost);
        }
        return after;
    }

    private static long recorded(String counter) {
        return Long.parseLong(Ttar.files(Samples.body(MLX5)).get(RECORDED_PORT + counter).strip());
    }

    /**
     * Lays out mlx5_0/1's recorded counters and the stepping nsenter: {@code moved} are the counters
     * (relative to the port) that differ in the "after" reading; the ss tables are ss's header and the
     * node's storage sockets before and after (none: "").
     */
    private static FixtureHost steps(FixtureHost host, Map<String, Long> moved, String socketsBefore, String socketsAfter) {
        Ttar.files(Samples.body(MLX5)).forEach((path, content) -> {
            if (path.startsWith(RECORDED_PORT)) {
                host.file(PORT + path.substring(RECORDED_PORT.length()), content);
            }
        });
        host.file("/fixture/traffic/ss-before.txt", SS_HEADER + socketsBefore).file("/fixture/traffic/ss-after.txt", SS_HEADER + socketsAfter);
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        moved.forEach((counter, value) -> {
            String file = FixtureHost.shQuote(host.path(PORT + counter).toString());
            before.append("  echo ").append(recorded(counter)).append(" > ").append(file).append('\n');
            after.append("  echo ").append(value).append(" > ").append(file).append('\n');
        });
        String state = FixtureHost.shQuote(host.path(STATE).toString());
        String dir = host.path("/fixture/traffic").toString();
        return host.script("/usr/bin/nsenter", "#!/bin/sh\n"
                + "# the probe's storage-counter reading: ss -tin in the host's network namespace\n"
                + "case \"$*\" in *' ss -tin '*) ;; *) echo \"nsenter stub: only ss -tin, not: $*\" >&2; exit 1 ;; esac\n"
                + "if [ \"$(cat " + state + " 2>/dev/null)\" = after ]; then\n"
                + "  echo before > " + state + "\n" + after
                + "  cat " + FixtureHost.shQuote(dir + "/ss-after.txt") + "\n"
                + "else\n"
                + "  echo after > " + state + "\n" + before
                + "  cat " + FixtureHost.shQuote(dir + "/ss-before.txt") + "\n"
                + "fi\n");
    }
}
