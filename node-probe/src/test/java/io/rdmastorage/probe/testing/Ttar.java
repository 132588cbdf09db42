package io.rdmastorage.probe.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files of a ttar archive (prometheus/procfs's text fixtures): {@code Path: p}, {@code Lines: n},
 * n lines of content, {@code Mode: m}; directories are {@code Directory: p}. Used to lay real sysfs
 * snapshots out under a fixture host.
 */
public final class Ttar {

    private Ttar() {
    }

    /** Each file's path (as archived) and content. */
    public static Map<String, String> files(String archive) {
        Map<String, String> files = new LinkedHashMap<>();
        String[] lines = archive.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("Path: ") && i + 1 < lines.length && lines[i + 1].startsWith("Lines: ")) {
                int n = Integer.parseInt(lines[i + 1].substring("Lines: ".length()).strip());
                StringBuilder content = new StringBuilder();
                for (int k = 0; k < n; k++) {
                    content.append(lines[i + 2 + k]).append('\n');
                }
                files.put(lines[i].substring("Path: ".length()).strip(), content.toString());
                i += 1 + n;
            }
        }
        return files;
    }
}
