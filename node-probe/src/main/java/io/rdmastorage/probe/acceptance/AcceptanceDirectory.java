package io.rdmastorage.probe.acceptance;

import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.ProcMounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;

/**
 * Where a {@code path} run may write its one file, checked on the node before anything is written:
 * <ul>
 * <li>the directory as named, <em>no symbolic link followed</em>: every component from the host's
 * root is read with {@code NOFOLLOW_LINKS}, so a link to {@code /etc} is refused with a clear
 * message before anything else; the write itself does not rely on this look, which a rename could
 * outdate: it happens relative to the directory held open component by component
 * ({@link HeldDirectory});</li>
 * <li>on a <em>shared or parallel file system</em> (the point of the run is the storage transport):
 * the mount holding it in PID 1's {@code /proc/1/mounts} must be one of {@link #SHARED}; a local
 * file system (ext4, xfs, btrfs, tmpfs, overlay, ...) is refused;</li>
 * <li>with <em>room for the file</em>: the file system's usable space must hold it and leave
 * {@link #RESERVE_PERCENT} % of the file system free.</li>
 * </ul>
 * A directory that does not exist passes here: laying out the file says so ({@link AcceptanceFile}).
 */
final class AcceptanceDirectory {

    static final String MOUNTS = "/proc/1/mounts";
    /** File systems whose I/O goes over a storage transport, as /proc/mounts names them. */
    static final Set<String> SHARED = Set.of("nfs", "nfs4", "gpfs", "lustre", "beegfs", "wekafs", "ceph", "fuse.ceph-fuse",
            "cifs", "smb3", "glusterfs", "fuse.glusterfs");
    /** What the file may not eat into: the rest of the file system belongs to its users. */
    static final int RESERVE_PERCENT = 5;

    private AcceptanceDirectory() {
    }

    /** Why the run may not write a file of {@code fileBytes} in {@code directory} (a host path); empty when it may. */
    static Optional<String> refusal(HostRoot host, String directory, long fileBytes) {
        Walk walk = walk(host, directory);
        if (walk.refusal().isPresent() || !walk.whole()) {
            return walk.refusal();
        }
        Path current = walk.path();
        Optional<ProcMounts.Mount> mount = host.read(MOUNTS).map(ProcMounts::parse).flatMap(m -> holding(m, directory));
        if (mount.isEmpty()) {
            return Optional.of("cannot tell which file system holds " + directory + " (" + MOUNTS + " unreadable under the "
                    + "host root); a run writes only on a shared file system");
        }
        if (!SHARED.contains(mount.get().fsType())) {
            return Optional.of(directory + " is on a local " + mount.get().fsType() + " file system (mounted at "
                    + mount.get().mountPoint() + "); a path run measures shared storage (NFS, GPFS, Lustre, BeeGFS, Weka, "
                    + "CephFS, ...) and never writes on a node's own disks");
        }
        try {
            var store = Files.getFileStore(current);
            return freeSpaceRefusal(directory, store.getUsableSpace(), store.getTotalSpace(), fileBytes);
        } catch (IOException e) {
            return Optional.of("cannot read the free space of " + directory + ": " + e.getMessage());
        }
    }

    /**
     * A directory's components read from the host's root, no symbolic link followed.
     *
     * @param refusal why it may not be used: a component is a link, or unreadable
     * @param whole   whether every component exists and is a directory
     * @param path    the directory as the probe sees it, when {@code whole}
     */
    record Walk(Optional<String> refusal, boolean whole, Path path) {
    }

    /** Walks {@code directory} (a host path) component by component with {@code NOFOLLOW_LINKS}. */
    static Walk walk(HostRoot host, String directory) {
        Path current = host.root();
        StringBuilder hostPath = new StringBuilder();
        for (String part : directory.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            current = current.resolve(part);
            hostPath.append('/').append(part);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return new Walk(Optional.empty(), false, current);
            } catch (IOException e) {
                return new Walk(Optional.of("cannot read " + hostPath + " on the node: " + e.getMessage()), false, current);
            }
            if (attributes.isSymbolicLink()) {
                return new Walk(Optional.of(hostPath + " is a symbolic link on the node; a run never writes through a "
                        + "link: name the directory itself in path.directory"), false, current);
            }
            if (!attributes.isDirectory()) {
                return new Walk(Optional.empty(), false, current);
            }
        }
        return new Walk(Optional.empty(), true, current);
    }

    /** The file must fit and leave {@link #RESERVE_PERCENT} % of the file system free. */
    static Optional<String> freeSpaceRefusal(String directory, long usableBytes, long totalBytes, long fileBytes) {
        long reserve = totalBytes / 100 * RESERVE_PERCENT;
        if (usableBytes - fileBytes >= reserve) {
            return Optional.empty();
        }
        return Optional.of(directory + " has " + usableBytes / PathDirectory.MEBIBYTE + " MiB free, too little for the run's "
                + fileBytes / PathDirectory.MEBIBYTE + " MiB file while leaving " + RESERVE_PERCENT
                + " % of the file system free; lower path.fileSizeMiB or free space there");
    }

    /** The mount holding {@code directory}: the deepest mount point above it (by whole directories), the last mounted there. */
    static Optional<ProcMounts.Mount> holding(ProcMounts mounts, String directory) {
        String dir = directory.endsWith("/") ? directory : directory + "/";
        ProcMounts.Mount found = null;
        int deepest = -1;
        for (ProcMounts.Mount m : mounts.mounts()) {
            String point = m.mountPoint().endsWith("/") ? m.mountPoint() : m.mountPoint() + "/";
            if (dir.startsWith(point) && point.length() >= deepest) {
                found = m;
                deepest = point.length();
            }
        }
        return Optional.ofNullable(found);
    }
}
