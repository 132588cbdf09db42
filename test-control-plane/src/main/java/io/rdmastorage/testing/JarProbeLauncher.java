package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real shaded jar, {@code java -jar node-probe.jar ARGS}, with the container's
 * environment: what a probe container does, one JVM per probe. A probe still running after the
 * timeout is killed and reported with exit code 137, as a SIGKILLed container would be.
 */
public final class JarProbeLauncher implements ProbeLauncher {

    private final Path jar;
    private final Duration timeout;

    public JarProbeLauncher(Path jar, Duration timeout) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("node-probe jar not found: " + jar + " (run mvn package first)");
        }
        this.jar = jar;
        this.timeout = timeout;
    }

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OutputCollector out = OutputCollector.start(process.getInputStream(), "probe-stdout");
        OutputCollector err = OutputCollector.start(process.getErrorStream(), "probe-stderr");
        try {
            int exit;
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                exit = process.exitValue();
            } else {
                process.destroyForcibly().waitFor();
                exit = 137;
            }
            return new CommandResult(exit, new String(out.bytes(5_000), StandardCharsets.UTF_8),
                    new String(err.bytes(5_000), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
    }
}
