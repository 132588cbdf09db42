package io.rdmastorage.probe.cli;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.probe.acceptance.AcceptanceJournal;
import io.rdmastorage.probe.host.ExecMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed command line:
 * {@code [SUBCOMMAND] [--host-root DIR] [--spec FILE|-] [--node NAME] [--exec-mode chroot|direct]
 * [--tool NAME=PATH]... [--output FILE] [--format json|text] [--tool-timeout DURATION] [--peer ADDR]
 * [--tcp-port N] [--bind ADDR] [--connect-timeout DURATION] [--counter-baseline JSON] [--run-uid UID]}.
 * Options take their value as the next argument or after '='.
 */
public record CliArguments(String command, String hostRoot, Optional<String> spec, Optional<String> node,
                           ExecMode execMode, Map<String, String> tools, Optional<String> output, Format format,
                           Duration toolTimeout, Optional<String> peer, int tcpPort, Optional<String> bind,
                           Duration connectTimeout, Optional<String> counterBaseline, Optional<String> runUid,
                           boolean help, boolean version) {

    public enum Format { JSON, TEXT }

    public static final String CHECK = "check";
    public static final String LATENCY_SERVER = "latency-server";
    public static final String LATENCY_CLIENT = "latency-client";
    public static final String ACCEPTANCE = "acceptance";
    public static final String ACCEPTANCE_SERVER = "acceptance-server";
    public static final String ACCEPTANCE_CLIENT = "acceptance-client";
    public static final String ACCEPTANCE_CLEANUP = "acceptance-cleanup";
    private static final List<String> COMMANDS = List.of(CHECK, LATENCY_SERVER, LATENCY_CLIENT, ACCEPTANCE,
            ACCEPTANCE_SERVER, ACCEPTANCE_CLIENT, ACCEPTANCE_CLEANUP);

    public static final Duration DEFAULT_TOOL_TIMEOUT = Duration.ofSeconds(30);
    /** perftest's own default out-of-band port; the TCP comparison listens on the next one. */
    public static final int DEFAULT_TCP_PORT = io.rdmastorage.contract.checks.VerbsLatency.DEFAULT_TCP_PORT;
    public static final int MIN_TCP_PORT = 1024;
    public static final int MAX_TCP_PORT = 65534;
    /** Long enough for a server pod that starts a little after its client was told to connect. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}");
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,6})(ms|s|m)");

    public static final String USAGE = """
            usage: node-probe [check] [--host-root DIR] [--spec FILE|-] [--node NAME]
                              [--exec-mode chroot|direct] [--tool NAME=PATH]... [--output FILE]
                              [--format json|text] [--tool-timeout DURATION]
                              [--counter-baseline JSON]
                   node-probe latency-server --spec FILE|- [--tcp-port N] [--bind ADDR] [options]
                   node-probe latency-client --peer ADDR --spec FILE|- [--tcp-port N]
                                             [--connect-timeout DUR] [options]
                   node-probe acceptance --spec FILE|- [--run-uid UID] [options]
                   node-probe acceptance-cleanup --run-uid UID [options]
                   node-probe acceptance-server --spec FILE|- [--tcp-port N] [options]
                   node-probe acceptance-client --peer ADDR --spec FILE|- [--tcp-port N]
                                                [--connect-timeout DUR] [options]

              --host-root DIR        the host's file system (default /; /host in the probe pod)
              --spec FILE|-          the profile's check spec as JSON (- = stdin); none = check what the node has
              --node NAME            node name for the report (default $NODE_NAME, then the host's hostname)
              --exec-mode MODE       chroot: run host tools inside the host root (default);
                                     direct: run <root>/<tool> as is (fixture roots with stub tools)
              --tool NAME=PATH       where a host tool is, as a host path (repeatable)
              --output FILE          also write the compact JSON report there (e.g. /dev/termination-log)
              --format json|text     what to print on stdout (default json)
              --tool-timeout DUR     kill a host tool after this long, e.g. 30s, 500ms, 2m (default 30s);
                                     latency-server waits at most this long for its client and the run
              --peer ADDR            latency-client: the latency-server's IP address
              --tcp-port N           latency-server and latency-client: perftest's out-of-band TCP port
                                     (ib_write_lat -p, 1024..65534, default 18515); the TCP comparison of
                                     the spec's latency.transportComparison uses N+1
              --bind ADDR            latency-server: the IP address the TCP comparison listens on (default all)
              --connect-timeout DUR  latency-client: re-run a connect the server refused every 500ms for
                                     this long (default 20s): the server may start a little later
              --counter-baseline JSON  check: the previous round's port error counters (the operator
                                     hands over the RdmaPortErrors details' baseline); none = a first round
              --run-uid UID          acceptance: write the run's journal (what it is about to change on the
                                     node) to /var/lib/rdma-storage-operator/acceptance/UID.json under the
                                     host root first; acceptance-cleanup: the run whose journal to undo

            acceptance: fio's read-only workloads (4 KiB random read at depth 1 and at depth, 1 MiB
              sequential read) on an NVMe-oF target once per transport, with the host's CPU from
              /proc/stat; the spec is an RdmaStorageAcceptance's (nvmeof, latency, iops, bandwidth);
              fio runs from the probe's own file system, nvme connect/disconnect from the host's;
              prints one JSON result; exit 0 when every transport was measured by itself, 1 otherwise
            acceptance-cleanup: undoes what a killed acceptance run left on the node, exactly as its
              journal recorded it (the controllers it connected, its file), nothing else; prints one
              JSON result; exit 0 when everything recorded is undone (the journal is then removed)
            acceptance-server, acceptance-client: the verbs target between two nodes (spec: verbs with
              device, port, iterations, durationSeconds): ib_write_lat and ib_write_bw, then fio's net
              engine over TCP with the same message sizes, on ports N..N+3 (default 18515..18518); the
              server waits for all four at once (--tool-timeout each); the client measures with this
              host's /proc/stat and prints the acceptance result document

            exit codes: 0 all checks True, 1 some check False or Unknown, 2 bad usage or spec, 3 internal failure
            """;

    public static CliArguments parse(List<String> args) throws UsageException {
        List<String> rest = new ArrayList<>(args);
        String command = CHECK;
        if (!rest.isEmpty() && !rest.get(0).startsWith("-")) {
            command = rest.remove(0);
            if (!COMMANDS.contains(command)) {
                throw new UsageException("unknown command '" + command + "'; expected one of " + COMMANDS);
            }
        }
        String hostRoot = "/";
        String spec = null;
        String node = null;
        ExecMode execMode = ExecMode.CHROOT;
        Map<String, String> tools = new LinkedHashMap<>();
        String output = null;
        Format format = Format.JSON;
        Duration toolTimeout = DEFAULT_TOOL_TIMEOUT;
        String peer = null;
        Integer tcpPort = null;
        String bind = null;
        Duration connectTimeout = null;
        String counterBaseline = null;
        String runUid = null;
        boolean help = false;
        boolean version = false;
        for (int i = 0; i < rest.size(); i++) {
            String arg = rest.get(i);
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "-h", "--help" -> help = true;
                case "--version" -> version = true;
                default -> {
                    if (value == null) {
                        if (i + 1 >= rest.size()) {
                            throw new UsageException(arg.startsWith("-") ? arg + " needs a value" : "unexpected argument '" + arg + "'");
                        }
                        value = rest.get(++i);
                    }
                    switch (arg) {
                        case "--host-root" -> hostRoot = nonEmpty(arg, value);
                        case "--spec" -> spec = nonEmpty(arg, value);
                        case "--node" -> node = nodeName(value);
                        case "--exec-mode" -> execMode = execMode(value);
                        case "--tool" -> tool(value, tools);
                        case "--output" -> output = nonEmpty(arg, value);
                        case "--format" -> format = format(value);
                        case "--tool-timeout" -> toolTimeout = duration(arg, value);
                        case "--peer" -> peer = ipAddress(arg, value);
                        case "--tcp-port" -> tcpPort = tcpPort(value);
                        case "--bind" -> bind = ipAddress(arg, value);
                        case "--connect-timeout" -> connectTimeout = duration(arg, value);
                        case "--counter-baseline" -> counterBaseline = nonEmpty(arg, value);
                        case "--run-uid" -> runUid = runUid(value);
                        default -> throw new UsageException("unknown option '" + arg + "'; see --help");
                    }
                }
            }
        }
        onlyFor("--peer", peer, command, List.of(LATENCY_CLIENT, ACCEPTANCE_CLIENT));
        onlyFor("--tcp-port", tcpPort, command, List.of(LATENCY_SERVER, LATENCY_CLIENT, ACCEPTANCE_SERVER, ACCEPTANCE_CLIENT));
        onlyFor("--bind", bind, command, List.of(LATENCY_SERVER));
        onlyFor("--connect-timeout", connectTimeout, command, List.of(LATENCY_CLIENT, ACCEPTANCE_CLIENT));
        onlyFor("--counter-baseline", counterBaseline, command, List.of(CHECK));
        onlyFor("--run-uid", runUid, command, List.of(ACCEPTANCE, ACCEPTANCE_CLEANUP));
        if (command.equals(ACCEPTANCE_CLEANUP) && runUid == null && !help) {
            throw new UsageException("acceptance-cleanup needs --run-uid UID: the run whose journal to undo");
        }
        if (command.equals(ACCEPTANCE) && spec == null && !help) {
            throw new UsageException("acceptance needs --spec FILE|- with an nvmeof section");
        }
        if ((command.equals(ACCEPTANCE_SERVER) || command.equals(ACCEPTANCE_CLIENT)) && spec == null && !help) {
            throw new UsageException(command + " needs --spec FILE|- with a verbs section");
        }
        if ((command.equals(LATENCY_CLIENT) || command.equals(ACCEPTANCE_CLIENT)) && peer == null && !help) {
            throw new UsageException(command + " needs --peer ADDR");
        }
        if (command.equals(ACCEPTANCE_SERVER) || command.equals(ACCEPTANCE_CLIENT)) {
            tcpPortRange(tcpPort);
        }
        return new CliArguments(command, hostRoot, Optional.ofNullable(spec), Optional.ofNullable(node), execMode,
                tools, Optional.ofNullable(output), format, toolTimeout, Optional.ofNullable(peer),
                tcpPort == null ? DEFAULT_TCP_PORT : tcpPort, Optional.ofNullable(bind),
                connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout, Optional.ofNullable(counterBaseline),
                Optional.ofNullable(runUid), help, version);
    }

    /** An option that only some commands understand is refused elsewhere rather than ignored. */
    private static void onlyFor(String option, Object value, String command, List<String> commands) throws UsageException {
        if (value != null && !commands.contains(command)) {
            String last = commands.get(commands.size() - 1);
            String others = String.join(", ", commands.subList(0, commands.size() - 1));
            throw new UsageException(option + " is only for " + (others.isEmpty() ? last : others + " and " + last));
        }
    }

    private static String nonEmpty(String option, String value) throws UsageException {
        if (value.isEmpty()) {
            throw new UsageException(option + " needs a non-empty value");
        }
        return value;
    }

    private static String nodeName(String value) throws UsageException {
        if (!Rules.isNodeName(value)) {
            throw new UsageException("--node: " + Rules.show(value) + " must be a Kubernetes node name (DNS name)");
        }
        return value;
    }

    private static String runUid(String value) throws UsageException {
        if (!AcceptanceJournal.isRunUid(value)) {
            throw new UsageException("--run-uid: " + Rules.show(value) + " must be a run's UID (letters, digits, dashes)");
        }
        return value;
    }

    private static ExecMode execMode(String value) throws UsageException {
        try {
            return ExecMode.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--exec-mode: " + e.getMessage());
        }
    }

    private static void tool(String value, Map<String, String> tools) throws UsageException {
        int eq = value.indexOf('=');
        String name = eq > 0 ? value.substring(0, eq) : "";
        String path = eq > 0 ? value.substring(eq + 1) : "";
        if (!TOOL_NAME.matcher(name).matches() || !path.startsWith("/") || path.contains("/../") || path.endsWith("/..")) {
            throw new UsageException("--tool: " + Rules.show(value) + " must be NAME=/absolute/host/path such as mmfsadm=/opt/gpfs/bin/mmfsadm");
        }
        tools.put(name, path);
    }

    private static Format format(String value) throws UsageException {
        return switch (value) {
            case "json" -> Format.JSON;
            case "text" -> Format.TEXT;
            default -> throw new UsageException("--format: must be json or text, got " + Rules.show(value));
        };
    }

    static Duration duration(String option, String value) throws UsageException {
        Matcher m = DURATION.matcher(value);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new UsageException(option + ": " + Rules.show(value) + " must be a positive duration such as 30s, 500ms or 2m");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
    }

    private static String ipAddress(String option, String value) throws UsageException {
        if (!Rules.isIpAddress(value)) {
            throw new UsageException(option + ": " + Rules.show(value) + " must be an IPv4 or IPv6 address");
        }
        return value;
    }

    /** The verbs target uses four ports from --tcp-port: all must be ports. */
    private static void tcpPortRange(Integer tcpPort) throws UsageException {
        if (tcpPort != null && tcpPort + VerbsWorkload.PORTS - 1 > MAX_TCP_PORT + 1) {
            throw new UsageException("--tcp-port: " + tcpPort + " leaves no room for the verbs target's "
                    + VerbsWorkload.PORTS + " ports (" + tcpPort + ".." + (tcpPort + VerbsWorkload.PORTS - 1) + ")");
        }
    }

    private static int tcpPort(String value) throws UsageException {
        int port = value.matches("[0-9]{1,5}") ? Integer.parseInt(value) : -1;
        if (port < MIN_TCP_PORT || port > MAX_TCP_PORT) {
            throw new UsageException("--tcp-port: " + Rules.show(value) + " must be a TCP port between " + MIN_TCP_PORT
                    + " and " + MAX_TCP_PORT + " (the TCP comparison uses the next one)");
        }
        return port;
    }
}
