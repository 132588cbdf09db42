package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One long-running server process (etcd or kube-apiserver) whose output goes to a log file. */
final class ServerProcess implements AutoCloseable {

    private final String name;
    private final List<String> command;
    private final Process process;
    private final Path log;

    private ServerProcess(String name, List<String> command, Process process, Path log) {
        this.name = name;
        this.command = command;
        this.process = process;
        this.log = log;
    }

    static ServerProcess start(String name, List<String> command, Path log) {
        return start(name, command, log, ProcessBuilder.Redirect.to(log.toFile()));
    }

    private static ServerProcess start(String name, List<String> command, Path log, ProcessBuilder.Redirect output) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            return new ServerProcess(name, List.copyOf(command), process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command.get(0), e);
        }
    }

    /** SIGKILL, as a crash or an OOM kill ends it: no graceful shutdown. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The same command started again (same ports, data and certificates), its output appended to the log. */
    ServerProcess restart() {
        return start(name, command, log, ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    /** Fails with the end of the log when the process has died, so a broken start is explained. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; last log lines:\n" + logTail(40));
        }
    }

    String logTail(int lines) {
        return tail(log, lines);
    }

    /** The last {@code lines} lines of a log file, or why it could not be read. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    Path log() {
        return log;
    }

    /** SIGTERM, then SIGKILL if it has not stopped within a few seconds. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
