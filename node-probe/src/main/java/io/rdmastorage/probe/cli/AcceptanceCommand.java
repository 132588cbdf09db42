package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.acceptance.AcceptanceCleanup;
import io.rdmastorage.probe.acceptance.AcceptanceJournal;
import io.rdmastorage.probe.acceptance.AcceptanceReport;
import io.rdmastorage.probe.acceptance.AcceptanceTarget;
import io.rdmastorage.probe.acceptance.TargetTools;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Function;

/**
 * {@code node-probe acceptance --spec FILE}: the spec's target ({@link AcceptanceTarget#of}: an
 * NVMe-oF subsystem or a directory) measured, printed (and written to {@code --output}) as the
 * compact acceptance result document. The host's {@code nvme} runs like every host tool (chroot into
 * {@code --host-root}); fio runs from the probe's own file system (the probe image has it; a host
 * need not), found in its PATH folders or at {@code --tool fio=PATH}.
 */
final class AcceptanceCommand {

    private AcceptanceCommand() {
    }

    static int run(CliArguments cli, InputStream stdin, PrintStream out) throws UsageException, IOException {
        long startNanos = System.nanoTime();
        Instant startedAt = Instant.now();
        AcceptanceSpec spec = NodeProbe.readSpec(cli.spec().orElseThrow(), stdin, SpecReader::readAcceptance);
        HostRoot host = NodeProbe.hostRoot(cli);
        return measure(cli, host, AcceptanceTarget.of(spec, tools(cli, host)), startedAt, startNanos, out);
    }

    /**
     * Measures {@code target} and prints its report, for every target's command alike; the exit
     * code says whether every transport was measured by itself and the run cleaned up.
     */
    static int measure(CliArguments cli, HostRoot host, AcceptanceTarget target, Instant startedAt, long startNanos,
                       PrintStream out) throws UsageException, IOException {
        AcceptanceTarget.Result measured = target.measure();
        AcceptanceReport report = new AcceptanceReport(NodeProbe.nodeName(cli, host), NodeProbe.version(),
                measured.toolVersions(), startedAt.truncatedTo(ChronoUnit.SECONDS).toString(),
                (System.nanoTime() - startNanos) / 1_000_000, measured.transports(), measured.disconnected(),
                measured.cleanupProblems());
        String json = report.toJson();
        NodeProbe.emit(cli, json, json + "\n", out);
        return report.complete() ? ExitCode.ALL_TRUE : ExitCode.NOT_ALL_TRUE;
    }

    /**
     * The host's tools, and the probe image's own (fio, perftest) with a timeout per run; with
     * {@code --run-uid}, the run's journal on the host ({@link AcceptanceJournal}).
     */
    static TargetTools tools(CliArguments cli, HostRoot host) {
        return new TargetTools(host, NodeProbe.hostTools(cli, host), ownTools(cli),
                cli.runUid().map(uid -> AcceptanceJournal.of(host, uid)).orElse(AcceptanceJournal.NONE));
    }

    /**
     * {@code node-probe acceptance-cleanup --run-uid UID}: undoes what run UID's journal on the
     * node records ({@link AcceptanceCleanup}) and prints what it undid; exit 0 when all of it is.
     * A {@code --spec} is accepted (the pod shape passes the run's) and not read: the journal alone
     * says what the run changed.
     */
    static int cleanup(CliArguments cli, PrintStream out) throws UsageException, IOException {
        HostRoot host = NodeProbe.hostRoot(cli);
        String runUid = cli.runUid().orElseThrow();
        AcceptanceCleanup.Result result = AcceptanceCleanup.run(host, NodeProbe.hostTools(cli, host), runUid);
        String json = result.toJson(NodeProbe.nodeName(cli, host), runUid);
        NodeProbe.emit(cli, json, json + "\n", out);
        return result.complete() ? ExitCode.ALL_TRUE : ExitCode.NOT_ALL_TRUE;
    }

    /** Runs the probe image's own tools (fio, perftest), not the host's, with the given timeout. */
    static Function<Duration, ToolRunner> ownTools(CliArguments cli) {
        HostRoot own = new HostRoot(Path.of("/"));
        ToolLocator locator = new ToolLocator(own, cli.tools());
        return timeout -> new ToolRunner(own, locator, ExecMode.DIRECT, timeout);
    }
}
