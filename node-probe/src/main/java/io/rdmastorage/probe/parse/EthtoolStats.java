package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ethtool -S <if>}: the NIC statistics, one {@code name: value} per line under a
 * {@code NIC statistics:} banner (indented; a {@code | grep} of it keeps the indent and drops the
 * banner). mlx5 counts per priority ({@code rx_prio3_bytes}, {@code tx_prio3_pause}) and, per vport,
 * the RDMA bytes ({@code rx_vport_rdma_unicast_bytes}) that the netdev's own counters miss.
 */
public final class EthtoolStats {

    private static final Pattern LINE = Pattern.compile("^\\s*([A-Za-z0-9_.\\[\\]-]+):\\s+([0-9]{1,20})\\s*$");

    private EthtoolStats() {
    }

    /** Every counter line, by name (the first occurrence of a name wins); empty when none is found. */
    public static Map<String, Long> parse(String text) {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line.stripTrailing());
            if (m.matches()) {
                SysfsCounter.parse(m.group(2)).ifPresent(v -> counters.putIfAbsent(m.group(1), v));
            }
        }
        return counters;
    }

    /** The name of a per-priority counter: {@code tx_prio3_bytes}, {@code rx_prio0_pause}. */
    public static String priorityCounter(String direction, int priority, String what) {
        return direction + "_prio" + priority + "_" + what;
    }
}
