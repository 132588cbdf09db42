package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.parse.ProcMounts;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** What the file-system client checks (NfsRdma, LustreLnet, BeegfsRdma) share about the host's mount table. */
final class ClientMounts {

    static final String MOUNTS = "/proc/1/mounts";

    private ClientMounts() {
    }

    /**
     * Whether a check without its spec section runs anyway: in discovery, where the host's mount table has
     * a mount {@code client} accepts.
     */
    static boolean discovered(ProbeContext context, Predicate<ProcMounts.Mount> client) {
        return context.discovery() && context.host().read(MOUNTS).map(ProcMounts::parse)
                .map(m -> m.mounts().stream().anyMatch(client)).orElse(false);
    }

    /** The listed mount points; with none listed, every mount the predicate accepts, once each, in table order. */
    static List<String> wanted(ProcMounts mounts, List<String> listed, Predicate<ProcMounts.Mount> client) {
        if (!listed.isEmpty()) {
            return listed;
        }
        Set<String> points = new LinkedHashSet<>();
        mounts.mounts().stream().filter(client).forEach(m -> points.add(m.mountPoint()));
        return List.copyOf(points);
    }

    /** The mount table could not be read: which mounts the node has is not known. */
    static Finding unreadable(String reason, String hostRoot, String fileSystem) {
        return Finding.of(Status.UNKNOWN, reason, MOUNTS + " cannot be read under the host root " + hostRoot + ", so the "
                + "node's " + fileSystem + " mounts are not known. The probe reads the mount table of the host's PID 1 "
                + "through the host's /proc: run it as root with the host's / mounted with its submounts");
    }
}
