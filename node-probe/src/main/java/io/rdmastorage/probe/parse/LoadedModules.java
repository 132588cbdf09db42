package io.rdmastorage.probe.parse;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kernel modules loaded, from {@code /proc/modules} ({@code nvidia_fs 258048 0 - Live 0x...})
 * or {@code lsmod}'s listing of it ({@code nvidia_fs  258048  0}): the module name is the first
 * column of both. Lines whose first word is not a module name (lsmod's header, a pasted prompt) are skipped.
 */
public record LoadedModules(Set<String> names) {

    public LoadedModules {
        names = Collections.unmodifiableSortedSet(new TreeSet<>(names));
    }

    public static LoadedModules parse(String text) {
        Set<String> names = new TreeSet<>();
        for (String line : text.split("\r\n|\r|\n")) {
            String[] columns = line.strip().split("\\s+");
            // a module line: name, size in bytes, use count
            if (columns.length >= 3 && columns[0].matches("[A-Za-z0-9_]+") && columns[1].matches("\\d+")
                    && columns[2].matches("\\d+|-")) {
                names.add(columns[0]);
            }
        }
        return new LoadedModules(names);
    }

    public boolean loaded(String module) {
        return names.contains(module);
    }
}
