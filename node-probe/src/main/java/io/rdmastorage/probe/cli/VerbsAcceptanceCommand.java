package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.probe.acceptance.AcceptanceReport;
import io.rdmastorage.probe.acceptance.VerbsAcceptanceClient;
import io.rdmastorage.probe.acceptance.VerbsAcceptanceServer;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.SpecReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code node-probe acceptance-server} and {@code node-probe acceptance-client --peer ADDR}: the two
 * sides of an acceptance run's verbs target ({@link VerbsAcceptanceServer}, {@link VerbsAcceptanceClient}).
 * perftest and fio run from the probe's own file system (the probe image has both), the counters
 * and /proc/stat are read through {@code --host-root}. The client prints the acceptance result
 * document; the server a short JSON of what it served, and exits 0 only when it served all four.
 */
final class VerbsAcceptanceCommand {

    private VerbsAcceptanceCommand() {
    }

    static int run(CliArguments cli, InputStream stdin, PrintStream out) throws UsageException, IOException {
        long startNanos = System.nanoTime();
        Instant startedAt = Instant.now();
        VerbsAcceptanceSpec spec;
        try {
            spec = SpecReader.readVerbsAcceptance(NodeProbe.specText(cli.spec().orElseThrow(), stdin));
        } catch (InvalidSpecException e) {
            throw new UsageException("invalid spec: " + e.getMessage());
        }
        HostRoot host = NodeProbe.hostRoot(cli);
        HostRoot own = new HostRoot(Path.of("/"));
        ToolLocator ownTools = new ToolLocator(own, cli.tools());
        String json;
        boolean complete;
        if (cli.command().equals(CliArguments.ACCEPTANCE_SERVER)) {
            Map<VerbsWorkload, String> served = new VerbsAcceptanceServer(
                    new ToolRunner(own, ownTools, ExecMode.DIRECT, cli.toolTimeout()), spec, cli.tcpPort()).serve();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("kind", "AcceptanceServerReport");
            doc.put("node", NodeProbe.nodeName(cli, host));
            Map<String, Object> runs = new LinkedHashMap<>();
            served.forEach((w, problem) -> runs.put(w.transport() + "-" + w.workload().field(),
                    problem.isEmpty() ? "served" : problem));
            doc.put("served", runs);
            json = Json.write(doc);
            complete = served.values().stream().allMatch(String::isEmpty);
        } else {
            ToolRunner hostTools = new ToolRunner(host, new ToolLocator(host, cli.tools()), cli.execMode(), cli.toolTimeout());
            VerbsAcceptanceClient.Outcome outcome = new VerbsAcceptanceClient(host, hostTools,
                    timeout -> new ToolRunner(own, ownTools, ExecMode.DIRECT, timeout), spec, cli.peer().orElseThrow(),
                    cli.tcpPort(), cli.connectTimeout()).run();
            AcceptanceReport report = new AcceptanceReport(NodeProbe.nodeName(cli, host), NodeProbe.version(),
                    outcome.toolVersions(), startedAt.truncatedTo(ChronoUnit.SECONDS).toString(),
                    (System.nanoTime() - startNanos) / 1_000_000, outcome.transports(), List.of(), List.of());
            json = report.toJson();
            complete = report.complete();
        }
        NodeProbe.emit(cli, json, json + "\n", out);
        return complete ? ExitCode.ALL_TRUE : ExitCode.NOT_ALL_TRUE;
    }
}
