package io.rdmastorage.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short command to its end: argv, never a shell; bounded by a timeout; output captured. */
public final class Commands {

    private Commands() {
    }

    public static CommandResult run(Duration timeout, List<String> command) {
        return run(timeout, null, command);
    }

    /** {@code stdin} (may be null) is written to the command's standard input, which is then closed. */
    public static CommandResult run(Duration timeout, String stdin, List<String> command) {
        try {
            Process process = new ProcessBuilder(command).start();
            // Drain both streams concurrently so a chatty command never blocks on a full pipe.
            OutputCollector out = OutputCollector.start(process.getInputStream(), "command-stdout");
            OutputCollector err = OutputCollector.start(process.getErrorStream(), "command-stderr");
            try (OutputStream in = process.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeout);
            }
            return new CommandResult(process.exitValue(),
                    new String(out.bytes(5_000), StandardCharsets.UTF_8), new String(err.bytes(5_000), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }
}
