package io.rdmastorage.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real kubectl binary, pointed at one control plane through its kubeconfig file. */
public final class Kubectl {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Path binary;
    private final Path kubeconfig;

    public Kubectl(Path binary, Path kubeconfig) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
    }

    /** Runs {@code kubectl ARGS...}; never throws on a non-zero exit (see {@link CommandResult#orThrow}). */
    public CommandResult run(String... args) {
        return run(null, List.of(args));
    }

    /** Runs kubectl with {@code stdin} as its standard input, e.g. {@code apply -f -}. */
    public CommandResult runWithInput(String stdin, String... args) {
        return run(stdin, List.of(args));
    }

    public CommandResult apply(Path fileOrDirectory) {
        return run("apply", "-f", fileOrDirectory.toString());
    }

    public CommandResult applyYaml(String yaml) {
        return runWithInput(yaml, "apply", "-f", "-");
    }

    private CommandResult run(String stdin, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).start();
            // Drain both streams concurrently so a chatty kubectl never blocks on a full pipe.
            OutputCollector out = OutputCollector.start(process.getInputStream(), "kubectl-stdout");
            OutputCollector err = OutputCollector.start(process.getErrorStream(), "kubectl-stderr");
            try (OutputStream in = process.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kubectl " + args + " did not finish within " + TIMEOUT);
            }
            return new CommandResult(process.exitValue(),
                    new String(out.bytes(5_000), StandardCharsets.UTF_8), new String(err.bytes(5_000), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running kubectl", e);
        }
    }
}
