package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.operator.api.FleetFactCounts;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The distribution of each inventory fact over a profile's matching nodes: how many nodes hold each
 * value, and the first few nodes (by name) of each value, to name the odd ones out. From it come the
 * profile's {@link #FLEET_CONSISTENT} condition, each node's {@link #MATCHES_FLEET} and the counts in
 * the profile's status. One pass over the nodes; what it keeps is bounded per value, and what it
 * writes into the profile is bounded per fact, so 5,000 nodes cost 5,000 steps and a small status.
 *
 * <p>The majority value of a fact is the one most nodes hold; when two values tie for the most,
 * there is none, and no node of those values can be called the odd one (MatchesFleet Unknown). A
 * fact a node did not report is compared with nothing (the probe could not look); a fact it found
 * absent is the value {@link InventoryFact#NOT_INSTALLED}, like any other.
 */
public final class FleetDistribution {

    public static final String FLEET_CONSISTENT = "FleetConsistent";
    public static final String MATCHES_FLEET = "MatchesFleet";
    /** How many nodes a message names per value, and how many values per fact the status lists. */
    public static final int NAMED = 5;
    /** How many minority values of one fact a message names. */
    static final int VALUES_NAMED = 3;

    /** A matching node and its inventory facts (empty when it has reported none). */
    public record Member(String node, Map<String, String> inventory) {
    }

    private final Map<String, FactTally> facts = new LinkedHashMap<>();
    private final Set<String> allowMixed;
    private int reported;

    private FleetDistribution(Set<String> allowMixed) {
        this.allowMixed = Set.copyOf(allowMixed);
        for (InventoryFact fact : InventoryFact.values()) {
            facts.put(fact.key(), new FactTally(fact));
        }
    }

    public static FleetDistribution of(Iterable<Member> members, Set<String> allowMixed) {
        FleetDistribution d = new FleetDistribution(allowMixed);
        for (Member m : members) {
            d.add(m.node(), m.inventory());
        }
        return d;
    }

    private void add(String node, Map<String, String> inventory) {
        if (inventory == null || inventory.isEmpty()) {
            return;
        }
        reported++;
        inventory.forEach((key, value) -> {
            FactTally t = facts.get(key);
            if (t != null && value != null) {
                t.add(value, node);
            }
        });
    }

    /** How many nodes have reported inventory facts. */
    public int reported() {
        return reported;
    }

    /** Per fact any node reported, its number of distinct values (for the metric). */
    public Map<String, Integer> distinctValues() {
        Map<String, Integer> distinct = new LinkedHashMap<>();
        reportedFacts().forEach(t -> distinct.put(t.fact.key(), t.counts.size()));
        return distinct;
    }

    /** The counts for the profile's status: every reported fact, its most common values first. */
    public List<FleetFactCounts> counts() {
        List<FleetFactCounts> all = new ArrayList<>();
        for (FactTally t : reportedFacts()) {
            FleetFactCounts c = new FleetFactCounts();
            c.setFact(t.fact.key());
            List<Map.Entry<String, Integer>> sorted = t.sorted();
            int otherNodes = 0;
            for (int i = 0; i < sorted.size(); i++) {
                if (i < NAMED) {
                    c.getValues().add(new FleetFactCounts.ValueCount(sorted.get(i).getKey(), sorted.get(i).getValue()));
                } else {
                    otherNodes += sorted.get(i).getValue();
                }
            }
            if (sorted.size() > NAMED) {
                c.setOtherValues(sorted.size() - NAMED);
                c.setOtherNodes(otherNodes);
            }
            if (allowMixed.contains(t.fact.key())) {
                c.setAllowMixed(true);
            }
            all.add(c);
        }
        return all;
    }

    /**
     * The profile's FleetConsistent: True when every compared fact has one value over the nodes
     * that reported it; False {@code FleetDiverges} naming, per fact that differs, the majority with
     * its count and the first minority nodes with their values; Unknown while fewer than two nodes
     * have reported.
     */
    public Condition consistent(long generation, Instant at) {
        if (reported < 2) {
            return Conditions.of(FLEET_CONSISTENT, Conditions.UNKNOWN, Reasons.FLEET_TOO_SMALL, reported
                    + " node" + (reported == 1 ? " has" : "s have") + " reported inventory facts so far: the fleet is "
                    + "compared once two have", generation, at);
        }
        List<String> diverging = new ArrayList<>();
        List<String> mixed = new ArrayList<>();
        List<String> uniform = new ArrayList<>();
        for (FactTally t : reportedFacts()) {
            if (t.counts.size() == 1) {
                uniform.add(t.fact.label());
            } else if (allowMixed.contains(t.fact.key())) {
                mixed.add(t.fact.label() + " (" + t.counts.size() + " values)");
            } else {
                diverging.add(t.describe());
            }
        }
        if (!diverging.isEmpty()) {
            return Conditions.of(FLEET_CONSISTENT, Conditions.FALSE, Reasons.FLEET_DIVERGES, String.join("; ", diverging)
                    + ". `kubectl describe rsn` of a named node says what differs there (MatchesFleet); bring it in "
                    + "line, or name the fact in spec.fleet.allowMixed while a rolling upgrade is under way",
                    generation, at);
        }
        String message = reported + " nodes agree on " + (uniform.isEmpty() ? "every fact they report" : String.join(", ", uniform))
                + (mixed.isEmpty() ? "" : "; allowed to differ (spec.fleet.allowMixed): " + String.join(", ", mixed));
        return Conditions.of(FLEET_CONSISTENT, Conditions.TRUE, Reasons.FLEET_UNIFORM, message, generation, at);
    }

    /**
     * One node's MatchesFleet: False {@code DiffersFromFleet} naming each fact whose value here is not
     * the majority's (its value and the majority's, no counts, so the message stays put while nodes
     * report); Unknown when the node reported nothing, the fleet is too small, or a fact has no
     * majority; True otherwise.
     */
    public Condition matchesFleet(Map<String, String> inventory, long generation, Instant at) {
        if (inventory == null || inventory.isEmpty()) {
            return Conditions.of(MATCHES_FLEET, Conditions.UNKNOWN, Reasons.INVENTORY_NOT_REPORTED, "no inventory facts "
                    + "from this node's probe yet (not probed yet, a probe that gave no report, or a probe image older "
                    + "than the operator)", generation, at);
        }
        if (reported < 2) {
            return Conditions.of(MATCHES_FLEET, Conditions.UNKNOWN, Reasons.FLEET_TOO_SMALL, "no other node of the profile "
                    + "has reported inventory facts yet: nothing to compare with", generation, at);
        }
        List<String> differs = new ArrayList<>();
        List<String> tied = new ArrayList<>();
        for (FactTally t : facts.values()) {
            String value = inventory.get(t.fact.key());
            if (value == null || allowMixed.contains(t.fact.key()) || t.counts.size() < 2) {
                continue;
            }
            Optional<String> majority = t.majority();
            if (majority.isPresent() && !majority.get().equals(value)) {
                differs.add(t.fact.label() + " is " + value + " here, " + majority.get() + " on most nodes");
            } else if (majority.isEmpty()) {
                tied.add(t.fact.label() + " " + value + " (as many nodes hold another value)");
            }
        }
        if (!differs.isEmpty()) {
            return Conditions.of(MATCHES_FLEET, Conditions.FALSE, Reasons.DIFFERS_FROM_FLEET, String.join("; ", differs)
                    + ": bring this node in line with the others (or allow the fact in spec.fleet.allowMixed)",
                    generation, at);
        }
        if (!tied.isEmpty()) {
            return Conditions.of(MATCHES_FLEET, Conditions.UNKNOWN, Reasons.NO_FLEET_MAJORITY, "no majority to compare "
                    + "with: " + String.join("; ", tied) + "; the profile's FleetConsistent lists the values", generation, at);
        }
        return Conditions.of(MATCHES_FLEET, Conditions.TRUE, Reasons.MATCHES_MAJORITY, "every inventory fact reported "
                + "here matches the value most nodes of the profile hold", generation, at);
    }

    private List<FactTally> reportedFacts() {
        return facts.values().stream().filter(t -> !t.counts.isEmpty()).toList();
    }

    /** One fact over the nodes: nodes per value, the first few names per value. */
    private static final class FactTally {
        final InventoryFact fact;
        final Map<String, Integer> counts = new HashMap<>();
        final Map<String, TreeSet<String>> names = new HashMap<>();

        FactTally(InventoryFact fact) {
            this.fact = fact;
        }

        void add(String value, String node) {
            counts.merge(value, 1, Integer::sum);
            TreeSet<String> first = names.computeIfAbsent(value, v -> new TreeSet<>());
            first.add(node);
            if (first.size() > NAMED) {
                first.pollLast();
            }
        }

        /** Values by node count, most first; equal counts by value, for a stable order. */
        List<Map.Entry<String, Integer>> sorted() {
            List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
            sorted.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()));
            return sorted;
        }

        /** The value most nodes hold; empty when two values tie for the most. */
        Optional<String> majority() {
            List<Map.Entry<String, Integer>> sorted = sorted();
            if (sorted.size() > 1 && sorted.get(0).getValue().equals(sorted.get(1).getValue())) {
                return Optional.empty();
            }
            return Optional.of(sorted.get(0).getKey());
        }

        /** {@code HCA firmware: 28.41.1000 on 37 nodes; 28.39.1002 on gpu-07, gpu-12}. */
        String describe() {
            List<Map.Entry<String, Integer>> sorted = sorted();
            List<String> parts = new ArrayList<>();
            int from = 0;
            if (majority().isPresent()) {
                parts.add(sorted.get(0).getKey() + " on " + nodes(sorted.get(0).getValue()));
                from = 1;
            } else {
                parts.add("no majority");
            }
            for (int i = from; i < sorted.size() && i < from + VALUES_NAMED; i++) {
                parts.add(sorted.get(i).getKey() + " on " + named(sorted.get(i)));
            }
            int more = sorted.size() - from - VALUES_NAMED;
            if (more > 0) {
                parts.add("and " + more + " more value" + (more == 1 ? "" : "s"));
            }
            return fact.label() + ": " + String.join("; ", parts);
        }

        private String named(Map.Entry<String, Integer> value) {
            TreeSet<String> first = names.get(value.getKey());
            int more = value.getValue() - first.size();
            return String.join(", ", first) + (more > 0 ? " and " + more + " more" : "");
        }

        private static String nodes(int n) {
            return n + (n == 1 ? " node" : " nodes");
        }
    }
}
