package io.rdmastorage.contract;

import java.util.EnumSet;
import java.util.Set;

/**
 * One reason a condition may carry: its CamelCase name (users alert and filter on it, so it is
 * stable), the statuses it comes with, what it means, and who writes it.
 *
 * @param name     the condition's {@code reason}
 * @param statuses the statuses it is given with (ToolNotFound is False when the section requires the tool, else Unknown)
 * @param meaning  one line: what it means and where to look
 * @param writers  node-probe in its report, and/or the operator when it decides the condition itself
 */
public record Reason(String name, Set<Status> statuses, String meaning, Set<Writer> writers) {

    /** Who puts the reason into a condition. */
    public enum Writer {
        /** node-probe, in its report. */
        PROBE,
        /** the operator, for a check whose verdict it decides itself (no peer, no ceph.conf, ...). */
        OPERATOR
    }

    public Reason {
        statuses = Set.copyOf(statuses);
        writers = Set.copyOf(writers);
        if (statuses.isEmpty() || writers.isEmpty()) {
            throw new IllegalArgumentException(name + ": a reason comes with at least one status and one writer");
        }
    }

    public static Reason probe(String name, Status status, String meaning) {
        return new Reason(name, EnumSet.of(status), meaning, EnumSet.of(Writer.PROBE));
    }

    public static Reason probe(String name, Status status, Status orStatus, String meaning) {
        return new Reason(name, EnumSet.of(status, orStatus), meaning, EnumSet.of(Writer.PROBE));
    }

    public static Reason operator(String name, Status status, String meaning) {
        return new Reason(name, EnumSet.of(status), meaning, EnumSet.of(Writer.OPERATOR));
    }

    public static Reason operator(String name, Status status, Status orStatus, String meaning) {
        return new Reason(name, EnumSet.of(status, orStatus), meaning, EnumSet.of(Writer.OPERATOR));
    }

    /** The same reason, also written by the operator, with these statuses too (PeerUnreachable after two peers). */
    public Reason alsoByOperator(Status... more) {
        Set<Status> all = EnumSet.copyOf(statuses);
        all.addAll(Set.of(more));
        return new Reason(name, all, meaning, EnumSet.of(Writer.PROBE, Writer.OPERATOR));
    }

    public boolean writtenBy(Writer writer) {
        return writers.contains(writer);
    }
}
