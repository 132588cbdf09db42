package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What MLNX_OFED's {@code mlnx_qos -i <if>} prints about the lossless class: {@code Priority trust
 * state: dscp}, the {@code dscp2prio mapping:} rows ({@code prio:3 dscp:31,30,...,24,}, printed only
 * when trust is dscp) and the {@code PFC configuration:} table's {@code enabled 0 0 0 1 0 0 0 0} row.
 * Rows are indented by a TAB (or spaces in copies), lines may end in CR; lines it does not know
 * (tc rate limits, buffers, {@code default priority:}) are skipped. When one text holds several runs
 * the last value of each setting wins, as on a terminal.
 *
 * @param trust      {@code dscp} or {@code pcp} as printed (lower case); empty when the line is absent
 * @param dscpToPrio every DSCP the mapping lists, to its priority; empty when no mapping was printed
 * @param pfcEnabled the priorities whose PFC is enabled; empty when no well-formed {@code enabled} row
 */
public record MlnxQos(Optional<String> trust, Map<Integer, Integer> dscpToPrio, Optional<Set<Integer>> pfcEnabled) {

    public static final int PRIORITIES = 8;
    private static final int MAX_DSCP = 63;

    public MlnxQos {
        dscpToPrio = Map.copyOf(dscpToPrio);
        pfcEnabled = pfcEnabled.map(Set::copyOf);
    }

    /** Empty when the text has none of the three parts: not mlnx_qos output. */
    public static Optional<MlnxQos> parse(String output) {
        Optional<String> trust = Optional.empty();
        Map<Integer, Integer> map = new TreeMap<>();
        Optional<Set<Integer>> pfc = Optional.empty();
        boolean inPfc = false;
        for (String raw : output.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("Priority trust state:") || line.startsWith("Priority trust mode:")) {
                String value = line.substring(line.indexOf(':') + 1).strip().toLowerCase(Locale.ROOT);
                trust = value.isEmpty() ? Optional.empty() : Optional.of(value);
            } else if (line.startsWith("dscp2prio mapping:")) {
                map.clear();   // a new run's table replaces the previous one
            } else if (line.startsWith("prio:") && line.contains("dscp:")) {
                mappingRow(line, map);
            } else if (line.startsWith("PFC configuration:")) {
                inPfc = true;
            } else if (inPfc && line.startsWith("enabled")) {
                pfc = enabledRow(line.substring("enabled".length()));
                inPfc = false;
            } else if (line.startsWith("tc:")) {
                inPfc = false;
            }
        }
        if (trust.isEmpty() && map.isEmpty() && pfc.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new MlnxQos(trust, map, pfc));
    }

    /** {@code prio:3 dscp:31,30,29,28,27,26,25,24,}: a row that is not well formed adds nothing. */
    private static void mappingRow(String line, Map<Integer, Integer> map) {
        String[] parts = line.split("\\s+");
        if (parts.length != 2 || !parts[1].startsWith("dscp:")) {
            return;
        }
        Optional<Integer> prio = number(parts[0].substring("prio:".length()), PRIORITIES - 1);
        if (prio.isEmpty()) {
            return;
        }
        List<Integer> dscps = new ArrayList<>();
        for (String v : parts[1].substring("dscp:".length()).split(",")) {
            if (v.isEmpty()) {
                continue;
            }
            Optional<Integer> dscp = number(v, MAX_DSCP);
            if (dscp.isEmpty()) {
                return;
            }
            dscps.add(dscp.get());
        }
        dscps.forEach(d -> map.put(d, prio.get()));
    }

    /** {@code 0 0 0 1 0 0 0 0}: exactly one 0/1 per priority, else empty. */
    private static Optional<Set<Integer>> enabledRow(String values) {
        String[] flags = values.strip().split("\\s+");
        if (flags.length != PRIORITIES) {
            return Optional.empty();
        }
        Set<Integer> on = new TreeSet<>();
        for (int p = 0; p < PRIORITIES; p++) {
            switch (flags[p]) {
                case "1" -> on.add(p);
                case "0" -> { }
                default -> {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(on);
    }

    static Optional<Integer> number(String s, int max) {
        if (s.isEmpty() || s.length() > 3 || !s.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        int n = Integer.parseInt(s);
        return n <= max ? Optional.of(n) : Optional.empty();
    }
}
