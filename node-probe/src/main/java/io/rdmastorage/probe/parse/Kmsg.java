package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records of the kernel's {@code /dev/kmsg} (Documentation/ABI/testing/dev-kmsg): one record per
 * read, {@code priority,sequence,timestamp,flags[,...];message}, the timestamp in microseconds of
 * the kernel's monotonic clock since boot, followed by dictionary lines that start with a space
 * ({@code  SUBSYSTEM=pci}, {@code  DEVICE=+pci:0000:61:00.0}), skipped here. The text is what
 * successive reads returned, concatenated; a line that is neither is skipped, never guessed at.
 * Non-printable bytes arrive escaped as {@code \xNN} and stay so.
 */
public final class Kmsg {

    private static final Pattern RECORD = Pattern.compile("([0-9]{1,10}),([0-9]{1,20}),([0-9]{1,20}),[^;]*;(.*)");

    /**
     * One record.
     *
     * @param level   the syslog level (priority & 7: 3 err, 4 warning)
     * @param seq     the record's sequence number
     * @param usec    microseconds since boot when it was logged
     * @param message the text after the {@code ;}
     */
    public record Record(int level, long seq, long usec, String message) {
    }

    private Kmsg() {
    }

    public static List<Record> parse(String text) {
        List<Record> records = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = RECORD.matcher(line);
            if (line.startsWith(" ") || !m.matches()) {
                continue;
            }
            try {
                records.add(new Record(Integer.parseInt(m.group(1)) & 7, Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3)), m.group(4)));
            } catch (NumberFormatException e) {
                // a number too large for its field is not a record the kernel wrote
            }
        }
        return records;
    }

    /**
     * The host's {@code /proc/uptime} ("350735.47 234388.90") in microseconds: the first figure,
     * seconds since boot; empty for anything else.
     */
    public static java.util.OptionalLong uptimeMicros(String procUptime) {
        Matcher m = UPTIME.matcher(procUptime == null ? "" : procUptime.strip());
        if (!m.lookingAt()) {
            return java.util.OptionalLong.empty();
        }
        String fraction = (m.group(2) == null ? "" : m.group(2)) + "000000";
        return java.util.OptionalLong.of(Long.parseLong(m.group(1)) * 1_000_000L + Long.parseLong(fraction.substring(0, 6)));
    }

    private static final Pattern UPTIME = Pattern.compile("([0-9]{1,12})(?:\\.([0-9]{1,6}))?(?:\\s|$)");
}
