package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.CpuUsage;
import io.rdmastorage.probe.parse.FioJson;
import io.rdmastorage.probe.parse.ProcStat;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * fio's three read-only workloads on one file or block device, in order, with the host's
 * {@code /proc/stat} read just before and just after each: the part every acceptance target shares.
 * It stops at the first workload fio did not complete.
 */
final class FioWorkloads {

    static final String FIO = "fio";
    /** fio's start (device open, job setup) and its exit, on top of the workload's own runtime. */
    static final Duration FIO_SLACK = Duration.ofSeconds(30);
    static final String PROC_STAT = "/proc/stat";

    /**
     * What the workloads gave.
     *
     * @param numbers    per completed workload
     * @param problem    empty when all three completed; else the first failure, with what to do
     * @param bytes      what fio read over all of them (for the transport proof)
     * @param ios        how many reads that was
     * @param fioVersion fio's own version string, empty when no workload completed
     */
    record Measured(Map<Workload, AcceptanceReport.Numbers> numbers, String problem, long bytes, long ios, String fioVersion) {
    }

    private FioWorkloads() {
    }

    /**
     * @param fioRunner runs fio from the probe image with the given timeout
     * @param filename  fio's {@code --filename}: the block device or file, as the probe sees it
     */
    static Measured run(HostRoot host, Function<Duration, ToolRunner> fioRunner, AcceptanceSpec spec, String filename) {
        Map<Workload, AcceptanceReport.Numbers> numbers = new EnumMap<>(Workload.class);
        long bytes = 0;
        long ios = 0;
        String version = "";
        for (Workload workload : Workload.values()) {
            AcceptanceSpec.Run run = spec.run(workload);
            Optional<ProcStat> before = procStat(host);
            ToolResult fio = fioRunner.apply(Duration.ofSeconds(run.durationSeconds()).plus(FIO_SLACK))
                    .run(FIO, workload.fioArguments(run, filename));
            Optional<ProcStat> after = procStat(host);
            Optional<FioJson.Run> parsed = FioJson.parse(fio.stdout());
            if (!fio.succeeded() || parsed.isEmpty() || parsed.get().error() != 0 || !parsed.get().movedData()
                    || parsed.get().interrupted()) {
                return new Measured(numbers, workload.field() + ": " + problem(fio, parsed), bytes, ios, version);
            }
            FioJson.Run r = parsed.get();
            version = r.version();
            Optional<CpuUsage> cpu = before.flatMap(b -> after.flatMap(a -> CpuUsage.between(b, a)));
            numbers.put(workload, new AcceptanceReport.Numbers(r.iops(), r.bytesPerSecond(), r.p50Micros(), r.p99Micros(),
                    r.p999Micros(), cpu));
            bytes += r.ioBytes() > 0 ? r.ioBytes() : r.bytesPerSecond() * r.runtimeMillis() / 1000;
            ios += Math.max(r.totalIos(), 0);
        }
        return new Measured(numbers, "", bytes, ios, version);
    }

    /** The host's CPU counters now, for a run's CPU (also the verbs target's). */
    static Optional<ProcStat> procStat(HostRoot host) {
        return host.read(PROC_STAT).flatMap(ProcStat::parse);
    }

    private static String problem(ToolResult fio, Optional<FioJson.Run> parsed) {
        if (fio.ending() == ToolResult.Ending.NOT_FOUND) {
            return "fio not found in the probe image; install it there or point node-probe at it with --tool fio=PATH";
        }
        if (parsed.isPresent() && parsed.get().error() != 0) {
            return "fio's job ended with error " + parsed.get().error() + " (an errno): " + fio.problem();
        }
        int signal = parsed.map(FioJson.Run::signal).filter(s -> s != 0).orElse(FioJson.signal(fio.stderr()));
        if (parsed.isPresent() && (signal != 0 || (!fio.succeeded() && parsed.get().movedData()))) {
            // a partial run: say what it is and what it did, not that it did nothing
            return "fio was stopped " + (signal != 0 ? "by signal " + signal : "before the end") + " after "
                    + parsed.get().figures() + ": a partial run, not judged; " + fio.problem();
        }
        if (parsed.isPresent()) {
            return "fio completed no I/O: " + fio.problem();
        }
        return fio.succeeded() ? "fio printed no JSON result" : fio.problem();
    }
}
