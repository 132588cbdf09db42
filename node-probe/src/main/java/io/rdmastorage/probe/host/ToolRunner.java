package io.rdmastorage.probe.host;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The only place that starts processes. Always an argv, never a shell; always bounded by a timeout;
 * a tool that is missing, hangs or cannot start gives a {@link ToolResult} that says so rather
 * than an exception.
 */
public class ToolRunner {

    /** Enough for `mmfsadm test verbs conn` on a 10,000-node cluster; beyond that we stop reading. */
    static final int MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
    private static final String NSENTER = "nsenter";
    /** The host's network namespace: its PID 1's, in the host's procfs. */
    private static final String HOST_NETNS = "/proc/1/ns/net";
    private static final String TOOL_PATH = "/usr/lpp/mmfs/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final HostRoot host;
    private final ToolLocator locator;
    private final ExecMode mode;
    private final Duration timeout;
    private final LinkReader linkReader;

    public ToolRunner(HostRoot host, ToolLocator locator, ExecMode mode, Duration timeout) {
        this(host, locator, mode, timeout, link -> Files.readSymbolicLink(link).toString());
    }

    ToolRunner(HostRoot host, ToolLocator locator, ExecMode mode, Duration timeout, LinkReader linkReader) {
        this.host = host;
        this.locator = locator;
        this.mode = mode;
        this.timeout = timeout;
        this.linkReader = linkReader;
    }

    /** How long a tool may run before it is killed (--tool-timeout). */
    public Duration timeout() {
        return timeout;
    }

    public Optional<String> locate(String tool) {
        return locator.find(tool);
    }

    public ToolResult run(String tool, String... args) {
        return run(tool, List.of(args));
    }

    public ToolResult run(String tool, List<String> args) {
        String shown = tool + (args.isEmpty() ? "" : " " + String.join(" ", args));
        Optional<String> hostPath = locator.find(tool);
        if (hostPath.isEmpty()) {
            return new ToolResult(tool, shown, ToolResult.Ending.NOT_FOUND, -1, "", "", Duration.ZERO);
        }
        List<String> argv = new ArrayList<>(args.size() + 3);
        if (mode == ExecMode.CHROOT && !host.isSystemRoot()) {
            argv.add("chroot");
            argv.add(host.root().toString());
            argv.add(hostPath.get());
        } else {
            argv.add(host.resolve(hostPath.get()).toString());
        }
        argv.addAll(args);
        return execute(tool, shown, argv);
    }

    /**
     * Runs {@code tool} in the host's network namespace: tools that ask the kernel about a netdev by
     * name over netlink ({@code dcb}, {@code mlnx_qos}) find no such device in the probe pod's own
     * namespace. Where the host's PID 1 (through the host root) is in another namespace than the
     * probe, through {@code nsenter --net=/proc/1/ns/net}; where it is the same one (a host-network
     * pod, the probe run on the host) or there is no {@code /proc/1} to enter (a fixture root), the
     * tool runs as {@link #run} runs it. Where PID 1's namespace is there but cannot be read (a
     * machine that keeps its init from root), the tool does not run at all: run in the pod's own
     * namespace it would report the pod's netdevs and sockets as the host's. Shown as the tool's own
     * command either way; a tool that is not there is NOT_FOUND under its own name, a host without
     * nsenter cannot start it.
     */
    public ToolResult runInHostNetwork(String tool, List<String> args) {
        String shown = tool + (args.isEmpty() ? "" : " " + String.join(" ", args));
        HostNetwork network = hostNetwork();
        if (network.problem().isPresent()) {
            return new ToolResult(tool, shown, ToolResult.Ending.START_FAILED, -1, "", network.problem().get(), Duration.ZERO);
        }
        if (!network.enter()) {
            return run(tool, args);
        }
        Optional<String> hostPath = locator.find(tool);
        if (hostPath.isEmpty()) {
            return new ToolResult(tool, shown, ToolResult.Ending.NOT_FOUND, -1, "", "", Duration.ZERO);
        }
        Optional<String> nsenter = locator.find(NSENTER);
        if (nsenter.isEmpty()) {
            return new ToolResult(tool, shown, ToolResult.Ending.START_FAILED, -1, "",
                    "nsenter (util-linux) not found under the host root: needed to reach the host's network namespace", Duration.ZERO);
        }
        List<String> argv = new ArrayList<>(args.size() + 5);
        if (mode == ExecMode.CHROOT && !host.isSystemRoot()) {
            argv.addAll(List.of("chroot", host.root().toString(), nsenter.get(), "--net=" + HOST_NETNS, hostPath.get()));
        } else {
            argv.addAll(List.of(host.resolve(nsenter.get()).toString(), "--net=" + host.root().resolve(HOST_NETNS.substring(1)),
                    host.resolve(hostPath.get()).toString()));
        }
        argv.addAll(args);
        return execute(tool, shown, argv);
    }

