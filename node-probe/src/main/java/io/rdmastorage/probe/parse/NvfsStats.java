package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /proc/driver/nvidia-fs/stats}: nvidia-fs's own counters of the I/O it served, in the old
 * (statistics ver 2.0) and the current (ver 4.0) format. Each counter line is a name, TABs or spaces,
 * a colon and {@code key=value} pairs ({@code Reads : n=424436862 ok=424436734 err=0 readMiB=21518771});
 * a name may have two lines (Reads' second carries Bandwidth and Avg-Latency), merged here. With IO
 * stats disabled (module parameter {@code rw_stats_enabled=0}, the default) the driver prints only the
 * error counters of Reads and Writes: the operation counts are then not known, never zero.
 *
 * @param header   the header lines as {@code name → value} ({@code "IO stats" → "Enabled"},
 *                 {@code "Active Process" → "1"})
 * @param counters counter lines by name ({@code Reads}, {@code Writes}, {@code Bar1-map}, {@code Error}, ...) → key → value
 * @param gpus     the per-GPU lines, in the file's order
 */
public record NvfsStats(Map<String, String> header, Map<String, Map<String, Long>> counters, List<Gpu> gpus) {

    /** A PCI address as the GPU lines print it (0000:be:00.0). */
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-7]");

    /** "NVFS statistics(ver: 4.0)", "NVFS Driver(version: 2.20.5)": the colon is inside the parentheses. */
    private static final Pattern VERSION_LINE = Pattern.compile("([^(]+)\\((?:ver|version):\\s*([^)]*)\\)");

    /** The counters that count failures: every key of the Error line, and these on any line. */
    private static final List<String> ERROR_KEYS = List.of("err", "io_state_err", "pg-cache-fail", "pg-cache-eio");
    private static final String ERROR_LINE = "Error";

    public NvfsStats {
        header = Collections.unmodifiableMap(new LinkedHashMap<>(header));
        Map<String, Map<String, Long>> copy = new LinkedHashMap<>();
        counters.forEach((name, values) -> copy.put(name, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
        counters = Collections.unmodifiableMap(copy);
        gpus = List.copyOf(gpus);
    }

    /**
     * One GPU line ({@code GPU 0000:be:00.0 uuid:... : Registered_MiB=0 Cache_MiB=0 max_pinned_MiB=8 cross_root_port(%)=0});
     * {@code cross_root_port(%)} is printed only with peer IO stats enabled.
     */
    public record Gpu(String address, Map<String, Long> values) {
        public Gpu {
            values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }

        /** The share of this GPU's peer-to-peer DMA that went through the root complex; empty when not printed. */
        public OptionalLong crossRootPortPercent() {
            Long v = values.get("cross_root_port(%)");
            return v == null ? OptionalLong.empty() : OptionalLong.of(v);
        }
    }

    /** The parsed stats, or empty when the text has none of nvidia-fs's counter lines. */
    public static Optional<NvfsStats> parse(String text) {
        Map<String, String> header = new LinkedHashMap<>();
        Map<String, Map<String, Long>> counters = new LinkedHashMap<>();
        List<Gpu> gpus = new ArrayList<>();
        for (String raw : text.split("\r\n|\r|\n")) {
            String line = raw.strip();
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            if (line.startsWith("GPU ")) {
                gpu(line).ifPresent(gpus::add);
                continue;
            }
            Matcher version = VERSION_LINE.matcher(line);
            if (version.matches()) {
                header.put(version.group(1).strip(), version.group(2).strip());
                continue;
            }
            String name = line.substring(0, colon).strip();
            String rest = line.substring(colon + 1).strip();
            if (rest.contains("=")) {
                counters.computeIfAbsent(name, n -> new LinkedHashMap<>()).putAll(pairs(rest));
            } else {
                // "IO stats: Enabled, peer IO stats: Enabled" is two header values on one line
                for (String part : line.split(",")) {
                    int c = part.indexOf(':');
                    if (c > 0) {
                        header.put(part.substring(0, c).strip(), part.substring(c + 1).strip());
                    }
                }
            }
        }
        if (!counters.containsKey("Reads") && !counters.containsKey("Bar1-map")) {
            return Optional.empty();
        }
        return Optional.of(new NvfsStats(header, counters, gpus));
    }

    /**
     * Whether the driver counts reads and writes: the header's {@code IO stats:} value, or, in the old
     * format that has no such line, whether Reads carries its {@code n=} count.
     */
    public Optional<Boolean> ioStatsEnabled() {
        String said = header.get("IO stats");
        if (said != null) {
            String v = said.toLowerCase(Locale.ROOT);
            return v.startsWith("enabled") ? Optional.of(true) : v.startsWith("disabled") ? Optional.of(false) : Optional.empty();
        }
        return counter("Reads", "n").isPresent() ? Optional.of(true) : Optional.empty();
    }

    /** A counter's value; empty when the driver did not print it. */
    public OptionalLong counter(String line, String key) {
        Long v = counters.getOrDefault(line, Map.of()).get(key);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** A header number such as {@code Active Process}; empty when absent or not a number. */
    public OptionalLong headerNumber(String name) {
        String v = header.get(name);
        return v != null && v.matches("\\d{1,18}") ? OptionalLong.of(Long.parseLong(v)) : OptionalLong.empty();
    }

    /** The failure counters that are not zero, as {@code "Reads err" → 3}, in the file's order. */
    public Map<String, Long> errors() {
        Map<String, Long> errors = new LinkedHashMap<>();
        counters.forEach((name, values) -> values.forEach((key, value) -> {
            if (value > 0 && (name.equals(ERROR_LINE) || ERROR_KEYS.contains(key))) {
                errors.put(name + " " + key, value);
            }
        }));
        return errors;
    }

    private static Optional<Gpu> gpu(String line) {
        String[] words = line.split("\\s+");
        int values = line.lastIndexOf(" : ");
        if (words.length < 2 || !PCI_ADDRESS.matcher(words[1]).matches() || values < 0) {
            return Optional.empty();   // peer_affinity's "GPU :0000:ca:00.0 :0 0 ..." and cut lines
        }
        return Optional.of(new Gpu(words[1].toLowerCase(Locale.ROOT), pairs(line.substring(values + 3))));
    }

    private static Map<String, Long> pairs(String text) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String pair : text.strip().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(eq + 1).matches("\\d{1,18}")) {
                values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            }
        }
        return values;
    }
}
