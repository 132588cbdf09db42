package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import io.rdmastorage.contract.json.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * One round's reading of the RDMA ports' error counters, which the next round compares with
 * (RdmaPortErrors): node-probe writes it into the check's details ({@code baseline}), the operator
 * keeps it in the RdmaStorageNode's status and hands it to the next probe pod
 * ({@code --counter-baseline}). Small on purpose, as it rides the 4 KiB report: per port one number per
 * {@link Counter}, in that enum's order, {@value #ABSENT} where the port has no such counter.
 *
 * <pre>{"bootId":"1b9e…","readAt":"2026-05-01T10:00:00Z","ports":{"mlx5_0/1":[0,0,0,12,0,0,3,-1,0,2]}}</pre>
 *
 * @param bootId the host's {@code /proc/sys/kernel/random/boot_id} when read: counters start again at a boot
 * @param readAt when the counters were read (whole seconds)
 * @param ports  port ({@code mlx5_0/1}) → its values in {@link Counter} order
 */
public record CounterBaseline(String bootId, Instant readAt, Map<String, List<Long>> ports) {

    /** A counter the port does not have. */
    public static final long ABSENT = -1;
    public static final String F_BOOT_ID = "bootId";
    public static final String F_READ_AT = "readAt";
    public static final String F_PORTS = "ports";
    /** A baseline handed on the command line stays far below this. */
    public static final int MAX_CHARS = 16 * 1024;
    /** A UUID as the kernel prints it; letters, digits and dashes in general. */
    private static final Pattern BOOT_ID = Pattern.compile("[0-9A-Za-z-]{1,64}");
    /** Values of counters a newer probe appended may follow; more than this is not a baseline. */
    private static final int MAX_VALUES = 64;

    public CounterBaseline {
        Map<String, List<Long>> copy = new LinkedHashMap<>();
        ports.forEach((port, values) -> copy.put(port, List.copyOf(values)));
        ports = Collections.unmodifiableMap(copy);
    }

    /** The value of {@code counter} on {@code port}; empty when the port or its counter is not in the baseline. */
    public OptionalLong value(String port, Counter counter) {
        List<Long> values = ports.get(port);
        if (values == null || counter.ordinal() >= values.size() || values.get(counter.ordinal()) == ABSENT) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(values.get(counter.ordinal()));
    }

    /** Builds one port's values from what was read ({@link Counter} → value; a counter left out is absent). */
    public static List<Long> values(Map<Counter, Long> read) {
        List<Long> values = new ArrayList<>();
        for (Counter c : Counter.values()) {
            values.add(read.getOrDefault(c, ABSENT));
        }
        return values;
    }

    /** The document, as JSON values (for a report's details). */
    public Map<String, Object> wire() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put(F_BOOT_ID, bootId);
        doc.put(F_READ_AT, readAt.toString());
        doc.put(F_PORTS, new LinkedHashMap<>(ports));
        return doc;
    }

    public String json() {
        return Json.write(wire());
    }

    /** Reads a baseline document strictly: the field it names when it refuses one. */
    public static CounterBaseline read(String json) throws InvalidSpecException {
        if (json == null || json.length() > MAX_CHARS) {
            throw new InvalidSpecException("counterBaseline", "must be a JSON document of at most " + MAX_CHARS + " characters");
        }
        Object doc;
        try {
            doc = Json.parse(json);
        } catch (Json.JsonSyntaxException e) {
            throw new InvalidSpecException("counterBaseline", "is not JSON: " + e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> map)) {
            throw new InvalidSpecException("counterBaseline", "must be a JSON object");
        }
        for (Object key : map.keySet()) {
            if (!List.of(F_BOOT_ID, F_READ_AT, F_PORTS).contains(key)) {
                throw new InvalidSpecException("counterBaseline." + key, "is not a field of a counter baseline");
            }
        }
        if (!(map.get(F_BOOT_ID) instanceof String bootId) || !BOOT_ID.matcher(bootId).matches()) {
            throw new InvalidSpecException("counterBaseline.bootId", "must be a boot id such as "
                    + "1b9e2c4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
        }
        Instant readAt;
        try {
            readAt = Instant.parse(String.valueOf(map.get(F_READ_AT)));
        } catch (DateTimeParseException e) {
            throw new InvalidSpecException("counterBaseline.readAt", "must be an RFC 3339 time such as 2026-05-01T10:00:00Z");
        }
        if (!(map.get(F_PORTS) instanceof Map<?, ?> ports) || ports.size() > Rules.MAX_LIST) {
            throw new InvalidSpecException("counterBaseline.ports", "must be an object of at most " + Rules.MAX_LIST + " ports");
        }
        Map<String, List<Long>> read = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ports.entrySet()) {
            String port = String.valueOf(e.getKey());
            String field = "counterBaseline.ports[" + port + "]";
            if (!Rules.DEVICE_PORT.matcher(port).matches()) {
                throw new InvalidSpecException(field, "must be <device>/<port> such as mlx5_0/1");
            }
            if (!(e.getValue() instanceof List<?> list) || list.isEmpty() || list.size() > MAX_VALUES) {
                throw new InvalidSpecException(field, "must be a list of 1 to " + MAX_VALUES + " counter values");
            }
            List<Long> values = new ArrayList<>(list.size());
            for (Object v : list) {
                if (!(v instanceof Long n) || n < ABSENT) {
                    throw new InvalidSpecException(field, "holds " + v + ": each value is a counter (0 or more) or -1 (absent)");
                }
                values.add(n);
            }
            read.put(port, values);
        }
        return new CounterBaseline(bootId, readAt, read);
    }
}
