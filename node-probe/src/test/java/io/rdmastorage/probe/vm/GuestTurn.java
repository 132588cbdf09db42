package io.rdmastorage.probe.vm;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * One TCG guest on the machine at a time, across test JVMs. {@code ./scripts/test.sh} builds the
 * modules two at a time, so node-probe-vm's guests and the operator's {@code RealKubeletVmIT}
 * would otherwise overlap: each guest keeps one to two cores busy, and on two cores the kubelet
 * tier's containerd then missed its deadline for handling a probe container's exit ("failed to
 * handle container TaskExit event ... context deadline exceeded") for minutes after the probe had
 * exited 0, until the probe timed out. The rest of the build (unit tests, the host's real node)
 * still runs beside a guest.
 *
 * <p>A JVM takes the turn at its first boot and keeps it until it exits (its guests boot one after
 * another anyway); the operating system releases the lock with the process, so a killed test JVM
 * never leaves it held.
 */
final class GuestTurn {

    /** Machine-wide: the cores are the machine's, whoever's home the caches are in. */
    private static final Path LOCK = Path.of(System.getProperty("java.io.tmpdir"), "rdma-storage-operator-vm-guest.lock");
    /** Longer than node-probe-vm's classes take on a slow host (about 25 minutes beside the unit tests). */
    private static final Duration MAX_WAIT = Duration.ofMinutes(60);

    private static FileLock held;

    private GuestTurn() {
    }

    /** Returns once this JVM holds the turn; waits, saying so, while another JVM's guest runs. */
    static synchronized void take() throws IOException, InterruptedException {
        if (held != null) {
            return;
        }
        FileChannel channel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long start = System.nanoTime();
        FileLock lock = channel.tryLock();
        if (lock == null) {
            System.err.println("vm-node: another test JVM's guest is running; waiting for its turn (" + LOCK + ")");
            while ((lock = channel.tryLock()) == null) {
                if (System.nanoTime() - start > MAX_WAIT.toNanos()) {
                    channel.close();
                    throw new IllegalStateException("another test JVM held " + LOCK + " for over " + MAX_WAIT
                            + ": its guest is still running (or hangs); see that module's vm-node/console.log");
                }
                Thread.sleep(2000);
            }
            System.err.printf("vm-node: the guest's turn came after %.0f s%n", (System.nanoTime() - start) / 1e9);
        }
        held = lock;
    }
}
