package io.rdmastorage.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a pod has used so far, read from the cgroup a {@link RealNode}'s kubelet made for it (cgroup
 * v1, the cgroupfs driver): CPU time of all its processes and the memory high-water mark the
 * kernel charged to it, which counts the page cache the pod's reads brought in, as its memory
 * limit does. Both are hierarchical, so a container's use stays counted after its own cgroup is
 * removed; the pod's cgroup is removed when the kubelet has cleaned the pod up.
 */
public final class PodCgroup {

    /** Where the kubelet puts a pod of each QoS class under its cgroup root. */
    private static final List<String> QOS_FOLDERS = List.of("kubepods/burstable", "kubepods/besteffort", "kubepods");

    private PodCgroup() {
    }

    /** CPU time in nanoseconds and the memory high-water mark in bytes. */
    public record Usage(long cpuNanos, long peakMemoryBytes) {
    }

    /** The pod's use so far, or empty when its cgroup does not exist (not yet, or no longer). */
    public static Optional<Usage> read(RealNode node, String podUid) {
        for (String qos : QOS_FOLDERS) {
            String relative = node.cgroupRoot().substring(1) + "/" + qos + "/pod" + podUid;
            Path cpu = Path.of("/sys/fs/cgroup/cpuacct", relative, "cpuacct.usage");
            Path memory = Path.of("/sys/fs/cgroup/memory", relative, "memory.max_usage_in_bytes");
            try {
                return Optional.of(new Usage(Long.parseLong(Files.readString(cpu).strip()),
                        Long.parseLong(Files.readString(memory).strip())));
            } catch (IOException | NumberFormatException absentOrGoing) {
                // not in this QoS folder, or removed between the two reads
            }
        }
        return Optional.empty();
    }
}
