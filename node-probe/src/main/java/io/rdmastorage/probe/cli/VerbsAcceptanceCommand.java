package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.probe.acceptance.VerbsAcceptanceServer;
import io.rdmastorage.probe.acceptance.VerbsPeer;
import io.rdmastorage.probe.host.HostRoot;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code node-probe acceptance-server} and {@code node-probe acceptance-client --peer ADDR}: the two
 * sides of an acceptance run's verbs target ({@link VerbsAcceptanceServer} on the peer, the target
 * {@link VerbsPeer} measured from the run's node).
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
        VerbsAcceptanceSpec spec = NodeProbe.readSpec(cli.spec().orElseThrow(), stdin, SpecReader::readVerbsAcceptance);
        HostRoot host = NodeProbe.hostRoot(cli);
        if (!cli.command().equals(CliArguments.ACCEPTANCE_SERVER)) {
            return AcceptanceCommand.measure(cli, host, new VerbsPeer(AcceptanceCommand.tools(cli, host), spec,
                    cli.peer().orElseThrow(), cli.tcpPort(), cli.connectTimeout()), startedAt, startNanos, out);
        }
        Map<VerbsWorkload, String> served = new VerbsAcceptanceServer(
                AcceptanceCommand.ownTools(cli).apply(cli.toolTimeout()), spec, cli.tcpPort()).serve();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kind", "AcceptanceServerReport");
        doc.put("node", NodeProbe.nodeName(cli, host));
        Map<String, Object> runs = new LinkedHashMap<>();
        served.forEach((w, problem) -> runs.put(w.transport() + "-" + w.workload().field(),
                problem.isEmpty() ? "served" : problem));
        doc.put("served", runs);
        String json = Json.write(doc);
        NodeProbe.emit(cli, json, json + "\n", out);
        return served.values().stream().allMatch(String::isEmpty) ? ExitCode.ALL_TRUE : ExitCode.NOT_ALL_TRUE;
    }
}
