package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A parsed {@code ceph.conf}: INI sections of options. Ceph treats spaces, dashes and underscores
 * in option names alike ({@code ms type} = {@code ms_type}), so keys are stored with underscores.
 *
 * @param sections section name ({@code global}, {@code osd}, {@code osd.3}) → option → value;
 *                 options before any section header are in {@code global}
 */
public record CephConf(Map<String, Map<String, String>> sections) {

    public static CephConf parse(String text) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        String section = "global";
        for (String raw : text.split("\r?\n")) {
            String line = stripComment(raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section = line.substring(1, line.length() - 1).strip().toLowerCase(Locale.ROOT);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;   // not an option line; ceph itself ignores such lines with a warning
            }
            String key = normalizeKey(line.substring(0, eq));
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            sections.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(key, value);
        }
        return new CephConf(sections);
    }

    /** Each (section, value) where one of the given options is set. */
    public List<Setting> find(String... options) {
        List<String> wanted = List.of(options);
        return sections.entrySet().stream()
                .flatMap(s -> s.getValue().entrySet().stream()
                        .filter(o -> wanted.contains(o.getKey()))
                        .map(o -> new Setting(s.getKey(), o.getKey(), o.getValue())))
                .toList();
    }

    public record Setting(String section, String option, String value) {
        @Override
        public String toString() {
            return "[" + section + "] " + option + " = " + value;
        }
    }

    static String normalizeKey(String key) {
        return key.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s-]+", "_");
    }

    /** '#' and ';' start comments anywhere on a line (values do not contain them in practice). */
    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        int semi = line.indexOf(';');
        int cut = hash < 0 ? semi : semi < 0 ? hash : Math.min(hash, semi);
        return cut < 0 ? line : line.substring(0, cut);
    }
}
