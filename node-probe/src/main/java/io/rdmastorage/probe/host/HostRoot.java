package io.rdmastorage.probe.host;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Read-only view of the host's file system as seen under a root folder ({@code /host} in the probe
 * pod, {@code /} on a host, a plain folder in tests).
 *
 * <p>All paths given to it are absolute host paths ({@code /sys/class/nvme}); absolute symbolic
 * links found on the way are resolved inside the root, never against the probe's own file system,
 * so a host link such as {@code /usr/bin/gdscheck -> /usr/local/cuda/gds/tools/gdscheck} means the
 * same thing under {@code /host} as on the host.
 */
public final class HostRoot {

    private static final int MAX_LINK_HOPS = 40;
    /** Host files read by the probe are small; a bigger one is not what we think it is. */
    private static final long MAX_FILE_BYTES = 8L * 1024 * 1024;

    private final Path root;

    public HostRoot(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public boolean isSystemRoot() {
        return root.getParent() == null;
    }

    /** The real path of a host path, symbolic links resolved inside the root. */
    public Path resolve(String hostPath) {
        if (!hostPath.startsWith("/")) {
            throw new IllegalArgumentException("host path must be absolute: " + hostPath);
        }
        Deque<String> pending = new ArrayDeque<>(components(hostPath));
        List<String> resolved = new ArrayList<>();
        int hops = 0;
        while (!pending.isEmpty()) {
            String part = pending.pollFirst();
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (!resolved.isEmpty()) {
                    resolved.remove(resolved.size() - 1);
                }
                continue;
            }
            Path candidate = join(resolved).resolve(part);
            if (Files.isSymbolicLink(candidate) && hops++ < MAX_LINK_HOPS) {
                try {
                    String target = Files.readSymbolicLink(candidate).toString();
                    List<String> targetParts = components(target);
                    for (int i = targetParts.size() - 1; i >= 0; i--) {
                        pending.addFirst(targetParts.get(i));
                    }
                    if (target.startsWith("/")) {
                        resolved.clear();
                    }
                    continue;
                } catch (IOException e) {
                    // unreadable link: keep it as a plain component; reading it will fail cleanly
                }
            }
            resolved.add(part);
        }
        return join(resolved);
    }

    public boolean exists(String hostPath) {
        return Files.exists(resolve(hostPath), LinkOption.NOFOLLOW_LINKS);
    }

    public boolean isDirectory(String hostPath) {
        return Files.isDirectory(resolve(hostPath), LinkOption.NOFOLLOW_LINKS);
    }

    public boolean isExecutableFile(String hostPath) {
        Path p = resolve(hostPath);
        return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.isExecutable(p);
    }

    /** Whole file content, or empty when the file is absent, unreadable or too large. */
    public Optional<String> read(String hostPath) {
        // sysfs attributes report size 4096 regardless of content, so only a huge size is refused
        return readBytes(hostPath).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * A binary file's bytes as the kernel gives them to this reader, or empty when it is absent,
     * unreadable or too large: a sysfs {@code config} gives a reader without CAP_SYS_ADMIN only its first
     * 64 bytes, whatever size it reports.
     */
    public Optional<byte[]> readBytes(String hostPath) {
        Path p = resolve(hostPath);
        try {
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.size(p) > MAX_FILE_BYTES) {
                return Optional.empty();
            }
            return Optional.of(Files.readAllBytes(p));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /**
     * The end of a file, at most {@code maxBytes} and starting at a whole line: logs such as
     * {@code mmfs.log.latest} outgrow {@link #read}, and only their end is recent.
     */
    public Optional<String> readTail(String hostPath, int maxBytes) {
        Path p = resolve(hostPath);
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        try (SeekableByteChannel channel = Files.newByteChannel(p, LinkOption.NOFOLLOW_LINKS)) {
            long start = Math.max(0, channel.size() - maxBytes);
            channel.position(start);
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(maxBytes, channel.size()));
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // keep reading: a channel may return fewer bytes than asked
            }
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
            if (start > 0) {
                int nl = text.indexOf('\n');
                text = nl < 0 ? "" : text.substring(nl + 1);   // the first line was cut
            }
            return Optional.of(text);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** First line of a file with surrounding white space removed: the shape of a sysfs attribute. */
    public Optional<String> readAttribute(String hostPath) {
        return read(hostPath).map(s -> {
            int nl = s.indexOf('\n');
            return (nl >= 0 ? s.substring(0, nl) : s).strip();
        });
    }

    /**
     * Sorted names of the entries of a host directory; empty when it is absent or cannot be listed.
     * Absent and unlistable both read as "no entries" here: use it only where that is the evidence (a
     * subsystem class such as {@code /sys/class/infiniband} that is not there) or where the caller asked
     * {@link #isDirectory} first; where a count or a table is judged, {@link #entries} keeps them apart.
     */
    public List<String> list(String hostPath) {
        return entries(hostPath).orElse(List.of());
    }

    /**
     * Sorted names of the entries of a host directory; empty (no listing at all) when it is absent, not a
     * directory, or cannot be listed: a listing that failed is not an empty directory.
     */
    public Optional<List<String>> entries(String hostPath) {
        Path dir = resolve(hostPath);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return Optional.of(entries.map(e -> e.getFileName().toString()).sorted().toList());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** A directory with at least one entry: an empty one is often a mount point nothing was mounted on. */
    public boolean hasEntries(String hostPath) {
        Path dir = resolve(hostPath);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /**
     * The host path a link or directory really stands for, relative to the root, such as
     * {@code /sys/devices/pci0000:00/0000:00:01.0/0000:3b:00.0} for {@code /sys/class/infiniband/mlx5_0/device}.
     */
    public String hostRealPath(String hostPath) {
        Path real = resolve(hostPath);
        String relative = root.relativize(real).toString();
        return "/" + relative;
    }

    private Path join(List<String> parts) {
        Path p = root;
        for (String part : parts) {
            p = p.resolve(part);
        }
        return p;
    }

    private static List<String> components(String path) {
        List<String> parts = new ArrayList<>();
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                parts.add(part);
            }
        }
        return parts;
    }
}
