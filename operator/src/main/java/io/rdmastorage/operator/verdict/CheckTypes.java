package io.rdmastorage.operator.verdict;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.operator.api.CheckSections;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.List;

/**
 * The condition types of a status: the contract's checks ({@link CheckType}), plus Ready, and which
 * of them a profile asks for: one per check section of its spec, always in the contract's order,
 * so statuses list them the same way on every node and every write (no diff noise for GitOps tools).
 */
public final class CheckTypes {

    public static final String READY = "Ready";

    /** Every check type, in status order. */
    public static final List<String> ALL = CheckType.conditionTypes();

    /**
     * The one check type the node's own probe pod does not measure: VerbsLatency needs a pair of
     * pods on two nodes (see the operator's latency package). Statuses built from a node's probe
     * pod carry it as {@link Reasons#AWAITING_MEASUREMENT}, and {@link NodeVerdicts#merge} keeps
     * what the last latency measurement said instead.
     */
    public static final String PAIRWISE = onlyOne(CheckType.measuredBy(Measurement.PAIR_PROBE));

    private CheckTypes() {
    }

    /** The condition types the profile's check sections ask for, in {@link #ALL} order. */
    public static List<String> expected(RdmaStorageProfileSpec spec) {
        return CheckSections.present(spec).stream().map(CheckType::conditionType).toList();
    }

    private static String onlyOne(List<CheckType> types) {
        if (types.size() != 1) {
            throw new IllegalStateException("the operator measures exactly one check in pairs, not " + types);
        }
        return types.get(0).conditionType();
    }
}
