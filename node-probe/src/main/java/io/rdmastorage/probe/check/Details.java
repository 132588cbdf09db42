package io.rdmastorage.probe.check;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measured facts a verdict shows ({@code details} in the report), in the order they are added.
 * Values are JSON-friendly only: strings, numbers, booleans, lists and maps of them.
 */
public final class Details {

    private final Map<String, Object> values = new LinkedHashMap<>();

    /** Adds a value; null adds nothing. */
    public Details put(String key, Object value) {
        if (value != null) {
            values.put(key, value);
        }
        return this;
    }

    /** A list, summarised: at most {@link CheckResult#MAX_LIST_ITEMS} items plus {@code <key>Total}. */
    public Details list(String key, List<?> items) {
        if (items.size() > CheckResult.MAX_LIST_ITEMS) {
            values.put(key, List.copyOf(items.subList(0, CheckResult.MAX_LIST_ITEMS)));
            values.put(key + "Total", items.size());
        } else {
            values.put(key, List.copyOf(items));
        }
        return this;
    }

    public Details putAll(Map<String, Object> more) {
        values.putAll(more);
        return this;
    }

    public Map<String, Object> asMap() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
