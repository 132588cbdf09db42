package io.rdmastorage.probe.parse;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * iproute2's {@code dcb app show dev <if> dscp-prio}: the kernel's DCB APP table of DSCP → priority
 * entries, {@code dscp-prio 0:0 24:2 24:3 48:6}. node-probe runs it with {@code -N} (numbers); without
 * it dcb names DSCP values after RFC 4594 (CS3 = 24, AF31 = 26, EF = 46), which are read too. One
 * DSCP may carry several priorities. An empty output is an empty table: the NIC then uses its
 * default mapping, which dcb does not show.
 */
public final class DcbAppDscp {

    private DcbAppDscp() {
    }

    /** DSCP → priorities; empty Optional when a line is not a dscp-prio table. */
    public static Optional<Map<Integer, Set<Integer>>> parse(String output) {
        Map<Integer, Set<Integer>> table = new TreeMap<>();
        for (String raw : output.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] tokens = line.split("\\s+");
            if (!tokens[0].equals("dscp-prio")) {
                return Optional.empty();
            }
            for (int i = 1; i < tokens.length; i++) {
                int colon = tokens[i].lastIndexOf(':');
                Optional<Integer> dscp = colon > 0 ? dscp(tokens[i].substring(0, colon)) : Optional.empty();
                Optional<Integer> prio = colon > 0
                        ? MlnxQos.number(tokens[i].substring(colon + 1), MlnxQos.PRIORITIES - 1) : Optional.empty();
                if (dscp.isEmpty() || prio.isEmpty()) {
                    return Optional.empty();
                }
                table.computeIfAbsent(dscp.get(), d -> new TreeSet<>()).add(prio.get());
            }
        }
        return Optional.of(table);
    }

    /** A number 0–63 or a class selector / assured forwarding / EF name. */
    static Optional<Integer> dscp(String key) {
        Optional<Integer> n = MlnxQos.number(key, 63);
        if (n.isPresent()) {
            return n;
        }
        String k = key.toUpperCase(java.util.Locale.ROOT);
        if (k.matches("CS[0-7]")) {
            return Optional.of(8 * (k.charAt(2) - '0'));
        }
        if (k.matches("AF[1-4][1-3]")) {
            return Optional.of(8 * (k.charAt(2) - '0') + 2 * (k.charAt(3) - '0'));
        }
        return switch (k) {
            case "EF" -> Optional.of(46);
            case "VA" -> Optional.of(44);
            case "LE" -> Optional.of(1);
            default -> Optional.empty();
        };
    }
}
