package io.rdmastorage.probe.acceptance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The only write of a {@code path} acceptance run: one file of its own in the directory the run
 * names, for fio's read-only workloads to read. It is created with {@code O_CREAT|O_EXCL} (a file,
 * link or directory of that name already there is refused, never overwritten or followed), filled
 * with pseudo-random data (zeros could be compressed or deduplicated away by the storage, and the
 * reads would then measure no media), and synced. {@link #close()} removes it again, and only it:
 * nothing else in the directory is touched. A JVM shutdown hook removes it when the pod is stopped
 * (its deadline, its deletion) in the middle of a run, after stopping fio: a file removed while fio
 * still reads it stays on an NFS mount as a silly-renamed {@code .nfsXXXX} until fio exits (seen on
 * the real kernel), and on any file system its space stays in use until then. The file's path is
 * written to the run's {@link AcceptanceJournal} before the file is created (once it was found
 * absent), and taken out once it is removed: a run killed in between leaves the journal, from which
 * {@code acceptance-cleanup} removes the file.
 */
public final class AcceptanceFile implements AutoCloseable {

    static final int BLOCK = 1024 * 1024;

    private final Path directory;
    private final Path file;
    private final String hostPath;
    private final AcceptanceJournal journal;
    private final List<String> problems = new ArrayList<>();
    /** How long fio gets to exit on SIGTERM before it is killed, within the pod's 30 s of grace. */
    static final Duration CHILDREN_GRACE = Duration.ofSeconds(5);

    private final Thread shutdownHook = new Thread(this::stopChildrenAndRemove, "acceptance-file-remove");
    private boolean ours;

    /**
     * @param directory the directory as the probe sees it (under its host root)
     * @param name      the file's name, from the run ({@code rdmastorage-acceptance-<run>.fio})
     * @param hostPath  the file's path on the node, for messages and the record
     * @param journal   where the file is announced before it is created
     */
    public AcceptanceFile(Path directory, String name, String hostPath, AcceptanceJournal journal) {
        this.directory = directory;
        this.file = directory.resolve(name);
        this.hostPath = hostPath;
        this.journal = journal;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The file as fio opens it (the probe's view). */
    public Path file() {
        return file;
    }

    /** Creates the file with {@code bytes} of data; empty when done, else why not (nothing is left behind). */
    public synchronized String layOut(long bytes) {
        if (!Files.isDirectory(directory)) {
            return "the directory of " + hostPath + " does not exist on the node (or is not a directory): create it, "
                    + "on the file system to measure, or correct path.directory";
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return alreadyExists();
        }
        String unrecorded = journal.creating(hostPath);
        if (!unrecorded.isEmpty()) {
            journal.removed();
            return unrecorded;
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (FileAlreadyExistsException e) {
            journal.removed();
            return alreadyExists();
        } catch (IOException | SecurityException e) {
            journal.removed();
            return "cannot create " + hostPath + ": " + e.getMessage() + " (the run needs to write one file there)";
        }
        ours = true;
        try (channel) {
            SplittableRandom random = new SplittableRandom();
            ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
            for (long written = 0; written < bytes; ) {
                block.clear();
                while (block.remaining() >= Long.BYTES) {
                    block.putLong(random.nextLong());
                }
                block.flip();
                block.limit((int) Math.min(BLOCK, bytes - written));
                while (block.hasRemaining()) {
                    written += channel.write(block);
                }
            }
            channel.force(true);
            return "";
        } catch (IOException e) {
            String problem = "could not lay out " + hostPath + " (" + bytes / BLOCK + " MiB): " + e.getMessage()
                    + "; check the free space and quota there, or lower path.fileSizeMiB";
            remove();
            return problem;
        }
    }

    private String alreadyExists() {
        return hostPath + " already exists; the run never overwrites a file. If it is left from an earlier run of "
                + "this name, remove it (rm " + hostPath + "), or give the run another name";
    }

    /** Removals that failed, each with the command to finish the cleanup. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    /** Whether this run created the file and has not removed it yet. */
    public synchronized boolean present() {
        return ours;
    }

    /** At shutdown: the run's processes (fio, the counters' tools) are its only children; they go first. */
    private void stopChildrenAndRemove() {
        List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + CHILDREN_GRACE.toNanos();
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                child.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                child.destroyForcibly();
            }
        }
        remove();
    }

    private synchronized void remove() {
        if (!ours) {
            return;
        }
        try {
            Files.deleteIfExists(file);
            ours = false;
            journal.removed();
        } catch (IOException | SecurityException e) {
            problems.add("could not remove " + hostPath + " (" + e.getMessage() + "); remove it by hand: rm " + hostPath);
            ours = false;
        }
    }

    @Override
    public void close() {
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing left to remove
        }
    }
}
