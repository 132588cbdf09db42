package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.probe.acceptance.AcceptanceReport;
import io.rdmastorage.probe.acceptance.AcceptanceRun;
import io.rdmastorage.probe.acceptance.PathAcceptanceRun;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.contract.spec.SpecReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Function;

/**
 * {@code node-probe acceptance --spec FILE}: one {@link AcceptanceRun} (or {@link PathAcceptanceRun}
 * for a {@code path} target), printed (and written to
 * {@code --output}) as the compact acceptance result document. The host's {@code nvme} runs like
 * every host tool (chroot into {@code --host-root}); fio runs from the probe's own file system
 * (the probe image has it; a host need not), found in its PATH folders or at {@code --tool fio=PATH}.
 */
final class AcceptanceCommand {

    private AcceptanceCommand() {
    }

    static int run(CliArguments cli, InputStream stdin, PrintStream out) throws UsageException, IOException {
        long startNanos = System.nanoTime();
        Instant startedAt = Instant.now();
        AcceptanceSpec spec;
        try {
            spec = SpecReader.readAcceptance(NodeProbe.specText(cli.spec().orElseThrow(), stdin));
        } catch (InvalidSpecException e) {
            throw new UsageException("invalid spec: " + e.getMessage());
        }
        HostRoot host = NodeProbe.hostRoot(cli);
        ToolRunner hostTools = new ToolRunner(host, new ToolLocator(host, cli.tools()), cli.execMode(), cli.toolTimeout());
        HostRoot own = new HostRoot(Path.of("/"));
        ToolLocator ownTools = new ToolLocator(own, cli.tools());
        Function<Duration, ToolRunner> fio = timeout -> new ToolRunner(own, ownTools, ExecMode.DIRECT, timeout);
        AcceptanceRun.Outcome outcome = spec.path() != null ? new PathAcceptanceRun(host, hostTools, fio, spec).run()
                : new AcceptanceRun(host, hostTools, fio, spec).run();
        AcceptanceReport report = new AcceptanceReport(NodeProbe.nodeName(cli, host), NodeProbe.version(),
                outcome.fioVersion(), startedAt.truncatedTo(ChronoUnit.SECONDS).toString(),
                (System.nanoTime() - startNanos) / 1_000_000, outcome.transports(), outcome.disconnected(),
                outcome.cleanupProblems());
        String json = report.toJson();
        NodeProbe.emit(cli, json, json + "\n", out);
        return report.complete() ? ExitCode.ALL_TRUE : ExitCode.NOT_ALL_TRUE;
    }
}
