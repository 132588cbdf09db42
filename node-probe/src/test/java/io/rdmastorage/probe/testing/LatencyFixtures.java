package io.rdmastorage.probe.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The VerbsLatency area of a fixture node (gpu-01, HCA mlx5_0 port 1 on InfiniBand): a stub
 * {@code /usr/bin/ib_write_lat} (Debian's perftest package) that answers exactly the argv node-probe
 * must give it for {@link #SPEC}; any other argv makes the stub exit 64, so a wrong command line
 * fails visibly.
 *
 * <p>The result tables are constructed, not captured: no public recording of {@code ib_write_lat}
 * over InfiniBand with 2-byte messages exists (the recorded ones are soft-RoCE at 64 bytes and
 * {@code ib_send_lat -a}). They follow the recorded write_lat banner and perftest's row format
 * (REPORT_FMT_LAT, tabs included), with mlx5 numbers in the range of the recorded ib_send_lat run.
 * The completion error's stderr is a recorded sample. {@link LatencyFabric} prints the same healthy
 * tables for any message size and iteration count.
 */
public final class LatencyFixtures {

    public static final String TOOL = "/usr/bin/ib_write_lat";
    /** gpu-02's address on the IPoIB network: the peer the client side measures against. */
    public static final String PEER = "10.10.0.12";
    /** The DESIGN.md example profile's latency section. */
    public static final String SPEC =
            "{\"latency\":{\"device\":\"mlx5_0\",\"port\":1,\"size\":2,\"iterations\":1000,\"maxTypicalMicros\":5}}";
    /** perftest's default out-of-band TCP port, which node-probe passes as {@code -p} unless told another. */
    public static final int TCP_PORT = 18515;
    private static final List<String> SERVER_ARGS =
            List.of("-d", "mlx5_0", "-i", "1", "-s", "2", "-n", "1000", "-F", "-p", String.valueOf(TCP_PORT));
    private static final Times HEALTHY_CLIENT = new Times(0.98, 4.83, 1.01, 1.02, 0.09, 1.10, 4.83);
    private static final Times HEALTHY_SERVER = new Times(0.97, 4.90, 1.00, 1.01, 0.10, 1.09, 4.90);

    private LatencyFixtures() {
    }

    /** The argv of the server side for {@link #SPEC}. */
    public static String[] serverArgs() {
        return SERVER_ARGS.toArray(String[]::new);
    }

    /** The argv of the client side for {@link #SPEC}: the server's address comes last. */
    public static String[] clientArgs() {
        List<String> args = new ArrayList<>(SERVER_ARGS);
        args.add(PEER);
        return args.toArray(String[]::new);
    }

    /** The client measures 1.01 µs typical to {@link #PEER}: well within 5 µs. */
    public static FixtureHost healthyClient(FixtureHost host) {
        host.tool(TOOL).on(clientArgs()).prints(output(false, HEALTHY_CLIENT));
        return host;
    }

    /** The server side of the same run: waits for its client, then prints its own table. */
    public static FixtureHost healthyServer(FixtureHost host) {
        host.tool(TOOL).on(serverArgs()).prints(output(true, HEALTHY_SERVER));
        return host;
    }

    /** The client measures 7.85 µs typical: above the 5 µs threshold (e.g. a congested or detoured route). */
    public static FixtureHost slowClient(FixtureHost host) {
        host.tool(TOOL).on(clientArgs()).prints(output(false, new Times(7.41, 19.66, 7.85, 7.93, 0.61, 9.87, 19.66)));
        return host;
    }

    /** No latency-server on the peer: the out-of-band TCP connect to port 18515 is refused. */
    public static FixtureHost unreachablePeer(FixtureHost host) {
        host.tool(TOOL).on(clientArgs()).exits(1, "", connectFailure(PEER + ":" + TCP_PORT));
        return host;
    }

    /** What ib_write_lat prints on stderr when its out-of-band connect to {@code peerAndPort} fails. */
    static String connectFailure(String peerAndPort) {
        // perftest's wording (perftest_communication.c, write_lat.c), with the newline PR 228 added
        return "Couldn't connect to " + peerAndPort + "\n"
                + "Unable to open file descriptor for socket connection\n Unable to init the socket connection\n";
    }

    /** Both sides exchanged QP data, then the first RDMA write failed with retry-exceeded (status 12). */
    public static FixtureHost completionError(FixtureHost host) {
        String stdout = tableHead(false);
        String stderr = Samples.body("perftest/failing_completion-error_status12_retry-exceeded_softiwarp-issue27.txt");
        host.tool(TOOL).on(clientArgs()).exits(1, stdout, stderr);
        return host;
    }

    /** ib_write_lat exits 0 but prints something that is not a table. */
    public static FixtureHost garbage(FixtureHost host) {
        host.tool(TOOL).on(clientArgs()).prints("ib_write_lat 6.22 (?) %% 0x7f 42\n~~~~\n");
        return host;
    }

    /** The server waits for a client that never comes. */
    public static FixtureHost hangingServer(FixtureHost host) {
        host.tool(TOOL).on(serverArgs()).hangs();
        return host;
    }

    private static final String RULE = "---------------------------------------------------------------------------------------\n";
    private static final String HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
            + "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";

    /**
     * One row's times. perftest's REPORT_FMT_LAT is
     * {@code " %-7lu %lu          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f"}:
     * the two counts ({@link #counts}), then these.
     */
    private record Times(double tMin, double tMax, double tTypical, double tAvg, double tStdev, double p99, double p999) {
        String afterCounts() {
            return String.format(Locale.ROOT, "          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
                    tMin, tMax, tTypical, tAvg, tStdev, p99, p999);
        }
    }

    /** The start of a REPORT_FMT_LAT row: message size and iterations, {@code " %-7lu %lu"}. */
    private static String counts(long bytes, long iterations) {
        return String.format(Locale.ROOT, " %-7d %d", bytes, iterations);
    }

    private static String output(boolean server, Times times) {
        return tableHead(server) + counts(2, 1000) + times.afterCounts() + RULE;
    }

    /** A side's table up to its row: what {@link LatencyFabric}'s stub prints before the counts it fills in. */
    static String tableHead(boolean server) {
        return banner(server) + RULE + HEADER;
    }

    /** A side's healthy table after its row's counts, the closing rule included. */
    static String healthyTail(boolean server) {
        return (server ? HEALTHY_SERVER : HEALTHY_CLIENT).afterCounts() + RULE;
    }

    /** The write_lat banner for mlx5_0 on IB; the server prints its waiting box first and no TX depth line. */
    private static String banner(boolean server) {
        return (server ? "\n************************************\n* Waiting for client to connect... *\n"
                + "************************************\n" : "")
                + RULE
                + "                    RDMA_Write Latency Test\n"
                + " Dual-port       : OFF          Device         : mlx5_0\n"
                + " Number of qps   : 1            Transport type : IB\n"
                + " Connection type : RC           Using SRQ      : OFF\n"
                + " PCIe relax order: ON\n"
                + " ibv_wr* API     : ON\n"
                + (server ? "" : " TX depth        : 1\n")
                + " Mtu             : 4096[B]\n"
                + " Link type       : IB\n"
                + " Max inline data : 220[B]\n"
                + " rdma_cm QPs     : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE
                + (server
                ? " local address: LID 0x0c QPN 0x0127 PSN 0x3a61f0 RKey 0x1fde00 VAddr 0x005581a6e3a000\n"
                + " remote address: LID 0x0b QPN 0x0129 PSN 0x9c0b4e RKey 0x1fdf00 VAddr 0x00562f0e7c4000\n"
                : " local address: LID 0x0b QPN 0x0129 PSN 0x9c0b4e RKey 0x1fdf00 VAddr 0x00562f0e7c4000\n"
                + " remote address: LID 0x0c QPN 0x0127 PSN 0x3a61f0 RKey 0x1fde00 VAddr 0x005581a6e3a000\n");
    }
}
