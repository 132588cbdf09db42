package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /proc/<pid>/mountstats}: a {@code device D mounted on M with fstype T [statvers=1.1]} line per
 * mount and, for NFS mounts, indented field lines below it. Of those this reads {@code opts:} (the
 * options in effect, as in /proc/mounts) and every {@code xprt:} line: one per RPC transport the
 * client really uses ({@code xprt: rdma 0 0 5808 ...}, {@code xprt: tcp 940 0 2 ...}; nconnect=16 over
 * RDMA prints sixteen). Fields are split on whitespace: the kernel prints TABs, copies often spaces.
 *
 * @param mounts every NFS mount's block, in the file's order
 */
public record NfsMountStats(List<NfsMount> mounts) {

    private static final Pattern DEVICE =
            Pattern.compile("device (\\S+) mounted on (\\S+) with fstype (\\S+)(?: statvers=(\\S+))?.*");

    public NfsMountStats {
        mounts = List.copyOf(mounts);
    }

    /**
     * One NFS mount's block.
     *
     * @param options    its {@code opts:} line as name → value; empty when the block has none
     * @param transports the first word of each {@code xprt:} line ({@code rdma}, {@code tcp}, {@code udp}), in order
     */
    public record NfsMount(String device, String mountPoint, String fsType, Map<String, String> options,
                           List<String> transports) {
        public NfsMount {
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
            transports = List.copyOf(transports);
        }
    }

    public static NfsMountStats parse(String text) {
        List<NfsMount> mounts = new ArrayList<>();
        String device = null;
        String mountPoint = null;
        String fsType = null;
        Map<String, String> options = Map.of();
        List<String> transports = new ArrayList<>();
        for (String raw : text.split("\r\n|\r|\n")) {
            String line = raw.strip();
            Matcher m = DEVICE.matcher(line);
            if (m.matches()) {
                if (device != null) {
                    mounts.add(new NfsMount(device, mountPoint, fsType, options, transports));
                }
                // nfs (v2, v3) and nfs4; not nfsd, the server's control file system
                boolean nfs = m.group(3).equals("nfs") || m.group(3).equals("nfs4");
                device = nfs ? ProcMounts.unescape(m.group(1)) : null;
                mountPoint = ProcMounts.unescape(m.group(2));
                fsType = m.group(3);
                options = Map.of();
                transports = new ArrayList<>();
            } else if (device != null && line.startsWith("opts:")) {
                options = ProcMounts.options(line.substring("opts:".length()).strip());
            } else if (device != null && line.startsWith("xprt:")) {
                String[] words = line.substring("xprt:".length()).strip().split("\\s+");
                if (!words[0].isEmpty()) {
                    transports.add(words[0]);
                }
            }
        }
        if (device != null) {
            mounts.add(new NfsMount(device, mountPoint, fsType, options, transports));
        }
        return new NfsMountStats(mounts);
    }

    /** The block of the NFS mount at that point (the last one, as the mount that is visible there); empty when none. */
    public Optional<NfsMount> at(String mountPoint) {
        NfsMount found = null;
        for (NfsMount m : mounts) {
            if (m.mountPoint().equals(mountPoint)) {
                found = m;
            }
        }
        return Optional.ofNullable(found);
    }
}
