package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.FleetFactCounts;
import io.rdmastorage.operator.api.FleetSpec;
import io.rdmastorage.operator.api.NodeCounts;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;

/**
 * A profile's status from its nodes' verdicts: counts, {@code Ready}, one condition per check
 * type, and the worst few nodes by name. Small whatever the number of nodes (the names it holds
 * are bounded), and one pass over the nodes with O(log 10) work each: no step looks at two nodes
 * together, so 5,000 nodes cost 5,000 steps.
 *
 * <p>A node counts as the {@link NodeReadiness} of its check conditions, not as its stored Ready
 * condition: a check added to the profile but not probed yet on a node is Unknown there, while an
 * edit that adds no check (an interval, say) leaves every verdict standing instead of flapping.
 *
 * <p>No matching node gives {@code Ready} Unknown {@link Reasons#NO_MATCHING_NODES}, not False: nothing
 * was found failing, and an empty selection is legitimate (a profile applied before its nodes join,
 * a pool scaled to zero), so it must not page anyone or mark an Argo CD application Degraded; it is
 * not True either, because nothing was verified. The message says how to check the selector.
 *
 * <p>Unknown nodes give one of three reasons by their {@link UnknownCause} (the worst over all of
 * them, not only the few the message names): {@link Reasons#NODES_AWAITING},
 * {@link Reasons#NODES_PAUSED} or {@link Reasons#NODES_UNKNOWN}, so a reader never has to parse the
 * message to tell waiting from trouble.
 */
public final class ProfileAggregation {

    /** How many node names {@code status.notReadyNodes} holds. */
    public static final int NOT_READY_NODES = 10;
    /** How many node names a condition message names per group before "... and N more". */
    public static final int MESSAGE_NODES = 5;

    /** A matching node: its name and verdict, for callers that hold statuses rather than RdmaStorageNode objects. */
    public record Member(String node, RdmaStorageNodeStatus status) {
    }

    private ProfileAggregation() {
    }

    /**
     * @param nodes    the RdmaStorageNodes of the profile's matching nodes (a null status counts as not probed yet)
     * @param previous the stored profile status, whose conditions keep their transition times; may be null
     */
    public static RdmaStorageProfileStatus aggregate(RdmaStorageProfileSpec spec, long generation,
                                                     List<RdmaStorageNode> nodes, RdmaStorageProfileStatus previous,
                                                     Instant now) {
        return aggregate(spec, generation, nodes, ProfileAggregation::nodeName, RdmaStorageNode::getStatus, null, previous,
                now);
    }

    /** {@link #aggregate} for name/status pairs. */
    public static RdmaStorageProfileStatus aggregateVerdicts(RdmaStorageProfileSpec spec, long generation,
                                                             List<Member> nodes, RdmaStorageProfileStatus previous,
                                                             Instant now) {
        return aggregate(spec, generation, nodes, Member::node, Member::status, null, previous, now);
    }

    /**
     * {@link #aggregateVerdicts} with the fleet comparison: its FleetConsistent after the check
     * conditions, and its counts in {@code status.fleet}.
     *
     * @param fleet the distribution of the same nodes' inventory facts
     */
    public static RdmaStorageProfileStatus aggregateVerdicts(RdmaStorageProfileSpec spec, long generation,
                                                             List<Member> nodes, FleetDistribution fleet,
                                                             RdmaStorageProfileStatus previous, Instant now) {
        return aggregate(spec, generation, nodes, Member::node, Member::status, fleet, previous, now);
    }

    private static <N> RdmaStorageProfileStatus aggregate(RdmaStorageProfileSpec spec, long generation, Iterable<N> nodes,
                                                          Function<N, String> name,
                                                          Function<N, RdmaStorageNodeStatus> statusOf,
                                                          FleetDistribution fleet,
                                                          RdmaStorageProfileStatus previous, Instant now) {
        Tally tally = new Tally(CheckTypes.expected(spec), FleetSpec.required(spec));
        for (N node : nodes) {
            RdmaStorageNodeStatus status = statusOf.apply(node);
            tally.add(name.apply(node), status == null ? null : status.getConditions());
        }
        RdmaStorageProfileStatus status = new RdmaStorageProfileStatus();
        status.setObservedGeneration(generation);
        status.setNodes(tally.counts());
        status.setNotReadyNodes(tally.notReadyNodes());
        List<Condition> conditions = tally.conditions(generation, now);
        if (fleet != null) {
            conditions.add(fleet.consistent(generation, now));
            List<FleetFactCounts> counts = fleet.counts();
            status.setFleet(counts.isEmpty() ? null : counts);
        }
        status.setConditions(Conditions.merge(previous == null ? null : previous.getConditions(), conditions, now,
                generation));
        return status;
    }