    /**
     * How a tool reaches the host's network: {@code enter} its namespace (it differs from the
     * probe's), or run as it is (the same namespace, or no {@code /proc/1} under the host root);
     * {@code problem} when PID 1's namespace is there but unreadable.
     */
    public record HostNetwork(boolean enter, Optional<String> problem) {
    }

    public HostNetwork hostNetwork() {
        Path hostNetns = host.root().resolve(HOST_NETNS.substring(1));
        if (Files.notExists(hostNetns, LinkOption.NOFOLLOW_LINKS)) {
            return new HostNetwork(false, Optional.empty());
        }
        // the namespace link is not resolved like a file path: its target (net:[4026531840]) is no path
        String target;
        try {
            target = linkReader.read(hostNetns);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            return new HostNetwork(false, Optional.of("cannot read the host's network namespace " + HOST_NETNS + " (" + why
                    + "), and the probe's own network namespace may not be the host's"));
        }
        String own;
        try {
            own = linkReader.read(Path.of(HOST_NETNS.replace("/1/", "/self/")));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            own = "";
        }
        return new HostNetwork(!target.equals(own), Optional.empty());
    }

    /** Reads a symbolic link's target; replaceable in tests, where PID 1's link cannot be made unreadable. */
    interface LinkReader {
        String read(Path link) throws IOException;
    }

    private ToolResult execute(String tool, String shown, List<String> argv) {
        long start = System.nanoTime();
        // no stdin: a tool that prompts gets EOF at once (Redirect.DISCARD is for output only and throws here)
        ProcessBuilder builder = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", TOOL_PATH);
        env.put("LC_ALL", "C");   // English, stable number formats: the parsers rely on it
        env.put("LANG", "C");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return new ToolResult(tool, shown, ToolResult.Ending.START_FAILED, -1, "", e.getMessage(), elapsed(start));
        }
        CompletableFuture<String> stdout = drain(process.getInputStream());
        CompletableFuture<String> stderr = drain(process.getErrorStream());
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
                return new ToolResult(tool, shown, ToolResult.Ending.TIMED_OUT, -1,
                        collect(stdout), collect(stderr), elapsed(start));
            }
            return new ToolResult(tool, shown, ToolResult.Ending.EXITED, process.exitValue(),
                    collect(stdout), collect(stderr), elapsed(start));
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            return new ToolResult(tool, shown, ToolResult.Ending.TIMED_OUT, -1, "", "interrupted", elapsed(start));
        }
    }

    /**
     * Children first: a stub or wrapper script that forked would otherwise keep our pipes open. Then
     * waits for them to be gone, so that what the caller does next (removing the file fio read) finds
     * no killed tool still at work ({@link ProcessExits}).
     */
    private static void kill(Process process) {
        List<ProcessHandle> killed = new ArrayList<>(process.descendants().toList());
        killed.add(process.toHandle());
        killed.forEach(ProcessHandle::destroyForcibly);
        ProcessExits.stillRunningAfter(killed, ProcessExits.GRACE);
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    if (buffer.size() < MAX_OUTPUT_BYTES) {
                        buffer.write(chunk, 0, Math.min(n, MAX_OUTPUT_BYTES - buffer.size()));
                    }
                }
            } catch (IOException e) {
                // the process was killed; keep what was read
            }
            result.complete(buffer.toString(StandardCharsets.UTF_8));
        }, "tool-output");
        reader.setDaemon(true);
        reader.start();
        return result;
    }

    private static String collect(CompletableFuture<String> output) {
        try {
            return output.get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } catch (ExecutionException | TimeoutException e) {
            return "";
        }
    }

    private static Duration elapsed(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
