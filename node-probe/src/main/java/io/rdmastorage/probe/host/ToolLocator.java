package io.rdmastorage.probe.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a host tool the way an administrator would: an explicit {@code --tool NAME=PATH} first,
 * then the product's own install folders, then the usual {@code PATH} folders, all under the host root.
 */
public final class ToolLocator {

    /**
     * GPFS and GDS install outside PATH; their folders come first. The others are in the PATH
     * folders: perftest and MLNX_OFED's mlnx_qos in /usr/bin, iproute2's dcb in /usr/sbin or /sbin.
     */
    private static final List<String> PRODUCT_DIRS = List.of("/usr/lpp/mmfs/bin", "/usr/local/cuda/gds/tools");
    private static final List<String> PATH_DIRS =
            List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");

    private final HostRoot host;
    private final Map<String, String> overrides;

    public ToolLocator(HostRoot host, Map<String, String> overrides) {
        this.host = host;
        this.overrides = Map.copyOf(overrides);
    }

    /** The tool's absolute host path, or empty when the host does not have it. */
    public Optional<String> find(String tool) {
        String override = overrides.get(tool);
        if (override != null) {
            return host.isExecutableFile(override) ? Optional.of(override) : Optional.empty();
        }
        for (String dir : searchDirs()) {
            String candidate = dir + "/" + tool;
            if (host.isExecutableFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private List<String> searchDirs() {
        List<String> dirs = new ArrayList<>(PRODUCT_DIRS);
        // versioned CUDA installs without the /usr/local/cuda link: /usr/local/cuda-12.4/gds/tools
        for (String entry : host.list("/usr/local")) {
            if (entry.startsWith("cuda-")) {
                dirs.add("/usr/local/" + entry + "/gds/tools");
            }
        }
        dirs.addAll(PATH_DIRS);
        return dirs;
    }
}
