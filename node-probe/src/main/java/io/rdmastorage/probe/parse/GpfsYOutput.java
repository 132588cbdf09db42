package io.rdmastorage.probe.parse;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable {@code -Y} output that every GPFS {@code mm*} command prints: colon-separated
 * records {@code <command>:<section>:<HEADER|0>:<version>:reserved:reserved:<fields>...:}, where each
 * section first names its fields in a {@code HEADER} record. Fields are read by those names, never by
 * position, because IBM adds fields between releases. Values are percent-encoded ({@code %3A} for
 * ':', {@code %2F} for '/'), so a value never contains the separator.
 *
 * <p>Tolerated: leading warnings and blank lines, CRLF, trailing white space, and records that wrap
 * onto further physical lines (a record with fewer fields than its header continues on the next line).
 *
 * @param headers how many HEADER records were seen; 0 means the text is not {@code -Y} output at all
 * @param rows    the data records, in output order
 */
public record GpfsYOutput(int headers, List<Row> rows) {

    /** The fields before the named ones: command, section, HEADER/record type. */
    private static final int FIXED_FIELDS = 3;

    public GpfsYOutput {
        rows = List.copyOf(rows);
    }

    /** One data record: field name → decoded value. */
    public record Row(String command, String section, Map<String, String> fields) {
        public Row {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        /** The field's value, or "" when this release does not print it. */
        public String get(String field) {
            return fields.getOrDefault(field, "");
        }
    }

    public boolean recognized() {
        return headers > 0;
    }

    /** The data records of one section ({@code config}, {@code clusterNode}; "" for commands without sections). */
    public List<Row> section(String section) {
        return rows.stream().filter(r -> r.section().equals(section)).toList();
    }

    public static GpfsYOutput parse(String text) {
        return new Parser().parse(text);
    }

    private static final class Parser {
        private final Map<String, String[]> headers = new HashMap<>();
        private final List<Row> rows = new ArrayList<>();
        private String command;          // fixed by the first HEADER: later records must start with it
        private StringBuilder pending;   // the record being assembled, possibly from several lines

        GpfsYOutput parse(String text) {
            for (String raw : text.split("\n", -1)) {
                String line = raw.stripTrailing();
                if (looksLikeRecord(line)) {
                    flush();
                    pending = new StringBuilder(line);
                } else if (pending != null && !line.isEmpty() && isIncomplete(pending)) {
                    pending.append(line);   // wrapped mid-value: the break is not part of the value
                } else {
                    flush();                // a warning, a blank line or noise between records
                }
            }
            flush();
            return new GpfsYOutput(headers.size(), rows);
        }

        private boolean looksLikeRecord(String line) {
            int first = line.indexOf(':');
            if (first <= 0) {
                return false;
            }
            String cmd = line.substring(0, first);
            if (command != null ? !cmd.equals(command) : !isCommandName(cmd)) {
                return false;
            }
            int second = line.indexOf(':', first + 1);
            if (second < 0) {
                return false;
            }
            int third = line.indexOf(':', second + 1);
            String type = third < 0 ? line.substring(second + 1) : line.substring(second + 1, third);
            return type.equals("HEADER") || (!type.isEmpty() && type.chars().allMatch(Character::isDigit));
        }

        private static boolean isCommandName(String s) {
            if (!Character.isLetter(s.charAt(0))) {
                return false;
            }
            for (int i = 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!Character.isLetterOrDigit(c) && c != '_' && c != '-') {
                    return false;
                }
            }
            return true;
        }

        private boolean isIncomplete(CharSequence record) {
            String[] parts = record.toString().split(":", -1);
            String[] header = parts.length > 1 ? headers.get(parts[0] + ":" + parts[1]) : null;
            return header != null && parts.length < header.length;
        }

        private void flush() {
            if (pending == null) {
                return;
            }
            String[] parts = pending.toString().split(":", -1);
            pending = null;
            String key = parts[0] + ":" + parts[1];
            if (parts[2].equals("HEADER")) {
                command = parts[0];
                headers.put(key, parts);
                return;
            }
            String[] header = headers.get(key);
            if (header == null) {
                return;   // data without a header cannot be named; GPFS always prints the header first
            }
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = FIXED_FIELDS; i < Math.min(header.length, parts.length); i++) {
                String name = header[i];
                if (!name.isEmpty() && !name.equals("reserved")) {
                    fields.putIfAbsent(name, decode(parts[i]));
                }
            }
            rows.add(new Row(parts[0], parts[1], fields));
        }
    }

    /** Percent-decoding as GPFS applies it (UTF-8 bytes); a '%' not followed by two hex digits is kept as is. */
    static String decode(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] == '%' && i + 2 < utf8.length && hex(utf8[i + 1]) >= 0 && hex(utf8[i + 2]) >= 0) {
                bytes.write(hex(utf8[i + 1]) * 16 + hex(utf8[i + 2]));
                i += 2;
            } else {
                bytes.write(utf8[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit((char) b, 16);
    }
}
