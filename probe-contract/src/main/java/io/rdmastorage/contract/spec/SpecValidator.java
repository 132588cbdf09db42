package io.rdmastorage.contract.spec;

import java.util.List;
import java.util.function.Predicate;

/**
 * Checks every value of a {@link ProbeSpec} before any of it is used; the first broken rule wins.
 * Each section states its own rules ({@link ProbeSpec.Section#validate()}) with the helpers here.
 */
public final class SpecValidator {

    public static final int MAX_LIST = Rules.MAX_LIST;
    private static final String DEVICE_PORT_RULE = "must be <device>/<port> such as mlx5_0/1";

    private SpecValidator() {
    }

    public static ProbeSpec validate(ProbeSpec spec) throws InvalidSpecException {
        for (ProbeSpec.Section section : spec.sections()) {
            section.validate();
        }
        return spec;
    }

    static void devicePorts(String field, List<String> values) throws InvalidSpecException {
        eachMatches(field, values, v -> Rules.DEVICE_PORT.matcher(v).matches(), DEVICE_PORT_RULE);
    }

    static void eachMatches(String field, List<String> values, Predicate<String> rule, String ruleText)
            throws InvalidSpecException {
        bounded(field, values);
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            if (v == null || !rule.test(v)) {
                throw new InvalidSpecException(field + "[" + i + "]", (v == null ? "null" : Rules.show(v)) + " " + ruleText);
            }
        }
    }

    static void bounded(String field, List<?> values) throws InvalidSpecException {
        if (values.size() > MAX_LIST) {
            throw new InvalidSpecException(field, "has " + values.size() + " entries; at most " + MAX_LIST + " are allowed");
        }
    }

    static void required(String field, String value) throws InvalidSpecException {
        if (value == null || value.isEmpty()) {
            throw new InvalidSpecException(field, "is required");
        }
    }

    static void portInRange(String field, int port) throws InvalidSpecException {
        range(field, port, Rules.MIN_HCA_PORT, Rules.MAX_HCA_PORT);
    }

    static void range(String field, int value, int min, int max) throws InvalidSpecException {
        if (value < min || value > max) {
            throw new InvalidSpecException(field, value + " must be between " + min + " and " + max);
        }
    }
}
