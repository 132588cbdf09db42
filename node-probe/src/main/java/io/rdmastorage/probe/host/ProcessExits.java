package io.rdmastorage.probe.host;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for processes the probe stopped to be gone. A SIGKILL takes effect only when a read in
 * flight returns (an NFS read on a loaded node: seconds), so a file such a process reads is removed
 * only after this wait: removed while it still reads it, NFS keeps it as a {@code .nfsXXXX}.
 */
public final class ProcessExits {

    /** How long processes get to end on SIGTERM, and again to be gone after SIGKILL. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    private ProcessExits() {
    }

    /** Waits up to {@code grace} for all of {@code processes} to exit; returns those still running. */
    public static List<ProcessHandle> stillRunningAfter(List<ProcessHandle> processes, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle process : processes) {
            try {
                process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // still running: the caller decides
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return processes.stream().filter(ProcessHandle::isAlive).toList();
    }
}
