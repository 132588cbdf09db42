package io.rdmastorage.probe.parse;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recent {@code VERBS RDMA} error lines of the GPFS log ({@code /var/adm/ras/mmfs.log.latest}): the
 * daemon's own account of why an RDMA connection failed or closed, which is the first thing to read
 * when a peer falls back to TCP.
 *
 * <p>Two timestamp formats exist: {@code 2021-09-27_15:46:52.820+0200: [W] ...} (5.x) and
 * {@code Mon Jun 25 22:23:36.298 2018: ...} (4.x, milliseconds optional, no zone: read as UTC, so
 * the recency window is only as exact as the host's offset from UTC).
 */
public final class MmfsLogVerbsErrors {

    public record Line(Instant time, String text) {
    }

    private static final String MARKER = "VERBS RDMA";
    private static final DateTimeFormatter ISO_STYLE = DateTimeFormatter.ofPattern("yyyy-MM-dd_HH:mm:ss[.SSS]Z", Locale.ROOT);
    private static final DateTimeFormatter CLASSIC = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss[.SSS] yyyy", Locale.ENGLISH);

    private MmfsLogVerbsErrors() {
    }

    /** VERBS RDMA error or warning lines logged in {@code (now - window, now]}, oldest first. */
    public static List<Line> recent(String log, Instant now, Duration window) {
        Instant since = now.minus(window);
        List<Line> lines = new ArrayList<>();
        for (String raw : log.split("\n")) {
            if (!raw.contains(MARKER) || !isError(raw)) {
                continue;   // cheap test first: the log is mostly other messages
            }
            String line = raw.strip();
            Optional<Instant> time = timestamp(line);
            if (time.isPresent() && time.get().isAfter(since) && !time.get().isAfter(now)) {
                lines.add(new Line(time.get(), line));
            }
        }
        return lines;
    }

    /** [E] error, [X] critical, [W] warning tags, or the words of untagged (older) error lines. */
    static boolean isError(String line) {
        if (line.contains("[E]") || line.contains("[X]") || line.contains("[W]")) {
            return true;
        }
        if (line.contains("[I]") || line.contains("[N]")) {
            return false;
        }
        String lower = line.toLowerCase(Locale.ROOT);
        return lower.contains("error") || lower.contains("fail") || lower.contains("closed");
    }

    /** The time a line was logged: everything before the first ": " is the timestamp. */
    static Optional<Instant> timestamp(String line) {
        int end = line.indexOf(": ");
        if (end <= 0) {
            return Optional.empty();
        }
        String stamp = line.substring(0, end);
        try {
            if (!stamp.isEmpty() && Character.isDigit(stamp.charAt(0))) {
                return Optional.of(OffsetDateTime.parse(stamp, ISO_STYLE).toInstant());
            }
            return Optional.of(LocalDateTime.parse(stamp.replaceAll(" +", " "), CLASSIC).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
