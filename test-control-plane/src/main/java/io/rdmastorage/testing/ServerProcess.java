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
    private final Process process;
    private final Path log;

    private ServerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ServerProcess start(String name, List<String> command, Path log) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            return new ServerProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command.get(0), e);
        }
    }

    /** Fails with the end of the log when the process has died, so a broken start is explained. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; last log lines:\n" + logTail(40));
        }
    }

    String logTail(int lines) {
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
