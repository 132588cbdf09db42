package io.rdmastorage.probe.acceptance;

import io.rdmastorage.probe.host.ProcessExits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The only write of a {@code path} acceptance run: one file of its own in the directory the run
 * names, for fio's read-only workloads to read. It is created with {@code O_CREAT|O_EXCL|O_NOFOLLOW}
 * relative to the directory held open from the host root without following any link
 * ({@link HeldDirectory}): a file, link or directory of that name already there is refused, never
 * overwritten or followed, and no component renamed to a link meanwhile can send it elsewhere; it is
 * removed relative to the same descriptor. It is filled
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

    private final Path hostRoot;
    private final String directory;
    private final String name;
    private final Path file;
    private final String hostPath;
    private final AcceptanceJournal journal;
    private final List<String> problems = new ArrayList<>();
    /** fio's time to end on SIGTERM, and again to be gone after SIGKILL: both within the pod's 30 s of grace. */
    static final Duration CHILDREN_GRACE = ProcessExits.GRACE;

    private final Thread shutdownHook = new Thread(this::stopChildrenAndRemove, "acceptance-file-remove");
    private boolean ours;
    /** The directory, held open from the file's creation to its removal: both happen relative to it. */
    private HeldDirectory held;

    /**
     * @param hostRoot  where the node's root is mounted in the probe's view
     * @param directory the directory on the node (a host path), as the run names it
     * @param name      the file's name, from the run ({@code rdmastorage-acceptance-<run>.fio})
     * @param hostPath  the file's path on the node, for messages and the record
     * @param journal   where the file is announced before it is created
     */
    public AcceptanceFile(Path hostRoot, String directory, String name, String hostPath, AcceptanceJournal journal) {
        this.hostRoot = hostRoot;
        this.directory = directory;
        this.name = name;
        this.file = hostRoot.resolve(directory.substring(1)).resolve(name);
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
        HeldDirectory.Opened opened = HeldDirectory.open(hostRoot, directory);
        if (opened.refusal().isPresent()) {
            return opened.refusal().get();
        }
        if (opened.directory().isEmpty()) {
            return "the directory of " + hostPath + " does not exist on the node (or is not a directory): create it, "
                    + "on the file system to measure, or correct path.directory";
        }
        held = opened.directory().get();
        if (held.has(name)) {
            return releaseHeld(alreadyExists());
        }
        String unrecorded = journal.creating(hostPath);
        if (!unrecorded.isEmpty()) {
            journal.removed();
            return releaseHeld(unrecorded);
        }
        FileChannel channel;
        try {
            channel = held.createNew(name);
        } catch (FileAlreadyExistsException e) {
            journal.removed();
            return releaseHeld(alreadyExists());
        } catch (IOException | SecurityException e) {
            journal.removed();
            return releaseHeld("cannot create " + hostPath + ": " + e.getMessage() + " (the run needs to write one file there)");
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

    /** Lets go of the held directory when no file of the run's was created in it; returns {@code problem}. */
    private String releaseHeld(String problem) {
        held.close();
        held = null;
        return problem;
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

    /**
     * At shutdown: the run's processes (fio, the counters' tools) are its only children; they go
     * first, and the file only once they are gone. SIGTERM, {@link #CHILDREN_GRACE} for fio to end its
     * jobs, then SIGKILL and the wait for it to take effect ({@link ProcessExits}): a JVM that exited
     * right after its SIGKILL left fio still reading the removed file.
     */
    private void stopChildrenAndRemove() {
        List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
        children.forEach(ProcessHandle::destroy);
        List<ProcessHandle> left = ProcessExits.stillRunningAfter(children, CHILDREN_GRACE);
        left.forEach(ProcessHandle::destroyForcibly);
        ProcessExits.stillRunningAfter(left, CHILDREN_GRACE);
        remove();
    }

    private synchronized void remove() {
        if (!ours) {
            return;
        }
        ours = false;
        try {
            Optional<String> kept = held.removeRegularFile(name);
            if (kept.isPresent()) {
                problems.add("did not remove " + hostPath + ": " + kept.get() + "; look at it by hand");
            } else {
                journal.removed();
            }
        } catch (NoSuchFileException gone) {
            journal.removed();
        } finally {
            held.close();
            held = null;
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
