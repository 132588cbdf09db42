package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.CpuUsage;
import io.rdmastorage.probe.parse.FioJson;
import io.rdmastorage.probe.parse.PerftestBandwidth;
import io.rdmastorage.probe.parse.PerftestLatency;
import io.rdmastorage.probe.parse.ProcStat;
import io.rdmastorage.probe.tcp.RetryWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code verbs} target, a verbs link to a peer node, measured from the client side on the node
 * being measured (the peer runs {@link VerbsAcceptanceServer}): the four
 * {@link VerbsWorkload} runs against the server side on the peer, in order (rdma latency and
 * bandwidth with perftest, then the same over TCP with fio's {@code net} engine), with this host's
 * {@code /proc/stat} read just before and just after each run, and the RDMA port's counters around
 * each transport's two runs ({@link TransportProof#ofPort}).
 *
 * <p>The server starts all four listeners at once but may start after this side: a run whose
 * connection was refused (perftest's PeerUnreachable, fio's error 111) is made again every 500 ms
 * until the connect window has passed since the first attempt; the CPU window is that of the run
 * that was measured.
 */
public final class VerbsPeer implements AcceptanceTarget {

    /** Tool start, connection set-up and exit on top of a run's own length. */
    static final Duration SLACK = Duration.ofSeconds(30);
    /** A generous time per latency ping-pong for the tool's timeout (TCP under load, a slow soft-RoCE). */
    static final Duration PER_PING_PONG = Duration.ofMillis(1);
    static final int ECONNREFUSED = 111;
    static final List<String> TRANSPORTS = List.of("rdma", "tcp");
    private static final Set<Workload> WORKLOADS = EnumSet.of(Workload.LATENCY, Workload.BANDWIDTH);
    private static final Pattern INF = Pattern.compile("(?m)^\\s*\\d+\\s+\\d+\\s+inf\\s");

    private final TargetTools tools;
    private final VerbsAcceptanceSpec.Verbs verbs;
    private final String peer;
    private final int basePort;
    private final Duration connectWindow;
    private String perftestVersion = "";
    private String fioVersion = "";

    /**
     * @param tools perftest and fio among the probe image's own
     * @param peer  the server side's address, validated
     */
    public VerbsPeer(TargetTools tools, VerbsAcceptanceSpec spec, String peer, int basePort, Duration connectWindow) {
        this.tools = tools;
        this.verbs = spec.verbs();
        this.peer = peer;
        this.basePort = basePort;
        this.connectWindow = connectWindow;
    }

    /** Both transports' runs and the tools' versions; the run connects nothing, so there is nothing to undo. */
    @Override
    public Result measure() {
        List<AcceptanceReport.TransportRun> runs = new ArrayList<>();
        for (String transport : TRANSPORTS) {
            runs.add(measure(transport));
        }
        List<String> versions = new ArrayList<>();
        if (!perftestVersion.isEmpty()) {
            versions.add("perftest " + perftestVersion);
        }
        if (!fioVersion.isEmpty()) {
            versions.add(fioVersion);
        }
        return new Result(runs, List.of(), List.of(), String.join(", ", versions));
    }

    private AcceptanceReport.TransportRun measure(String transport) {
        DevicePort port = new DevicePort(verbs.device(), verbs.port());
        StorageCounters counters = tools.counters(
                new StorageCounters.Scope(List.of(port), List.of(), Set.of(), false));
        String device = transport.equals("rdma") ? port.toString() : "TCP to " + peer;
        Map<Workload, AcceptanceReport.Numbers> numbers = new EnumMap<>(Workload.class);
        CounterSnapshot before = counters.read();
        long bytes = 0;
        long messages = 0;
        for (VerbsWorkload w : VerbsWorkload.values()) {
            if (!w.transport().equals(transport)) {
                continue;
            }
            WorkloadRun m = run(w);
            if (!m.problem().isEmpty()) {
                return new AcceptanceReport.TransportRun(transport, "", device, false, numbers,
                        w.workload().field() + " (" + w.tool() + "): " + m.problem(), "", WORKLOADS);
            }
            numbers.put(w.workload(), m.numbers());
            bytes += m.bytes();
            messages += m.messages();
        }
        TransportProof proof = TransportProof.ofPort(transport,
                TransportTraffic.of(new CounterWindow(before, counters.read()), List.of(port.toString())), bytes, messages);
        return new AcceptanceReport.TransportRun(transport, "", device, false, numbers, proof.problem(), proof.summary(),
                WORKLOADS);
    }

    /** One run's numbers and what it moved, or why there are none. */
    private record WorkloadRun(AcceptanceReport.Numbers numbers, long bytes, long messages, String problem) {
        static WorkloadRun failed(String problem) {
            return new WorkloadRun(null, 0, 0, problem);
        }
    }

    private WorkloadRun run(VerbsWorkload w) {
        Duration length = w.workload() == Workload.LATENCY ? PER_PING_PONG.multipliedBy(verbs.iterations())
                : Duration.ofSeconds(verbs.durationSeconds());
        ToolRunner runner = tools.ownTools().apply(length.plus(SLACK));
        List<String> args = w.clientArguments(verbs, peer, basePort);
        RetryWindow retry = new RetryWindow(connectWindow);
        while (true) {
            Optional<ProcStat> before = FioWorkloads.procStat(tools.host());
            ToolResult result = runner.run(w.tool(), args);
            Optional<ProcStat> after = FioWorkloads.procStat(tools.host());
            Optional<CpuUsage> cpu = before.flatMap(b -> after.flatMap(a -> CpuUsage.between(b, a)));
            if (refused(w, result) && retry.pause()) {
                continue;
            }
            return w.perftest() ? perftest(w, result, cpu) : fio(w, result, cpu);
        }
    }

    private static boolean refused(VerbsWorkload w, ToolResult result) {
        if (!result.ran()) {
            return false;
        }
        if (w.perftest()) {
            return PerftestLatency.parse(output(result)) instanceof PerftestLatency.Failed f
                    && f.failure() == PerftestLatency.Failure.PEER_UNREACHABLE;
        }
        return FioJson.parseWrite(result.stdout()).map(r -> r.error() == ECONNREFUSED).orElse(false);
    }

    private WorkloadRun perftest(VerbsWorkload w, ToolResult result, Optional<CpuUsage> cpu) {
        if (!result.ran()) {
            return WorkloadRun.failed(result.problem());
        }
        if (perftestVersion.isEmpty()) {
            ToolResult version = tools.ownTools().apply(SLACK).run(w.tool(), "-V");
            perftestVersion = version.stdout().strip().replaceFirst("^Version:\\s*", "");
            perftestVersion = perftestVersion.length() > 20 || perftestVersion.contains("\n") ? "" : perftestVersion;
        }
        if (w.workload() == Workload.LATENCY) {
            PerftestLatency.Result parsed = PerftestLatency.parse(output(result));
            if (parsed instanceof PerftestLatency.Measured m && m.row(w.messageBytes()).filter(r -> r.tTypical() != null).isPresent()) {
                PerftestLatency.Row row = m.row(w.messageBytes()).get();
                double roundTripsPerSecond = row.tAvg() == null || row.tAvg() <= 0 ? 0 : 1e6 / (2 * row.tAvg());
                return new WorkloadRun(new AcceptanceReport.Numbers(roundTripsPerSecond, 0, row.tTypical(), row.p99(),
                        row.p999(), cpu), 2L * row.iterations() * w.messageBytes(), 2L * row.iterations(), "");
            }
            return WorkloadRun.failed(parsed instanceof PerftestLatency.Failed f ? "perftest: " + f.text()
                    : "no " + w.messageBytes() + "-byte row in ib_write_lat's output (" + why(parsed) + ")" + timing(result)
                    + "; " + result.problem());
        }
        PerftestBandwidth.Result parsed = PerftestBandwidth.parse(output(result));
        if (parsed instanceof PerftestBandwidth.Measured m && m.row(w.messageBytes()).isPresent()
                && m.row(w.messageBytes()).get().averageBytesPerSecond() <= 0) {
            PerftestBandwidth.Row row = m.row(w.messageBytes()).get();
            return WorkloadRun.failed("ib_write_bw measured no bandwidth (" + row.iterations() + " messages, BW average 0.00 "
                    + "in the " + verbs.durationSeconds() + " s run less perftest's 2 s margins at either end)" + timing(result));
        }
        if (parsed instanceof PerftestBandwidth.Measured m && m.row(w.messageBytes()).isPresent()) {
            PerftestBandwidth.Row row = m.row(w.messageBytes()).get();
            double rate = row.messagesPerSecond() != null && row.messagesPerSecond() > 0 ? row.messagesPerSecond()
                    : row.averageBytesPerSecond() / w.messageBytes();
            long moved = (long) (row.averageBytesPerSecond() * verbs.durationSeconds());
            return new WorkloadRun(new AcceptanceReport.Numbers(rate, (long) row.averageBytesPerSecond(), null, null, null, cpu),
                    moved, moved / w.messageBytes(), "");
        }
        return WorkloadRun.failed(parsed instanceof PerftestBandwidth.NotMeasured n ? "perftest: " + n.why()
                : "no " + w.messageBytes() + "-byte row in ib_write_bw's output" + timing(result) + "; " + result.problem());
    }

    private WorkloadRun fio(VerbsWorkload w, ToolResult result, Optional<CpuUsage> cpu) {
        Optional<FioJson.Run> parsed = FioJson.parseWrite(result.stdout());
        if (!result.succeeded() || parsed.isEmpty() || parsed.get().error() != 0 || !parsed.get().movedData()
                || parsed.get().interrupted()) {
            String why = result.ending() == ToolResult.Ending.NOT_FOUND ? "fio not found in the probe image"
                    : parsed.isPresent() && parsed.get().error() != 0 ? "fio's job ended with error " + parsed.get().error()
                    + " (an errno; 111: nothing listened on " + peer + " port " + w.port(basePort) + ")"
                    : parsed.isPresent() && parsed.get().movedData() ? "fio was stopped after " + parsed.get().figures()
                    + ": a partial run, not judged; " + result.problem() : result.problem();
            return WorkloadRun.failed(why);
        }
        FioJson.Run r = parsed.get();
        fioVersion = r.version();
        if (w.workload() == Workload.LATENCY) {
            // a ping-pong's completion latency is the whole round trip; perftest reports half of it
            return new WorkloadRun(new AcceptanceReport.Numbers(r.iops(), 0, half(r.p50Micros()), half(r.p99Micros()),
                    half(r.p999Micros()), cpu), 2L * Math.max(r.totalIos(), 0) * w.messageBytes(), 2L * Math.max(r.totalIos(), 0), "");
        }
        return new WorkloadRun(new AcceptanceReport.Numbers(r.iops(), r.bytesPerSecond(), null, null, null, cpu),
                r.bytesPerSecond() * r.runtimeMillis() / 1000, Math.max(r.totalIos(), 0), "");
    }

    private static Double half(Double micros) {
        return micros == null ? null : micros / 2;
    }

    private static String why(PerftestLatency.Result parsed) {
        return parsed instanceof PerftestLatency.Unrecognised u ? u.why() : "a table without that row";
    }

    /** perftest times with the CPU's cycle counter; a noisy frequency sample leaves every statistic inf. */
    private static String timing(ToolResult result) {
        return INF.matcher(result.stdout()).find() ? "; perftest printed inf: its CPU-frequency sample failed (a loaded or "
                + "virtual CPU), so it could not time the run; run it again" : "";
    }

    private static String output(ToolResult result) {
        return result.stdout() + "\n" + result.stderr();
    }
}
