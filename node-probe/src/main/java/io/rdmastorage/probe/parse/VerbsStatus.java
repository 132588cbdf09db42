package io.rdmastorage.probe.parse;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code mmfsadm test verbs status}: one line {@code VERBS RDMA status: <state>}, where state is
 * {@code started}, {@code disabled} or {@code not started} (verbsRdma on, but no usable port).
 *
 * @param state the state as printed, lower-cased; empty when no status line was found
 */
public record VerbsStatus(Optional<String> state) {

    private static final String PREFIX = "verbs rdma status:";

    public static VerbsStatus parse(String text) {
        for (String line : text.split("\n")) {
            String s = line.strip().toLowerCase(Locale.ROOT);
            if (s.startsWith(PREFIX)) {
                String state = s.substring(PREFIX.length()).strip().replaceAll("\\s+", " ");
                return new VerbsStatus(state.isEmpty() ? Optional.empty() : Optional.of(state));
            }
        }
        return new VerbsStatus(Optional.empty());
    }

    public boolean recognized() {
        return state.isPresent();
    }

    public boolean started() {
        return state.filter("started"::equals).isPresent();
    }

    public boolean disabled() {
        return state.filter("disabled"::equals).isPresent();
    }
}
