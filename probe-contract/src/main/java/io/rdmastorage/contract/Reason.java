package io.rdmastorage.contract;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * One reason a condition may carry: its CamelCase name (users alert and filter on it, so it is
 * stable), the statuses it comes with, what it means, who writes it, and what it asks someone to
 * do about the node with each status.
 *
 * @param name     the condition's {@code reason}
 * @param statuses the statuses it is given with (ToolNotFound is False when the section requires the tool, else Unknown)
 * @param meaning  one line: what it means and where to look
 * @param writers  node-probe in its report, and/or the operator when it decides the condition itself
 * @param actions  per status it is given with, the {@link RecommendedAction}: {@link RecommendedAction#NONE} with True
 */
public record Reason(String name, Set<Status> statuses, String meaning, Set<Writer> writers,
                     Map<Status, RecommendedAction> actions) {

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
        actions = Map.copyOf(actions);
        if (statuses.isEmpty() || writers.isEmpty()) {
            throw new IllegalArgumentException(name + ": a reason comes with at least one status and one writer");
        }
        if (!actions.keySet().equals(statuses)) {
            throw new IllegalArgumentException(name + ": a reason recommends an action for each of its statuses " + statuses
                    + ", not for " + actions.keySet());
        }
        if (statuses.contains(Status.TRUE) && actions.get(Status.TRUE) != RecommendedAction.NONE) {
            throw new IllegalArgumentException(name + ": a True reason recommends no action");
        }
    }

    public static Reason probe(String name, Status status, String meaning, RecommendedAction action) {
        return of(name, EnumSet.of(status), meaning, Writer.PROBE, action);
    }

    /** A reason given with either status, recommending {@code action} with both (see {@link #withAction}). */
    public static Reason probe(String name, Status status, Status orStatus, String meaning, RecommendedAction action) {
        return of(name, EnumSet.of(status, orStatus), meaning, Writer.PROBE, action);
    }

    public static Reason operator(String name, Status status, String meaning, RecommendedAction action) {
        return of(name, EnumSet.of(status), meaning, Writer.OPERATOR, action);
    }

    public static Reason operator(String name, Status status, Status orStatus, String meaning, RecommendedAction action) {
        return of(name, EnumSet.of(status, orStatus), meaning, Writer.OPERATOR, action);
    }

    private static Reason of(String name, Set<Status> statuses, String meaning, Writer writer, RecommendedAction action) {
        Map<Status, RecommendedAction> actions = new EnumMap<>(Status.class);
        statuses.forEach(s -> actions.put(s, action));
        return new Reason(name, statuses, meaning, EnumSet.of(writer), actions);
    }

    /**
     * The same reason recommending {@code action} with {@code status} (one of its own): for a reason
     * whose Unknown is missing evidence while its False is a fault (RateBelowExpected).
     */
    public Reason withAction(Status status, RecommendedAction action) {
        if (!statuses.contains(status)) {
            throw new IllegalArgumentException(name + " is not given with " + status.wire());
        }
        Map<Status, RecommendedAction> changed = new EnumMap<>(actions);
        changed.put(status, action);
        return new Reason(name, statuses, meaning, writers, changed);
    }

    /**
     * The same reason, also written by the operator, with {@code status} too and {@code action}
     * with it (PeerUnreachable after two peers).
     */
    public Reason alsoByOperator(Status status, RecommendedAction action) {
        Set<Status> all = EnumSet.copyOf(statuses);
        all.add(status);
        Map<Status, RecommendedAction> more = new EnumMap<>(actions);
        more.putIfAbsent(status, action);
        return new Reason(name, all, meaning, EnumSet.of(Writer.PROBE, Writer.OPERATOR), more);
    }

    public boolean writtenBy(Writer writer) {
        return writers.contains(writer);
    }
}
