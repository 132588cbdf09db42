package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the machine running the tests offers to the real libibverbs, found without libibverbs,
 * so tests of the real binding can say which real outcome to expect instead of being skipped.
 */
public final class RealVerbsEnvironment {

    /** Where distributions install the soname (Debian multiarch, Fedora/RHEL lib64, others). */
    private static final List<String> LIBRARY_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib",
            "/usr/local/lib");

    private RealVerbsEnvironment() {
    }

    public static boolean libraryInstalled() {
        return LIBRARY_DIRS.stream().anyMatch(d -> Files.exists(Path.of(d, "libibverbs.so.1")));
    }

    /** A uverbs device in sysfs and /dev/infiniband: this machine has an RDMA device libibverbs could open. */
    public static boolean devicesPresent() {
        Path uverbs = Path.of("/sys/class/infiniband_verbs");
        if (!Files.isDirectory(uverbs) || !Files.isDirectory(Path.of("/dev/infiniband"))) {
            return false;
        }
        try (Stream<Path> entries = Files.list(uverbs)) {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith("uverbs"));
        } catch (IOException e) {
            return false;
        }
    }
}
