package io.rdmastorage.probe.check;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Status;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One check's verdict: a Kubernetes-style condition ({@code type}, {@code status}, CamelCase
 * {@code reason}, human {@code message}) plus the measured facts that justify it.
 *
 * <p>{@code inventory}: the node's inventory facts this check's gathering saw (report-wide, not the
 * condition's). Details hold JSON-friendly values only: strings, numbers, booleans, lists and maps of them.
 */
public record CheckResult(CheckType type, Status status, String reason, String message, Map<String, Object> details,
                          Map<InventoryFact, String> inventory) {

    /** Longer lists in details are cut to this many items, and their full size is given beside them. */
    public static final int MAX_LIST_ITEMS = 10;

    public CheckResult {
        // with -ea (the tests): a reason the check's descriptor does not declare is a contract to fix
        assert type.descriptor().declares(reason, status)
                : type + " gave " + status.wire() + " " + reason + ", which its descriptor in probe-contract does not declare";
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
        inventory = Map.copyOf(inventory);
    }

    /** A verdict without inventory facts. */
    public CheckResult(CheckType type, Status status, String reason, String message, Map<String, Object> details) {
        this(type, status, reason, message, details, Map.of());
    }

    /** The same verdict with the inventory facts the check's facts give ({@link FactsCheck#inventory}). */
    public CheckResult withInventory(Map<InventoryFact, String> facts) {
        return new CheckResult(type, status, reason, message, details, facts);
    }

    public static Builder builder(CheckType type) {
        return new Builder(type);
    }

    public static final class Builder {
        private final CheckType type;
        private Status status = Status.UNKNOWN;
        private String reason;
        private String message;
        private final Details details = new Details();

        private Builder(CheckType type) {
            this.type = type;
        }

        public Builder status(Status status) {
            this.status = status;
            return this;
        }

        public Builder condition(Status status, String reason, String message) {
            this.status = status;
            this.reason = reason;
            this.message = message;
            return this;
        }

        public Builder detail(String key, Object value) {
            details.put(key, value);
            return this;
        }

        /** A list detail, summarised: at most {@link #MAX_LIST_ITEMS} items plus {@code <key>Total}. */
        public Builder detailList(String key, List<?> values) {
            details.list(key, values);
            return this;
        }

        public CheckResult build() {
            if (reason == null || message == null) {
                throw new IllegalStateException(type + ": a verdict needs a reason and a message");
            }
            return new CheckResult(type, status, reason, message, details.asMap());
        }
    }
}
