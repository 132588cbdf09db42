package io.rdmastorage.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus's own {@code promtool}, to test alerting rules and PromQL with Prometheus's engine
 * rather than a look-alike. {@code fetch-promtool.sh} (shipped in this jar, also run by
 * {@code scripts/prerequisites.sh}) puts it into {@code ~/.cache/rdma-storage-operator/promtool/}
 * from the distribution's prometheus package, keyed by the package's version; a missing one is
 * fetched here, so a test needs no extra step.
 */
public final class Promtool {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static Promtool found;

    private final Path binary;

    private Promtool(Path binary) {
        this.binary = binary;
    }

    /** Finds promtool, fetching it first (a 20 MB download, once per machine) when absent. */
    public static synchronized Promtool ensure() {
        if (found == null) {
            found = new Promtool(Path.of(fetch()));
        }
        return found;
    }

    public Path binary() {
        return binary;
    }

    /** {@code promtool test rules FILE}: its unit tests of rules and expressions; exit 0 when every test passed. */
    public CommandResult testRules(Path testFile) {
        return run("test", "rules", testFile.toString());
    }

    /** {@code promtool check rules FILE}: the rule file's syntax and its expressions parse. */
    public CommandResult checkRules(Path ruleFile) {
        return run("check", "rules", ruleFile.toString());
    }

    public CommandResult run(String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        return exec(command, TIMEOUT);
    }

    private static String fetch() {
        try {
            Path script = Files.createTempFile("rso-fetch-promtool", ".sh");
            try (InputStream in = Promtool.class.getResourceAsStream("/io/rdmastorage/testing/fetch-promtool.sh")) {
                if (in == null) {
                    throw new IllegalStateException("fetch-promtool.sh missing from the classpath");
                }
                Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            }
            CommandResult result = exec(List.of("bash", script.toString()), Duration.ofMinutes(10));
            Files.deleteIfExists(script);
            System.err.print(result.stderr());   // its progress, when it fetched
            String path = result.orThrow("fetch-promtool.sh").strip();
            if (!Files.isExecutable(Path.of(path))) {
                throw new IllegalStateException("fetch-promtool.sh printed " + path + ", which is not an executable");
            }
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CommandResult exec(List<String> command, Duration timeout) {
        try {
            Process process = new ProcessBuilder(command).start();
            process.getOutputStream().close();
            OutputCollector out = OutputCollector.start(process.getInputStream(), "promtool-stdout");
            OutputCollector err = OutputCollector.start(process.getErrorStream(), "promtool-stderr");
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeout);
            }
            return new CommandResult(process.exitValue(), new String(out.bytes(5_000), StandardCharsets.UTF_8),
                    new String(err.bytes(5_000), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }
}
