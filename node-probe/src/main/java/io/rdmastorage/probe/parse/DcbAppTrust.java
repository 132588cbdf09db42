package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * iproute2's {@code dcb apptrust show dev <if>} (iproute2 6.2 and later, kernel 6.1 and later): the
 * APP table selectors the NIC trusts, in order of precedence, on one line {@code order: dscp pcp }
 * (each name followed by a space; an empty list, {@code order: }, trusts no selector at all).
 * Only drivers with the kernel's apptrust operations answer it; others fail, which is no answer.
 */
public final class DcbAppTrust {

    /** The selector names dcb prints (its {@code selector_names}). */
    static final Set<String> SELECTORS = Set.of("ethtype", "stream-port", "dgram-port", "port", "dscp", "pcp");

    private DcbAppTrust() {
    }

    /** The trusted selectors in precedence order; empty Optional when there is no well-formed {@code order:} line. */
    public static Optional<List<String>> order(String output) {
        for (String raw : output.split("\n")) {
            String line = raw.strip();
            if (!line.startsWith("order:")) {
                continue;
            }
            List<String> order = new ArrayList<>();
            for (String token : line.substring("order:".length()).strip().split("\\s+")) {
                if (token.isEmpty()) {
                    continue;
                }
                if (!SELECTORS.contains(token) || order.contains(token)) {
                    return Optional.empty();
                }
                order.add(token);
            }
            return Optional.of(List.copyOf(order));
        }
        return Optional.empty();
    }

    /**
     * The trust mode this order means for IP traffic, in mlnx_qos's words: {@code dscp} when DSCP is
     * trusted ahead of PCP (the DSCP decides the priority of routed RoCE, tagged or not), {@code pcp}
     * when PCP is trusted and DSCP is not, or only after it (a tagged frame's PCP decides), {@code
     * none} when neither is trusted (everything lands on the port's default priority).
     */
    public static String trust(List<String> order) {
        int dscp = order.indexOf("dscp");
        int pcp = order.indexOf("pcp");
        if (dscp >= 0 && (pcp < 0 || dscp < pcp)) {
            return "dscp";
        }
        return pcp >= 0 ? "pcp" : "none";
    }
}
