package io.rdmastorage.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything node-probe and the operator must agree on about one check. Written once per check
 * in {@code io.rdmastorage.contract.checks}; {@link CheckType} lists them.
 *
 * @param conditionType the condition's {@code type} (CamelCase), in the report and in statuses
 * @param section       the spec section that asks for the check: a component of
 *                      {@link io.rdmastorage.contract.spec.ProbeSpec} and a field of the profile's spec
 * @param measuredBy    which kind of measurement reports it
 * @param reasons       every reason of its own, beside the {@link Reasons#COMMON common} ones
 * @param column        its column in {@code kubectl get rdmastoragenode}, if it has one
 */
public record CheckDescriptor(String conditionType, String section, Measurement measuredBy, List<Reason> reasons,
                              Optional<PrinterColumn> column) {

    public CheckDescriptor {
        reasons = List.copyOf(reasons);
        List<String> names = new ArrayList<>();
        for (Reason r : reasons) {
            if (names.contains(r.name())) {
                throw new IllegalArgumentException(conditionType + " declares " + r.name() + " twice");
            }
            names.add(r.name());
        }
    }

    /** Its own reason of that name, or a common one; empty when the check has no such reason. */
    public Optional<Reason> reason(String name) {
        for (Reason r : reasons) {
            if (r.name().equals(name)) {
                return Optional.of(r);
            }
        }
        return Reasons.COMMON.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /**
     * Whether the check may give {@code reason} with {@code status} (as declared here); a check
     * class that returns anything else has a reason missing from its descriptor.
     */
    public boolean declares(String reason, Status status) {
        return reason(reason).filter(r -> r.statuses().contains(status)).isPresent();
    }
}
