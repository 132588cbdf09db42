package io.rdmastorage.probe.acceptance;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.annotations.SaveError;

/**
 * A directory of the node held open by a descriptor, reached from the host root one component at a
 * time with {@code openat(O_PATH|O_DIRECTORY|O_NOFOLLOW)}: a component that is a symbolic link is
 * refused by the kernel at the moment it is opened, and once the descriptor is held, renaming any
 * component (to a link to {@code /run}, say) changes nothing about where the descriptor points. The
 * run's file is created with {@code openat(O_CREAT|O_EXCL|O_NOFOLLOW)} and removed with
 * {@code unlinkat}, both relative to the descriptor: the walk and the write are one operation on the
 * kernel's side, with no path resolved twice. Java reaches none of these calls, so they go through
 * jnr-ffi to the C library; a node where that cannot load gets no file at all, never the old path-based
 * fallback.
 */
final class HeldDirectory implements AutoCloseable {

    /** Linux's open flags; O_DIRECTORY and O_NOFOLLOW differ between x86-64 and arm64 (asm-generic). */
    static final int O_WRONLY = 01;
    static final int O_RDONLY = 0;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_NONBLOCK = 04000;
    static final int O_CLOEXEC = 02000000;
    static final int O_PATH = 010000000;
    static final int O_DIRECTORY = arm64() ? 040000 : 0200000;
    static final int O_NOFOLLOW = arm64() ? 0100000 : 0400000;
    static final int ENOENT = 2;
    static final int ENOTDIR = 20;
    static final int EEXIST = 17;
    static final int ELOOP = 40;
    private static final Map<Integer, String> ERRNO = Map.of(ENOENT, "ENOENT", 13, "EACCES", EEXIST, "EEXIST",
            ENOTDIR, "ENOTDIR", 21, "EISDIR", ELOOP, "ELOOP", 1, "EPERM", 30, "EROFS", 28, "ENOSPC");

    /** The C library's calls used here; each saves errno. */
    public interface LibC {
        @SaveError
        int open(String path, int flags, int mode);

        @SaveError
        int openat(int dirfd, String path, int flags, int mode);

        @SaveError
        int unlinkat(int dirfd, String path, int flags);

        int close(int fd);
    }

    /** The library, loaded once per process; a failed load is remembered (it will not get better). */
    private static final class Loaded {
        static final Loaded INSTANCE = load();
        final LibC libc;
        final jnr.ffi.Runtime runtime;
        final String problem;

        private Loaded(LibC libc, String problem) {
            this.libc = libc;
            this.runtime = libc == null ? null : jnr.ffi.Runtime.getRuntime(libc);
            this.problem = problem;
        }

        private static Loaded load() {
            try {
                return new Loaded(LibraryLoader.create(LibC.class).option(LibraryOption.LoadNow, true).failImmediately()
                        .load("c"), null);
            } catch (LinkageError | RuntimeException e) {
                return new Loaded(null, e.toString().lines().findFirst().orElse(e.getClass().getName()));
            }
        }
    }

    /**
     * The directory held, or why not.
     *
     * @param refusal why it cannot be used: a component is a link or not a directory, or the C library did not load
     * @param absent  whether a component does not exist or is no directory (the directory is gone, or was never made)
     */
    record Opened(Optional<HeldDirectory> directory, Optional<String> refusal, boolean absent) {
    }

    private final Loaded loaded;
    private final int fd;
    private final String hostPath;

    private HeldDirectory(Loaded loaded, int fd, String hostPath) {
        this.loaded = loaded;
        this.fd = fd;
        this.hostPath = hostPath;
    }

