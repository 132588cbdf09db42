package io.rdmastorage.probe.cli;

import io.rdmastorage.probe.check.CheckRunner;
import io.rdmastorage.probe.check.VerbsLatencyCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code node-probe latency-server} and {@code node-probe latency-client --peer ADDR}: one
 * {@code ib_write_lat} run with the spec's {@code latency} parameters, reported as the usual JSON
 * report with a single VerbsLatency check. The server waits for one client for at most
 * {@code --tool-timeout} (give it more than the default 30s when the client starts much later); a
 * client that finds no server yet tries again for {@code --connect-timeout}. Both use perftest's
 * out-of-band port {@code --tcp-port}, and the spec's transport comparison the port after it.
 */
final class LatencyCommand {

    private LatencyCommand() {
    }

    static int run(CliArguments cli, NodeProbe.Invocation invocation, PrintStream out) throws UsageException, IOException {
        if (invocation.context().spec().latency() == null) {
            throw new UsageException(cli.command() + " needs --spec with a latency section, such as "
                    + "{\"latency\":{\"device\":\"mlx5_0\",\"port\":1,\"maxTypicalMicros\":5}}");
        }
        VerbsLatencyCheck check = cli.peer().isPresent()
                ? VerbsLatencyCheck.client(cli.peer().get(), cli.tcpPort(), cli.connectTimeout())
                : VerbsLatencyCheck.server(cli.tcpPort(), cli.bind());
        return NodeProbe.emit(cli, invocation, new CheckRunner(List.of(check)).run(invocation.context()), out);
    }
}
