package io.rdmastorage.probe.parse;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * iproute2's {@code dcb pfc show dev <if>}: the {@code prio-pfc 0:off 1:off ... 6:on 7:on} line
 * (after a {@code pfc-cap 8 macsec-bypass off delay 4096} line). Only the priorities whose PFC is on.
 */
public final class DcbPfc {

    private DcbPfc() {
    }

    /** The priorities with PFC on; empty when there is no well-formed {@code prio-pfc} line for all 8. */
    public static Optional<Set<Integer>> enabled(String output) {
        for (String raw : output.split("\n")) {
            String[] tokens = raw.strip().split("\\s+");
            if (tokens.length == 0 || !tokens[0].equals("prio-pfc")) {
                continue;
            }
            Set<Integer> on = new TreeSet<>();
            Set<Integer> seen = new TreeSet<>();
            for (int i = 1; i < tokens.length; i++) {
                String[] kv = tokens[i].split(":");
                Optional<Integer> prio = kv.length == 2 ? MlnxQos.number(kv[0], MlnxQos.PRIORITIES - 1) : Optional.empty();
                if (prio.isEmpty() || !(kv[1].equals("on") || kv[1].equals("off"))) {
                    return Optional.empty();
                }
                seen.add(prio.get());
                if (kv[1].equals("on")) {
                    on.add(prio.get());
                }
            }
            return seen.size() == MlnxQos.PRIORITIES ? Optional.of(on) : Optional.empty();
        }
        return Optional.empty();
    }
}