    /** Opens {@code directory} (a host path) under {@code hostRoot}, no component followed if it is a link. */
    static Opened open(Path hostRoot, String directory) {
        Loaded loaded = Loaded.INSTANCE;
        if (loaded.libc == null) {
            return new Opened(Optional.empty(), Optional.of("cannot open " + directory + " without following links: the C "
                    + "library did not load (" + loaded.problem + "); the run writes nothing"), false);
        }
        LibC libc = loaded.libc;
        int current = libc.open(hostRoot.toString(), O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
        if (current < 0) {
            return new Opened(Optional.empty(), Optional.of("cannot open the host root " + hostRoot + ": "
                    + errno(loaded)), false);
        }
        StringBuilder reached = new StringBuilder();
        List<String> parts = new ArrayList<>(List.of(directory.split("/")));
        parts.removeIf(String::isEmpty);
        for (String part : parts) {
            reached.append('/').append(part);
            int next = libc.openat(current, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
            int error = loaded.runtime.getLastError();
            libc.close(current);
            if (next < 0) {
                if (error == ENOENT) {
                    return new Opened(Optional.empty(), Optional.empty(), true);
                }
                // O_PATH|O_NOFOLLOW|O_DIRECTORY on a symbolic link fails ENOTDIR (ELOOP without O_PATH)
                boolean link = (error == ELOOP || error == ENOTDIR) && Files.isSymbolicLink(hostRoot.resolve(reached.substring(1)));
                if (link) {
                    return new Opened(Optional.empty(), Optional.of(reached + " is a symbolic link on the node; a run never "
                            + "writes through a link: name the directory itself in path.directory"), false);
                }
                return error == ENOTDIR ? new Opened(Optional.empty(), Optional.empty(), true)
                        : new Opened(Optional.empty(), Optional.of("cannot open " + reached + " on the node: " + name(error)), false);
            }
            current = next;
        }
        return new Opened(Optional.of(new HeldDirectory(loaded, current, reached.length() == 0 ? "/" : reached.toString())),
                Optional.empty(), false);
    }

    /** Whether anything of {@code name} is in the held directory (a link too: it is not followed). */
    boolean has(String name) {
        int entry = loaded.libc.openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
        if (entry >= 0) {
            loaded.libc.close(entry);
        }
        return entry >= 0;
    }

    /**
     * Creates {@code name} in the held directory, a new regular file only ({@code O_CREAT|O_EXCL|O_NOFOLLOW}:
     * nothing there, not even a dangling link, is opened or followed), and returns it for writing.
     *
     * @throws FileAlreadyExistsException when anything of that name is there
     */
    FileChannel createNew(String name) throws IOException {
        int file = loaded.libc.openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (file < 0) {
            int error = loaded.runtime.getLastError();
            if (error == EEXIST) {
                throw new FileAlreadyExistsException(hostPath + "/" + name);
            }
            throw new IOException("openat " + hostPath + "/" + name + ": " + name(error));
        }
        try {
            // the descriptor's own file, not a path resolved again: /proc/self/fd/N is the open file itself
            return FileChannel.open(Path.of("/proc/self/fd/" + file), StandardOpenOption.WRITE);
        } finally {
            loaded.libc.close(file);
        }
    }

    /**
     * Removes {@code name} from the held directory if it is a regular file ({@code openat} with
     * {@code O_NOFOLLOW} to look at it, then {@code unlinkat}, which never follows a link either).
     *
     * @return empty when removed; why not otherwise
     * @throws NoSuchFileException when nothing of that name is there
     */
    Optional<String> removeRegularFile(String name) throws NoSuchFileException {
        int file = loaded.libc.openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
        if (file < 0) {
            int error = loaded.runtime.getLastError();
            if (error == ENOENT) {
                throw new NoSuchFileException(hostPath + "/" + name);
            }
            return Optional.of(error == ELOOP ? "it is not a regular file now but a symbolic link (the run created a regular file)"
                    : "cannot open it: " + name(error));
        }
        try {
            if (!Files.isRegularFile(Path.of("/proc/self/fd/" + file))) {
                return Optional.of("it is not a regular file now (the run created one)");
            }
        } finally {
            loaded.libc.close(file);
        }
        if (loaded.libc.unlinkat(fd, name, 0) < 0) {
            int error = loaded.runtime.getLastError();
            if (error == ENOENT) {
                throw new NoSuchFileException(hostPath + "/" + name);
            }
            return Optional.of("unlinkat: " + name(error));
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        loaded.libc.close(fd);
    }

    private static String errno(Loaded loaded) {
        return name(loaded.runtime.getLastError());
    }

    static String name(int errno) {
        return ERRNO.getOrDefault(errno, "errno " + errno);
    }

    private static boolean arm64() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return arch.equals("aarch64") || arch.equals("arm64");
    }
}