    /** The node an RdmaStorageNode reports on: its spec, else its label, else its own name. */
    static String nodeName(RdmaStorageNode node) {
        if (node.getSpec() != null && node.getSpec().getNodeName() != null) {
            return node.getSpec().getNodeName();
        }
        Map<String, String> labels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
        if (labels != null && labels.get(RdmaStorageNode.NODE_LABEL) != null) {
            return labels.get(RdmaStorageNode.NODE_LABEL);
        }
        return node.getMetadata() == null ? "(unnamed)" : node.getMetadata().getName();
    }

    /** One node in a list of names: worst first (False before Unknown), then by name. */
    private record Entry(String node, NodeReadiness readiness) {
        static final Comparator<Entry> WORST_FIRST = Comparator
                .comparingInt((Entry e) -> e.readiness.status().equals(Conditions.FALSE) ? 0 : 1)
                .thenComparing(Entry::node);

        String described() {
            return node + " (" + readiness.summary() + ")";
        }
    }

    /** A node and its reason for one check. */
    private record Named(String node, String reason) {
        static final Comparator<Named> BY_NAME = Comparator.comparing(Named::node);

        String described() {
            return node + " (" + reason + ")";
        }
    }

    /** One check type over all nodes. */
    private static final class TypeTally {
        int falses;
        int unknown;
        final Worst<Named> falseNodes = new Worst<>(MESSAGE_NODES, Named.BY_NAME);
        final Worst<Named> unknownNodes = new Worst<>(MESSAGE_NODES, Named.BY_NAME);
        UnknownCause unknownCause;
    }

    private static final class Tally {
        final List<String> expected;
        /** The types a node's readiness counts: the checks, and MatchesFleet when {@code fleet.required}. */
        final List<String> judged;
        final Map<String, TypeTally> types = new LinkedHashMap<>();
        int matched;
        int ready;
        int notReady;
        int unknown;
        /** The worst cause over all Unknown nodes, not only those the message names; null while none. */
        UnknownCause unknownCause;
        final Worst<Entry> worst = new Worst<>(NOT_READY_NODES, Entry.WORST_FIRST);
        final Worst<Entry> falseNodes = new Worst<>(MESSAGE_NODES, Entry.WORST_FIRST);
        final Worst<Entry> unknownNodes = new Worst<>(MESSAGE_NODES, Entry.WORST_FIRST);

        Tally(List<String> expected, boolean fleetRequired) {
            this.expected = expected;
            List<String> judged = new ArrayList<>(expected);
            if (fleetRequired && !expected.isEmpty()) {
                judged.add(FleetDistribution.MATCHES_FLEET);
            }
            this.judged = judged;
            for (String type : judged) {
                types.put(type, new TypeTally());
            }
        }

        void add(String node, List<Condition> conditions) {
            matched++;
            NodeReadiness r = NodeReadiness.of(judged, conditions);
            for (Condition c : r.falses()) {
                TypeTally t = types.get(c.getType());
                t.falses++;
                t.falseNodes.offer(new Named(node, c.getReason()));
            }
            for (Condition c : r.unknown()) {
                TypeTally t = types.get(c.getType());
                t.unknown++;
                t.unknownNodes.offer(new Named(node, c.getReason()));
                t.unknownCause = UnknownCause.of(c.getReason()).worse(t.unknownCause);
            }
            switch (r.status()) {
                case Conditions.TRUE -> ready++;
                case Conditions.FALSE -> {
                    notReady++;
                    Entry e = new Entry(node, r);
                    worst.offer(e);
                    falseNodes.offer(e);
                }
                default -> {
                    unknown++;
                    unknownCause = r.unknownCause().worse(unknownCause);
                    Entry e = new Entry(node, r);
                    worst.offer(e);
                    unknownNodes.offer(e);
                }
            }
        }

        NodeCounts counts() {
            NodeCounts counts = new NodeCounts();
            counts.setMatched(matched);
            counts.setReady(ready);
            counts.setNotReady(notReady);
            counts.setUnknown(unknown);
            return counts;
        }

        List<String> notReadyNodes() {
            return worst.sorted().stream().map(Entry::node).toList();
        }

