package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.check.CheckRunner;
import io.rdmastorage.probe.check.Checks;
import io.rdmastorage.probe.check.HostInventory;
import io.rdmastorage.probe.check.ProbeContext;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.report.Report;
import io.rdmastorage.probe.report.ReportJson;
import io.rdmastorage.probe.report.ReportText;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * node-probe's entry point. {@link #run} is the whole program without {@code System.exit}, so the
 * simulated kubelet of the tests can call it in-process with a pod's arguments.
 */
public final class NodeProbe {

    private NodeProbe() {
    }

    public static void main(String[] args) {
        // UTF-8 whatever the locale: the probe image has none, and Java 17's System.out would turn
        // the report's "µs" into "?" (seen when the image's rootfs ran on a real node, vm-node/)
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.exit(run(List.of(args), System.in, out, err));
    }

    /** Runs node-probe with the given arguments; returns its exit code (see {@link ExitCode}). */
    public static int run(List<String> args, InputStream stdin, PrintStream out, PrintStream err) {
        try {
            CliArguments cli = CliArguments.parse(args);
            if (cli.help()) {
                out.print(CliArguments.USAGE);
                return ExitCode.ALL_TRUE;
            }
            if (cli.version()) {
                out.println("node-probe " + version());
                return ExitCode.ALL_TRUE;
            }
            if (cli.command().equals(CliArguments.ACCEPTANCE)) {
                return AcceptanceCommand.run(cli, stdin, out);
            }
            if (cli.command().equals(CliArguments.ACCEPTANCE_CLEANUP)) {
                return AcceptanceCommand.cleanup(cli, out);
            }
            if (cli.command().equals(CliArguments.ACCEPTANCE_SERVER) || cli.command().equals(CliArguments.ACCEPTANCE_CLIENT)) {
                return VerbsAcceptanceCommand.run(cli, stdin, out);
            }
            Invocation invocation = prepare(cli, stdin);
            return switch (cli.command()) {
                case CliArguments.LATENCY_SERVER, CliArguments.LATENCY_CLIENT -> LatencyCommand.run(cli, invocation, out);
                default -> emit(cli, invocation, new CheckRunner(Checks.all()).run(invocation.context()), out);
            };
        } catch (UsageException e) {
            err.println("node-probe: " + e.getMessage());
            return ExitCode.USAGE;
        } catch (IOException | RuntimeException e) {
            err.println("node-probe: internal failure: " + e);
            return ExitCode.INTERNAL;
        }
    }

    /** What every command needs: the validated spec and a context over the host root. */
    record Invocation(ProbeContext context, long startNanos) {
    }

    static Invocation prepare(CliArguments cli, InputStream stdin) throws UsageException, IOException {
        long startNanos = System.nanoTime();
        Instant now = Instant.now();
        ProbeSpec spec = readSpec(cli.spec(), stdin);
        HostRoot host = hostRoot(cli);
        ProbeContext context = new ProbeContext(host, hostTools(cli, host), spec, cli.spec().isEmpty(), nodeName(cli, host), now,
                cli.counterBaseline());
        return new Invocation(context, startNanos);
    }

    static int emit(CliArguments cli, Invocation invocation, List<CheckResult> results, PrintStream out)
            throws IOException {
        ProbeContext context = invocation.context();
        Map<InventoryFact, String> inventory = HostInventory.gather(context);
        long millis = (System.nanoTime() - invocation.startNanos()) / 1_000_000;
        Report report = Report.of(context.node(), version(), context.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                millis, results, inventory);
        String compact = ReportJson.compact(report);
        emit(cli, compact, cli.format() == CliArguments.Format.TEXT ? ReportText.render(report) : compact + "\n", out);
        return ExitCode.of(report.status());
    }

    private static ProbeSpec readSpec(Optional<String> source, InputStream stdin) throws UsageException, IOException {
        return source.isEmpty() ? ProbeSpec.discover() : readSpec(source.get(), stdin, SpecReader::read);
    }

    /** How a command reads its spec document: one of the contract's {@code SpecReader} methods. */
    interface SpecParser<T> {
        T parse(String json) throws InvalidSpecException;
    }

    /** The --spec document read by the contract's rules; a document they refuse is bad usage (exit 2). */
    static <T> T readSpec(String source, InputStream stdin, SpecParser<T> parser) throws UsageException, IOException {
        String json = specText(source, stdin);
        try {
            return parser.parse(json);
        } catch (InvalidSpecException e) {
            throw new UsageException("invalid spec: " + e.getMessage());
        }
    }

    /** The document to {@code --output} (the pod's termination message) if given, and {@code shown} to stdout. */
    static void emit(CliArguments cli, String document, String shown, PrintStream out) throws IOException {
        if (cli.output().isPresent()) {
            Files.writeString(Path.of(cli.output().get()), document, StandardCharsets.UTF_8);
        }
        out.print(shown);
        out.flush();
    }

    /** {@code --host-root}, which must be a directory: every command reads the host through it. */
    static HostRoot hostRoot(CliArguments cli) throws UsageException {
        Path root = Path.of(cli.hostRoot());
        if (!Files.isDirectory(root)) {
            throw new UsageException("--host-root: " + Rules.show(cli.hostRoot()) + " is not a directory");
        }
        return new HostRoot(root);
    }

    /** Runs the host's tools as {@code --exec-mode}, {@code --tool} and {@code --tool-timeout} say. */
    static ToolRunner hostTools(CliArguments cli, HostRoot host) {
        return new ToolRunner(host, new ToolLocator(host, cli.tools()), cli.execMode(), cli.toolTimeout());
    }

    /** The --spec document: a file, or stdin for "-". */
    private static String specText(String source, InputStream stdin) throws UsageException, IOException {
        if (source.equals("-")) {
            return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            return Files.readString(Path.of(source), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--spec: " + Rules.show(source) + " does not exist");
        }
    }

    /** --node, else $NODE_NAME (the downward API in the pod), else the host's own name. */
    static String nodeName(CliArguments cli, HostRoot host) throws UsageException {
        if (cli.node().isPresent()) {
            return cli.node().get();
        }
        String env = System.getenv("NODE_NAME");
        if (env != null && !env.isBlank()) {
            if (!Rules.isNodeName(env)) {
                throw new UsageException("$NODE_NAME: " + Rules.show(env) + " must be a Kubernetes node name (DNS name)");
            }
            return env;
        }
        return host.readAttribute("/proc/sys/kernel/hostname")
                .or(() -> host.readAttribute("/etc/hostname"))
                .filter(Rules::isNodeName)
                .orElse("unknown");
    }

    static String version() {
        String v = NodeProbe.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
