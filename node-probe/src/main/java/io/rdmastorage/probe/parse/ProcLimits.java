package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A process's resource limits as {@code /proc/<pid>/limits} prints them: a header row, then one
 * row per limit, "Max locked memory         8388608              8388608              bytes".
 * Limit names contain single spaces and columns are separated by runs of spaces, so a row is
 * split at its first run of two or more spaces.
 *
 * @param limits limit name ("Max locked memory") → its soft and hard values
 */
public record ProcLimits(Map<String, Limit> limits) {

    public static final String MAX_LOCKED_MEMORY = "Max locked memory";

    /** Soft and hard value of one limit; {@link #UNLIMITED} for "unlimited". */
    public record Limit(long soft, long hard) {
        public static final long UNLIMITED = -1;

        public boolean softUnlimited() {
            return soft == UNLIMITED;
        }
    }

    public ProcLimits {
        limits = Map.copyOf(limits);
    }

    /** Rows that are not "name  soft  hard [units]" (the header, garbage) are skipped. */
    public static ProcLimits parse(String text) {
        Map<String, Limit> limits = new LinkedHashMap<>();
        for (String raw : text.split("\r?\n")) {
            String line = raw.strip();
            int gap = line.indexOf("  ");
            if (gap <= 0) {
                continue;
            }
            String name = line.substring(0, gap);
            String[] values = line.substring(gap).strip().split("\\s+");
            if (values.length < 2) {
                continue;
            }
            Optional<Long> soft = value(values[0]);
            Optional<Long> hard = value(values[1]);
            if (soft.isPresent() && hard.isPresent()) {
                limits.put(name, new Limit(soft.get(), hard.get()));
            }
        }
        return new ProcLimits(limits);
    }

    public Optional<Limit> get(String name) {
        return Optional.ofNullable(limits.get(name));
    }

    private static Optional<Long> value(String token) {
        if (token.equals("unlimited")) {
            return Optional.of(Limit.UNLIMITED);
        }
        try {
            return Optional.of(Long.parseLong(token));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