        List<Condition> conditions(long generation, Instant now) {
            List<Condition> conditions = new ArrayList<>(expected.size() + 1);
            conditions.add(ready(generation, now));
            for (String type : expected) {
                conditions.add(check(type, generation, now));
            }
            return conditions;
        }

        private Condition ready(long generation, Instant now) {
            if (expected.isEmpty()) {
                // The same verdict every node has: there is nothing to check.
                return NodeReadiness.of(expected, List.of()).readyCondition(generation, now);
            }
            if (matched == 0) {
                return Conditions.of(CheckTypes.READY, Conditions.UNKNOWN, Reasons.NO_MATCHING_NODES, noMatch(), generation, now);
            }
            if (notReady > 0) {
                String message = notReady + " of " + matched + " nodes not ready: " + names(falseNodes, Entry::described)
                        + (unknown > 0 ? "; " + unknown + " unknown: " + names(unknownNodes, Entry::described) : "");
                return Conditions.of(CheckTypes.READY, Conditions.FALSE, Reasons.NODES_NOT_READY, message, generation, now);
            }
            if (unknown > 0) {
                return Conditions.of(CheckTypes.READY, Conditions.UNKNOWN, unknownCause.reason(), unknown + " of " + matched
                        + " nodes unknown: " + names(unknownNodes, Entry::described), generation, now);
            }
            return Conditions.of(CheckTypes.READY, Conditions.TRUE, Reasons.ALL_NODES_READY,
                    ready + " of " + matched + " nodes ready", generation, now);
        }

        private Condition check(String type, long generation, Instant now) {
            if (matched == 0) {
                return Conditions.of(type, Conditions.UNKNOWN, Reasons.NO_MATCHING_NODES, noMatch(), generation, now);
            }
            TypeTally t = types.get(type);
            int trues = matched - t.falses - t.unknown;
            String unknownPart = t.unknown + " Unknown: " + names(t.unknownNodes, Named::described);
            if (t.falses > 0) {
                return Conditions.of(type, Conditions.FALSE, Reasons.NODES_FAILING, t.falses + " of " + matched
                        + " nodes False: " + names(t.falseNodes, Named::described)
                        + (t.unknown > 0 ? "; " + unknownPart : "") + "; " + trues + " True", generation, now);
            }
            if (t.unknown > 0) {
                return Conditions.of(type, Conditions.UNKNOWN, t.unknownCause.reason(), t.unknown + " of " + matched
                        + " nodes Unknown: " + names(t.unknownNodes, Named::described) + "; " + trues + " True",
                        generation, now);
            }
            return Conditions.of(type, Conditions.TRUE, Reasons.ALL_NODES_PASSED, trues + " of " + matched + " nodes True",
                    generation, now);
        }

        private static String noMatch() {
            return "spec.nodeSelector matches no node, so nothing is verified: compare it with "
                    + "`kubectl get nodes --show-labels`";
        }

        private static <T> String names(Worst<T> worst, Function<T, String> described) {
            List<String> parts = new ArrayList<>(MESSAGE_NODES + 1);
            for (T item : worst.sorted()) {
                parts.add(described.apply(item));
            }
            if (worst.more() > 0) {
                parts.add("... and " + worst.more() + " more");
            }
            return String.join(", ", parts);
        }
    }

    /**
     * The first {@code limit} items by an order, out of any number offered, in O(n log limit) time and
     * O(limit) memory: how a profile names its worst few nodes out of thousands without sorting them all.
     */
    private static final class Worst<T> {

        private final int limit;
        private final Comparator<T> order;
        /** The kept items, the last by {@link #order} at the head, so it is the one to evict. */
        private final PriorityQueue<T> kept;
        private int offered;

        Worst(int limit, Comparator<T> order) {
            this.limit = limit;
            this.order = order;
            this.kept = new PriorityQueue<>(Math.max(1, limit + 1), order.reversed());
        }

        void offer(T item) {
            offered++;
            if (limit <= 0) {
                return;
            }
            if (kept.size() < limit) {
                kept.add(item);
            } else if (order.compare(item, kept.peek()) < 0) {
                kept.poll();
                kept.add(item);
            }
        }

        /** The kept items, first first. */
        List<T> sorted() {
            List<T> items = new ArrayList<>(kept);
            items.sort(order);
            return items;
        }

        /** How many were offered but not kept. */
        int more() {
            return offered - kept.size();
        }

        int offered() {
            return offered;
        }
    }
}
