package io.rdmastorage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.spec.ProbeSpec;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CheckTypeTest {

    /** metav1.Condition's rules for type and reason, so that what a descriptor names is always valid in a status. */
    private static final Pattern CAMEL_CASE = Pattern.compile("[A-Z][A-Za-z0-9]{0,62}");

    @Test
    void eachCheckHasItsOwnSectionOfTheSpecModelInOrder() {
        assertThat(Arrays.stream(CheckType.values()).map(CheckType::section).toList())
                .containsExactlyElementsOf(ProbeSpec.sectionNames());
        for (String section : ProbeSpec.sectionNames()) {
            assertThat(ProbeSpec.Section.class).isAssignableFrom(ProbeSpec.sectionType(section));
        }
    }

    @Test
    void conditionTypesAndReasonsAreUniqueCamelCase() {
        List<String> types = CheckType.conditionTypes();
        assertThat(types).doesNotHaveDuplicates().allMatch(t -> CAMEL_CASE.matcher(t).matches()).doesNotContain("Ready");
        for (CheckType type : CheckType.values()) {
            assertThat(type.descriptor().reasons()).extracting(Reason::name).allMatch(r -> CAMEL_CASE.matcher(r).matches());
            assertThat(type.descriptor().reasons()).as("%s has a True reason", type)
                    .anyMatch(r -> r.statuses().contains(Status.TRUE));
            assertThat(type.descriptor().reasons()).extracting(Reason::name).as("%s repeats no common reason", type)
                    .doesNotContainAnyElementsOf(Reasons.COMMON.stream().map(Reason::name).toList());
        }
    }

    @Test
    void aDescriptorDeclaresItsOwnAndTheCommonReasonsWithTheirStatuses() {
        CheckDescriptor gpfs = CheckType.GPFS_VERBS.descriptor();
        assertThat(gpfs.declares("TcpFallback", Status.FALSE)).isTrue();
        assertThat(gpfs.declares("TcpFallback", Status.TRUE)).isFalse();
        assertThat(gpfs.declares("ToolTimedOut", Status.UNKNOWN)).isTrue();
        assertThat(gpfs.declares("PortDown", Status.FALSE)).isFalse();
        assertThat(CheckType.VERBS_LATENCY.descriptor().reason("PeerUnreachable").orElseThrow().statuses())
                .containsExactlyInAnyOrder(Status.FALSE, Status.UNKNOWN);
    }

    @Test
    void eachConditionTypeBelongsToOneKindOfMeasurement() {
        assertThat(CheckType.measuredBy(Measurement.PAIR_PROBE)).containsExactly(CheckType.VERBS_LATENCY);
        assertThat(CheckType.measuredBy(Measurement.NODE_PROBE)).hasSize(CheckType.values().length - 1);
        assertThat(CheckType.ofConditionType("GdsReady")).contains(CheckType.GDS_READY);
        assertThat(CheckType.ofConditionType("Ready")).isEmpty();
    }
}
