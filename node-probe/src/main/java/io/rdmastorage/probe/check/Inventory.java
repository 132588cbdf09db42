package io.rdmastorage.probe.check;

import io.rdmastorage.contract.InventoryFact;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The inventory facts a probe collects ({@link InventoryFact}), each a short single-line string: the
 * operator compares them across nodes as they are, so a value must not carry anything that differs
 * between healthy nodes (uptime, a PID, a device's PCI address).
 */
public final class Inventory {

    private final Map<InventoryFact, String> facts = new EnumMap<>(InventoryFact.class);

    /** Sets a fact; white space runs become one space, a longer value is cut, an empty one is ignored. */
    public Inventory put(InventoryFact fact, String value) {
        String v = value == null ? "" : value.strip().replaceAll("\\s+", " ");
        if (!v.isEmpty()) {
            facts.put(fact, v.length() <= InventoryFact.MAX_VALUE_CHARS ? v
                    : v.substring(0, InventoryFact.MAX_VALUE_CHARS - 1) + "…");
        }
        return this;
    }

    /** The host was looked at and does not have it: {@link InventoryFact#NOT_INSTALLED}. */
    public Inventory notInstalled(InventoryFact fact) {
        facts.put(fact, InventoryFact.NOT_INSTALLED);
        return this;
    }

    /**
     * A fact with one value per device or port ({@code 28.41.1000} on every HCA): the distinct values,
     * sorted and joined, so a node whose HCAs agree has one value and the order of devices does not matter.
     */
    public Inventory distinct(InventoryFact fact, Collection<String> values) {
        TreeSet<String> set = new TreeSet<>();
        values.stream().filter(Objects::nonNull).map(String::strip).filter(v -> !v.isEmpty()).forEach(set::add);
        return put(fact, String.join(", ", set));
    }

    /** Adds every fact of {@code other} this inventory does not have yet. */
    public Inventory addAbsent(Map<InventoryFact, String> other) {
        other.forEach(facts::putIfAbsent);
        return this;
    }

    public Map<InventoryFact, String> asMap() {
        return Map.copyOf(facts);
    }
}
