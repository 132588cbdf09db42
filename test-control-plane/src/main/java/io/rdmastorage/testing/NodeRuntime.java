package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link RealNode} runs: the distribution's containerd, runc and CNI plugins, {@code rso-node}
 * and the sandbox image, from {@code fetch-node-runtime.sh}'s cache (fetched on first use), and the
 * kubelet built beside kube-apiserver.
 */
public record NodeRuntime(Path folder, Path kubelet, Path initScript) {

    private static final String SCRIPTS = "test-control-plane/scripts";

    /** Fetches what is missing (a download and a Go build, once per version) and finds it all. */
    public static NodeRuntime ensure() {
        Path scripts = repository().resolve(SCRIPTS);
        CommandResult fetched = Commands.run(Duration.ofMinutes(10), List.of("bash", scripts.resolve("fetch-node-runtime.sh").toString()));
        String folder = fetched.orThrow("fetch-node-runtime.sh").strip();
        return new NodeRuntime(Path.of(folder.substring(folder.lastIndexOf('\n') + 1)), ControlPlaneBinaries.ensure().kubelet(),
                scripts.resolve("real-node-init.sh"));
    }

    /**
     * The repository's root: the system property {@code rdmastorage.repository} (the build sets it),
     * else the nearest folder above the working directory that holds {@value #SCRIPTS}.
     */
    public static Path repository() {
        String configured = System.getProperty("rdmastorage.repository");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(SCRIPTS))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository (no " + SCRIPTS + " above the working directory); "
                + "set -Drdmastorage.repository");
    }

    Path containerd() {
        return folder.resolve("root/usr/bin/containerd");
    }

    Path ctr() {
        return folder.resolve("root/usr/bin/ctr");
    }

    Path runc() {
        return folder.resolve("root/usr/sbin/runc");
    }

    Path cniBin() {
        return folder.resolve("root/usr/lib/cni");
    }

    public Path rsoNode() {
        return folder.resolve("rso-node");
    }

    Path sandboxImage() {
        return folder.resolve("pause.oci.tar");
    }

    /** containerd starts its shim by name from PATH. */
    String path() {
        return folder.resolve("root/usr/bin") + ":" + folder.resolve("root/usr/sbin") + ":" + System.getenv("PATH");
    }

    /** Whether this process's effective capabilities hold {@code capability} (24: CAP_SYS_RESOURCE). */
    static boolean hasCapability(int capability) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << capability)) != 0;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
