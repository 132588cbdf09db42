package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.VerbsLatency.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.PerftestLatency.Failed;
import io.rdmastorage.probe.parse.PerftestLatency.Measured;
import io.rdmastorage.probe.parse.PerftestLatency.Row;
import io.rdmastorage.probe.parse.PerftestLatency.Unrecognised;
import io.rdmastorage.probe.parse.PerftestLatency;
import io.rdmastorage.probe.spec.IpAddress;
import io.rdmastorage.probe.tcp.RetryWindow;
import io.rdmastorage.probe.tcp.TcpEchoServer;
import io.rdmastorage.probe.tcp.TcpPingPong;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RDMA write latency between two nodes, measured with perftest's {@code ib_write_lat}: one node runs
 * the server side ({@code node-probe latency-server}), the other the client side
 * ({@code node-probe latency-client --peer ADDR}); both print a verdict from their own side's table.
 * It needs a peer, so it is not one of {@link Checks#all()}: only the latency subcommands run it.
 *
 * <p>perftest flags used: {@code -d} device, {@code -i} HCA port, {@code -s} message size,
 * {@code -n} iterations, {@code -F} (do not let a CPU-frequency-scaling warning spoil the output),
 * {@code -p} the TCP port of the out-of-band exchange ({@code --tcp-port}, perftest's own default
 * 18515 unless told), and the client names the server's address last. The server waits for its
 * client for at most {@code --tool-timeout}. The two sides start independently, so a client whose
 * out-of-band connect fails (PeerUnreachable, mostly refused: the server is not listening yet) runs
 * again every 500 ms until {@code --connect-timeout} has passed since its first run; the details
 * say how often ({@code connectAttempts}).
 *
 * <p>With the spec's {@code transportComparison}, the pair also times a plain TCP ping-pong on the
 * next port ({@link TcpPingPong}: same size and count): the server listens before ib_write_lat
 * starts and keeps waiting for the client to come at most {@link #TCP_GRACE} after it, then for its
 * round trips within --tool-timeout ({@code tcpServed});
 * the client runs it after a successful measurement only and reports {@code tcpTypicalMicros},
 * {@code tcpP99Micros} and {@code rdmaSpeedup}, or {@code tcpError}. It never changes the verdict:
 * it shows what RDMA gains over the same pair, not whether the fabric is healthy.
 *
 * <p>Reasons: True {@code WithinThreshold}; False {@code AboveThreshold} (typical latency over
 * {@code maxTypicalMicros}), {@code PeerUnreachable} (the out-of-band TCP exchange with the other
 * side failed: no latency-server running, a firewall, a wrong address; a test set-up problem),
 * {@code RdmaPathFailed} (the two sides found each other over TCP but RDMA between them failed:
 * a completion error such as retry-exceeded, or the QP could not reach RTR/RTS; a fabric problem,
 * which is what this check exists to find, so it is kept apart from PeerUnreachable),
 * {@code DeviceMissing} (perftest has no such HCA); Unknown for a tool that could not answer.
 */
public final class VerbsLatencyCheck extends FactsCheck<VerbsLatencyCheck.Facts> {

    static final String TOOL = "ib_write_lat";
    /**
     * How long the server keeps its TCP listener after ib_write_lat for a client that has not come: the
     * client's comparison comes after its own run. A client that came has the rest of --tool-timeout.
     */
    static final Duration TCP_GRACE = Duration.ofSeconds(10);
    private static final String INSTALL = "Install perftest on the node (Debian/Ubuntu: `apt-get install perftest`, "
            + "RHEL: `dnf install perftest`) or point node-probe at it with --tool ib_write_lat=PATH";

    /**
     * What one side measured.
     *
     * @param run             the last ib_write_lat run
     * @param connectAttempts client side: how many runs it took (refused connects are tried again); 0 on the server
     * @param tcpServed       server side with the TCP comparison: whether the client's ping-pong was served
     * @param tcpError        why the TCP comparison could not be made (listen or ping-pong failed)
     * @param tcp             client side with the TCP comparison, after a measurement: the ping-pong's result
     */
    public record Facts(ToolResult run, int connectAttempts, Optional<Boolean> tcpServed, Optional<String> tcpError,
                        Optional<TcpPingPong.Result> tcp) {
    }

    /** The server's address for the client side; empty on the server side. */
    private final Optional<String> peer;
    /** perftest's out-of-band TCP port; the TCP comparison uses the next one. */
    private final int tcpPort;
    /** Server side: the address the TCP comparison listens on; empty = all addresses. */
    private final Optional<String> bind;
    /** Client side: how long after the first run a refused out-of-band connect is tried again. */
    private final Duration connectTimeout;

    private VerbsLatencyCheck(Optional<String> peer, int tcpPort, Optional<String> bind, Duration connectTimeout) {
        this.peer = peer;
        this.tcpPort = tcpPort;
        this.bind = bind;
        this.connectTimeout = connectTimeout;
    }

    /** The side that waits for one client ({@code node-probe latency-server}); {@code bind} is validated. */
    public static VerbsLatencyCheck server(int tcpPort, Optional<String> bind) {
        return new VerbsLatencyCheck(Optional.empty(), tcpPort, bind, Duration.ZERO);
    }

    /** The side that connects to the server at {@code peer}, an IP address already validated. */
    public static VerbsLatencyCheck client(String peer, int tcpPort, Duration connectTimeout) {
        return new VerbsLatencyCheck(Optional.of(peer), tcpPort, Optional.empty(), connectTimeout);
    }

    @Override
    public CheckType type() {
        return CheckType.VERBS_LATENCY;
    }

    @Override
    public boolean applies(ProbeContext context) {
        return context.spec().latency() != null;
    }

    /**
     * {@code -d mlx5_0 -i 1 -s 2 -n 1000 -F -p 18515 [peer]}: spec values as single argv elements,
     * validated by SpecValidator; the port by the command line.
     */
    static List<String> arguments(ProbeSpec.Latency spec, int tcpPort, Optional<String> peer) {
        List<String> args = new ArrayList<>(List.of("-d", spec.device(), "-i", String.valueOf(spec.port()),
                "-s", String.valueOf(spec.size()), "-n", String.valueOf(spec.iterations()), "-F",
                "-p", String.valueOf(tcpPort)));
        peer.ifPresent(args::add);
        return args;
    }

    @Override
    protected Facts gather(ProbeContext context) {
        ProbeSpec.Latency spec = context.spec().latency();
        if (peer.isPresent()) {
            RetryWindow retry = new RetryWindow(connectTimeout);
            ToolResult result = runTool(context, spec);
            while (peerUnreachable(result) && retry.pause()) {
                result = runTool(context, spec);
            }
            Optional<TcpPingPong.Result> tcp = Optional.empty();
            Optional<String> tcpError = Optional.empty();
            if (spec.transportComparison() && typicalRow(result, spec).isPresent()) {
                try {
                    tcp = Optional.of(TcpPingPong.run(peer.get(), tcpPort + 1, spec.size(), spec.iterations(),
                            context.tools().timeout()));
                } catch (IOException e) {
                    tcpError = Optional.of(String.valueOf(e.getMessage()));
                }
            }
            return new Facts(result, retry.attempts(), Optional.empty(), tcpError, tcp);
        }
        if (!spec.transportComparison()) {
            return new Facts(runTool(context, spec), 0, Optional.empty(), Optional.empty(), Optional.empty());
        }
        return serveWithComparison(context, spec);
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        ProbeSpec.Latency latency = spec.latency();
        Details details = parameters(latency);
        Finding finding = judge(latency, facts, details);
        if (peer.isPresent()) {
            details.put("connectAttempts", facts.connectAttempts());
        } else {
            facts.tcpServed().ifPresent(served -> details.put("tcpServed", served));
            facts.tcpError().ifPresent(error -> details.put("tcpError", error));
        }
        return Judgement.only(finding, details);
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    private ToolResult runTool(ProbeContext context, ProbeSpec.Latency spec) {
        return context.tools().run(TOOL, arguments(spec, tcpPort, peer));
    }

    private static boolean peerUnreachable(ToolResult result) {
        return result.ran() && PerftestLatency.parse(output(result)) instanceof Failed failed
                && failed.failure() == PerftestLatency.Failure.PEER_UNREACHABLE;
    }

    /** The measured row a verdict can rest on: the spec's message size, with a t_typical. */
    private static Optional<Row> typicalRow(ToolResult result, ProbeSpec.Latency spec) {
        if (!result.ran() || !(PerftestLatency.parse(output(result)) instanceof Measured measured)) {
            return Optional.empty();
        }
        return measured.row(spec.size()).filter(r -> r.tTypical() != null);
    }

    private static String output(ToolResult result) {
        return result.stdout() + "\n" + result.stderr();
    }

    /**
     * The server side with the TCP comparison: listening before ib_write_lat starts, because the
     * client comes to it as soon as its own run is over; never waiting beyond --tool-timeout in all.
     */
    private Facts serveWithComparison(ProbeContext context, ProbeSpec.Latency spec) {
        long start = System.nanoTime();
        TcpEchoServer echo;
        try {
            echo = TcpEchoServer.open(bind, tcpPort + 1, spec.size());
        } catch (IOException e) {
            return new Facts(runTool(context, spec), 0, Optional.of(false), Optional.of(String.valueOf(e.getMessage())),
                    Optional.empty());
        }
        try (echo) {
            ToolResult result = runTool(context, spec);
            Duration left = context.tools().timeout().minusNanos(System.nanoTime() - start);
            boolean served = result.succeeded() && echo.awaitServed(TCP_GRACE, left);
            return new Facts(result, 0, Optional.of(served), Optional.empty(), Optional.empty());
        }
    }

    /** The finding on one ib_write_lat run; adds the measured values to the details. */
    private Finding judge(ProbeSpec.Latency spec, Facts facts, Details details) {
        ToolResult result = facts.run();
        switch (result.ending()) {
            case NOT_FOUND -> {
                return ToolFindings.cannotTell(result, true, INSTALL);
            }
            case START_FAILED -> {
                return ToolFindings.cannotTell(result, true,
                        "Check that the host's ib_write_lat is an executable perftest binary");
            }
            case TIMED_OUT -> {
                return ToolFindings.cannotTell(result, true, peer.isPresent()
                        ? "Check that " + peer.get() + " is reachable from this node (`ping " + peer.get()
                                + "`) and that `node-probe latency-server` is running there, or raise --tool-timeout"
                        : "No latency client connected and finished in time: start `node-probe latency-client --peer "
                                + "<this node's address>` on the peer while the server waits, or raise --tool-timeout");
            }
            default -> {
                // EXITED: judged below from what perftest printed
            }
        }
        PerftestLatency.Result parsed = PerftestLatency.parse(output(result));
        if (parsed instanceof Failed failed) {
            return failed(failed, spec, result, details);
        }
        if (parsed instanceof Measured measured) {
            return measured(measured, spec, result, facts, details);
        }
        String why = ((Unrecognised) parsed).why();
        if (!result.succeeded()) {
            return ToolFindings.cannotTell(result, true,
                    "Run it by hand on this node to see perftest's error, and check `ibv_devinfo -d " + spec.device() + "`");
        }
        return ToolFindings.unparseable(result, "a perftest latency table (found " + why + ")");
    }

    private Finding measured(Measured measured, ProbeSpec.Latency spec, ToolResult result, Facts facts, Details b) {
        Optional<Row> found = measured.row(spec.size());
        if (found.isEmpty() || found.get().tTypical() == null) {
            String missing = found.isEmpty() ? "a row for " + spec.size() + "-byte messages" : "a t_typical column";
            return ToolFindings.unparseable(result, "a perftest latency table with " + missing);
        }
        Row row = found.get();
        double typical = row.tTypical();
        b.put("tMinMicros", row.tMin())
                .put("tTypicalMicros", row.tTypical())
                .put("tAvgMicros", row.tAvg())
                .put("p99Micros", row.p99())
                .put("p999Micros", row.p999())
                .put("linkType", measured.linkType().orElse(null));
        String measuredText = "typical RDMA write latency " + direction() + " is " + micros(typical) + " ("
                + spec.size() + "-byte messages, " + row.iterations() + " iterations, " + spec.device() + " port " + spec.port()
                + measured.linkType().map(l -> ", link type " + l).orElse("") + ")";
        String comparison = peer.isPresent() && spec.transportComparison()
                ? compareOverTcp(b, facts, typical) : "";
        if (typical <= spec.maxTypicalMicros()) {
            return Finding.passed(WITHIN_THRESHOLD, measuredText + ", within maxTypicalMicros "
                    + micros(spec.maxTypicalMicros()) + comparison);
        }
        return Finding.of(Status.FALSE, ABOVE_THRESHOLD, measuredText + ", above maxTypicalMicros "
                + micros(spec.maxTypicalMicros()) + comparison + ". Check that " + spec.device() + " port " + spec.port()
                + " runs at full rate on the intended fabric (`ibstat " + spec.device() + " " + spec.port()
                + "`; a soft-RoCE device or a link type of Ethernet without RoCE tuning is far slower), that the route "
                + "between the nodes has no extra switch hops, and that both nodes run with CPU power saving off "
                + "(`cpupower frequency-set -g performance`)");
    }

    /**
     * The client's TCP ping-pong with the server's echo on the next port: adds its details and
     * returns the clause the message gets. A failure is reported, never held against the fabric.
     */
    private static String compareOverTcp(Details b, Facts facts, double rdmaTypical) {
        if (facts.tcp().isEmpty()) {
            String error = facts.tcpError().orElse("not run");
            b.put("tcpError", error);
            return "; the TCP comparison failed: " + error;
        }
        TcpPingPong.Result tcp = facts.tcp().get();
        b.put("tcpTypicalMicros", tcp.typicalMicros())
                .put("tcpP99Micros", tcp.p99Micros())
                .put("tcpIterations", tcp.roundTrips());
        String clause = "; the same pair over TCP: " + micros(tcp.typicalMicros()) + " typical";
        if (rdmaTypical <= 0) {
            return clause;   // a speed-up over nothing is not a number
        }
        double speedup = Math.round(tcp.typicalMicros() / rdmaTypical * 10) / 10.0;
        b.put("rdmaSpeedup", speedup);
        return clause + (speedup >= 1 ? ", RDMA is " + plain(speedup) + "× faster"
                : ", RDMA is not faster here (" + plain(speedup) + "×)");
    }

    private Finding failed(Failed failed, ProbeSpec.Latency spec, ToolResult result, Details b) {
        b.put("command", result.command()).put("perftestError", failed.text());
        String said = " (perftest: " + failed.text() + ")";
        return switch (failed.failure()) {
            case DEVICE_MISSING -> Finding.of(Status.FALSE, DEVICE_MISSING, "perftest cannot find RDMA device "
                    + spec.device() + said + ". Check `ibv_devices` on this node and the profile's latency.device");
            case PEER_UNREACHABLE -> Finding.of(Status.FALSE, PEER_UNREACHABLE, peer.isPresent()
                    ? "ib_write_lat could not reach the latency server at " + IpAddress.withPort(peer.get(), tcpPort) + said
                            + ". Start `node-probe latency-server` on that node first, and make sure TCP port " + tcpPort
                            + " is open between the nodes"
                    : "the latency client broke off the out-of-band exchange" + said + ". Check the client's report, and "
                            + "that TCP port " + tcpPort + " is open between the nodes");
            case RDMA_CONNECTION, COMPLETION_ERROR -> Finding.of(Status.FALSE, RDMA_PATH_FAILED,
                    "the nodes reached each other over TCP but RDMA " + direction() + " failed" + said + ". Check that "
                            + spec.device() + " port " + spec.port() + " and the peer's port are ACTIVE on the same fabric "
                            + "and partition (`ibstat " + spec.device() + " " + spec.port() + "`), try `ibv_rc_pingpong -d "
                            + spec.device() + " -i " + spec.port() + "` between the nodes, and for RoCE check the GID index, "
                            + "MTU and PFC settings");
            case LOCAL_SETUP -> ToolFindings.cannotTell(result, true, "perftest could not set up " + spec.device()
                    + " on this node" + said + "; check `ibv_devinfo -d " + spec.device() + "` and the locked-memory limit "
                    + "(`ulimit -l`)");
        };
    }

    /** What every verdict carries: the peer and the parameters the measurement was made with. */
    private Details parameters(ProbeSpec.Latency spec) {
        return new Details().put("role", peer.isPresent() ? "client" : "server")
                .put("peer", peer.orElse(null))
                .put("device", spec.device())
                .put("port", spec.port())
                .put("sizeBytes", spec.size())
                .put("iterations", spec.iterations())
                .put("maxTypicalMicros", spec.maxTypicalMicros());
    }

    private String direction() {
        return peer.map(p -> "to " + p).orElse("from the latency client");
    }

    /** 5.0 → "5 µs", 191.96 → "191.96 µs". */
    private static String micros(double value) {
        return plain(value) + " µs";
    }

    /** 5.0 → "5", 19.8 → "19.8". */
    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
