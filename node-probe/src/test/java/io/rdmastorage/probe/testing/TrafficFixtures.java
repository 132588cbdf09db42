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
 * <p>Recorded: mlx5_0 port 1's {@code counters/} and {@code hw_counters/} (prometheus/procfs's
 * sysfs snapshot), the {@code ss -tin} tables of the NVMe/TCP queue sockets around a 64 MiB read
 * (this project's VM, with the local address changed to the node's own). Constructed: the RDMA
 * "after" reading, the recorded counters plus 1 GB each way (and, on the lossy fabric, 40 more
 * out-of-sequence packets); where TCP stays flat, both ss tables are the recorded "before" one.
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

    private TrafficFixtures() {
    }

    /** Storage over RDMA: mlx5_0/1 moves about 1 GB/s each way, storage TCP stays flat. DataOverRdma. */
    public static FixtureHost overRdma(FixtureHost host) {
        return steps(host, rdmaMoved(0), false);
    }

    /**
     * Storage over a lossy RoCE fabric: as {@link #overRdma}, and the port's out_of_sequence count
     * grows (packets dropped and retransmitted, what PFC on the wrong priority leads to). FabricErrors.
     */
    public static FixtureHost lossyRdma(FixtureHost host) {
        return steps(host, rdmaMoved(LOST_PACKETS), false);
    }

    /** No storage I/O: the recorded counters and sockets stand still. NoStorageTraffic (an idle node proves nothing). */
    public static FixtureHost idle(FixtureHost host) {
        return steps(host, Map.of(), false);
    }

    /**
     * Storage over NVMe/TCP: the recorded 64 MiB read on three queue sockets to 192.0.2.1:4420 while
     * mlx5_0/1's counters stand still. DataOnTcp, whatever the configuration checks say.
     */
    public static FixtureHost overTcp(FixtureHost host) {
        return steps(host, Map.of(), true);
    }

    /** The recorded ss table before or after the read, the local address (the VM talked to its own target) this node's. */
    private static String ss(FixtureHost host, boolean after) {
        return CounterSamples.ssRead(after).replace("192.0.2.1:47", host.identity().address() + ":47");
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
     * (relative to the port) that differ in the "after" reading; the sockets' bytes grow by the
     * recorded read when {@code tcpMoved}.
     */
    private static FixtureHost steps(FixtureHost host, Map<String, Long> moved, boolean tcpMoved) {
        Ttar.files(Samples.body(MLX5)).forEach((path, content) -> {
            if (path.startsWith(RECORDED_PORT)) {
                host.file(PORT + path.substring(RECORDED_PORT.length()), content);
            }
        });
        host.file("/fixture/traffic/ss-before.txt", ss(host, false)).file("/fixture/traffic/ss-after.txt", ss(host, tcpMoved));
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
