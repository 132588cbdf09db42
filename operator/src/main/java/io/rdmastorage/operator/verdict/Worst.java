package io.rdmastorage.operator.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code limit} items by an order, out of any number offered, in O(n log limit) time and
 * O(limit) memory: how a profile names its worst few nodes out of thousands without sorting them all.
 */
final class Worst<T> {

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
