package io.rdmastorage.probe.parse;

import java.util.Optional;

/**
 * dpkg's database of installed packages, {@code /var/lib/dpkg/status}: deb-control(5) stanzas
 * separated by blank lines, each with {@code Package:}, {@code Status:} and {@code Version:}. A
 * package counts as installed only with the status word {@code installed} ({@code deinstall ok
 * config-files} is a removed package whose configuration stayed).
 */
public final class DpkgStatus {

    private DpkgStatus() {
    }

    /** The installed version of {@code name}; empty when the database does not list it as installed. */
    public static Optional<String> installedVersion(String status, String name) {
        String pkg = null;
        String state = null;
        String version = null;
        for (String raw : (status + "\n\n").split("\n", -1)) {
            String line = raw.stripTrailing();
            if (line.isEmpty()) {
                if (name.equals(pkg) && state != null && state.endsWith(" installed") && version != null) {
                    return Optional.of(version);
                }
                pkg = state = version = null;
            } else if (line.startsWith("Package:")) {
                pkg = line.substring("Package:".length()).strip();
            } else if (line.startsWith("Status:")) {
                state = line.substring("Status:".length()).strip();
            } else if (line.startsWith("Version:")) {
                version = line.substring("Version:".length()).strip();
            }
        }
        return Optional.empty();
    }
}
