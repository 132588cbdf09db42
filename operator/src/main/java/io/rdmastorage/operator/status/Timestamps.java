package io.rdmastorage.operator.status;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** Status timestamps as Kubernetes writes them: RFC 3339, UTC, whole seconds ({@code 2024-05-01T10:00:00Z}). */
public final class Timestamps {

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Empty for null or anything that is not an RFC 3339 UTC instant. */
    public static Optional<Instant> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A duration as a person reads it: 45m, 1h30m, 2d3h, 40s. */
    public static String human(Duration d) {
        long s = Math.max(0, d.getSeconds());
        long days = s / 86_400;
        long hours = s % 86_400 / 3600;
        long minutes = s % 3600 / 60;
        long seconds = s % 60;
        StringBuilder b = new StringBuilder();
        if (days > 0) {
            b.append(days).append('d');
        }
        if (hours > 0) {
            b.append(hours).append('h');
        }
        if (minutes > 0 && days == 0) {
            b.append(minutes).append('m');
        }
        if (seconds > 0 && days == 0 && hours == 0) {
            b.append(seconds).append('s');
        }
        return b.isEmpty() ? "0s" : b.toString();
    }
}
