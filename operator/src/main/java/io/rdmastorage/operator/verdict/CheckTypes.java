package io.rdmastorage.operator.verdict;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.CheckSections;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.List;

/**
 * The condition types of a status: the contract's checks ({@link CheckType}), plus Ready, and which
 * of them a profile asks for: one per check section of its spec, always in the contract's order,
 * so statuses list them the same way on every node and every write (no diff noise for GitOps tools). Which kind of
 * measurement writes each type is {@link VerdictPart}'s.
 */
public final class CheckTypes {

    public static final String READY = "Ready";

    /** Every check type, in status order. */
    public static final List<String> ALL = CheckType.conditionTypes();

    private CheckTypes() {
    }

    /** The condition types the profile's check sections ask for, in {@link #ALL} order. */
    public static List<String> expected(RdmaStorageProfileSpec spec) {
        return CheckSections.present(spec).stream().map(CheckType::conditionType).toList();
    }
}
