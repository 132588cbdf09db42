package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /proc/<pid>/mounts}: one mount per line, {@code device mountpoint fstype options dump pass}
 * ({@code 10.0.0.5:/export /mnt/data nfs4 rw,vers=4.2,proto=rdma,port=20049,... 0 0}). The kernel
 * escapes space, TAB, newline and backslash in paths as octal ({@code \040}); they are unescaped here.
 *
 * @param mounts in the file's order: a later mount on the same point hides an earlier one
 */
public record ProcMounts(List<Mount> mounts) {

    public ProcMounts {
        mounts = List.copyOf(mounts);
    }

    /**
     * One mount.
     *
     * @param options the option list as {@code name → value} ({@code "proto" → "rdma"}, {@code "rw" → ""})
     */
    public record Mount(String device, String mountPoint, String fsType, Map<String, String> options) {
        public Mount {
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        }

        public Optional<String> option(String name) {
            return Optional.ofNullable(options.get(name));
        }

        /** NFS of any version: the kernel writes {@code nfs} for v2/v3 and {@code nfs4} for v4.x. */
        public boolean nfs() {
            return fsType.equals("nfs") || fsType.equals("nfs4");
        }
    }

    public static ProcMounts parse(String text) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : text.split("\r\n|\r|\n")) {
            String[] fields = line.strip().split("[ \t]+");
            if (fields.length >= 4) {
                mounts.add(new Mount(unescape(fields[0]), unescape(fields[1]), fields[2], options(fields[3])));
            }
        }
        return new ProcMounts(mounts);
    }

    /** The mount visible at that point: the last one mounted there; empty when nothing is. */
    public Optional<Mount> at(String mountPoint) {
        Mount found = null;
        for (Mount m : mounts) {
            if (m.mountPoint().equals(mountPoint)) {
                found = m;
            }
        }
        return Optional.ofNullable(found);
    }

    /** An option string ({@code rw,vers=3,proto=rdma}) as name → value. */
    public static Map<String, String> options(String text) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String option : text.split(",")) {
            int eq = option.indexOf('=');
            if (!option.isEmpty()) {
                options.put(eq < 0 ? option : option.substring(0, eq), eq < 0 ? "" : option.substring(eq + 1));
            }
        }
        return options;
    }

    /** The kernel's octal escapes ({@code \040} for a space) back to characters. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                s.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                s.append(c);
            }
        }
        return s.toString();
    }
}
