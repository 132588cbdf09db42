package io.rdmastorage.probe.parse;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /proc/driver/nvidia-fs/modules}: the storage drivers that registered their DMA hooks with
 * nvidia-fs, one {@code name: version} line each ({@code nvme: (null)}, {@code wekafsio: 1}). A
 * driver missing here is not served by nvidia-fs, whatever else says it is loaded.
 *
 * @param modules registered driver name (nvidia-fs's key: nvme, nvme_rdma, rpcrdma, mmfslinux, ...) → version text
 */
public record NvidiaFsModules(Map<String, String> modules) {

    public NvidiaFsModules {
        modules = Collections.unmodifiableMap(new LinkedHashMap<>(modules));   // in the file's order
    }

    public static NvidiaFsModules parse(String text) {
        Map<String, String> modules = new LinkedHashMap<>();
        for (String raw : text.split("\r\n|\r|\n")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = (colon < 0 ? line : line.substring(0, colon)).strip();
            if (!name.isEmpty() && name.indexOf(' ') < 0) {
                modules.put(name, colon < 0 ? "" : line.substring(colon + 1).strip());
            }
        }
        return new NvidiaFsModules(modules);
    }

    public boolean registered(String module) {
        return modules.containsKey(module);
    }
}
