package io.rdmastorage.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.verdict.VerdictChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

    static final Instant T0 = Instant.parse("2024-05-01T10:00:00.999999Z");
    static final Instant T1 = Instant.parse("2024-05-01T11:00:00Z");

    @Test
    void timestampsAreRfc3339UtcSeconds() {
        assertThat(Timestamps.format(T0)).isEqualTo("2024-05-01T10:00:00Z");
        assertThat(Conditions.of("Ready", "True", "R", "m", 1, T0).getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z");
        assertThat(Timestamps.parse("2024-05-01T10:00:00Z")).contains(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(Timestamps.parse("not a time")).isEmpty();
        assertThat(Timestamps.human(java.time.Duration.ofMinutes(45))).isEqualTo("45m");
        assertThat(Timestamps.human(java.time.Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(Timestamps.human(java.time.Duration.ofSeconds(40))).isEqualTo("40s");
    }

    @Test
    void theTransitionTimeMovesOnlyWithTheStatus() {
        List<Condition> previous = List.of(
                Conditions.of("Ready", "True", "AllChecksPassed", "fine", 1, T0),
                Conditions.of("GpfsVerbs", "True", "VerbsConnected", "fine", 1, T0),
                Conditions.of("GdsReady", "False", "IommuEnabled", "off please", 1, T0));
        List<Condition> next = List.of(
                Conditions.of("Ready", "False", "ChecksFailed", "GpfsVerbs: TcpFallback", 2, T1),
                Conditions.of("GpfsVerbs", "False", "TcpFallback", "2 peers on TCP", 2, T1),
                Conditions.of("GdsReady", "False", "NvidiaFsMissing", "another reason, same status", 2, T1),
                Conditions.of("NvmeofRdma", "True", "AllTargetsRdma", "new check", 2, T1));

        List<Condition> merged = Conditions.merge(previous, next, T1, 2);

        assertThat(merged).extracting(Condition::getType).containsExactly("Ready", "GpfsVerbs", "GdsReady", "NvmeofRdma");
        assertThat(merged).extracting(Condition::getLastTransitionTime).containsExactly(
                "2024-05-01T11:00:00Z", "2024-05-01T11:00:00Z", "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z");
        assertThat(merged.get(2).getReason()).isEqualTo("NvidiaFsMissing");
        assertThat(merged.get(2).getMessage()).isEqualTo("another reason, same status");
        assertThat(merged).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(2L));
    }

    @Test
    void mergingTheSameVerdictAgainChangesNothing() {
        List<Condition> stored = Conditions.merge(null, List.of(Conditions.of("Ready", "False", "ChecksFailed", "m", 3, T0)), T0, 3);
        List<Condition> again = Conditions.merge(stored, List.of(Conditions.of("Ready", "False", "ChecksFailed", "m", 3, T1)), T1, 3);
        assertThat(again).isEqualTo(stored);
    }

    @Test
    void typesNoLongerCheckedAreDroppedAndInputsAreNotModified() {
        List<Condition> previous = new ArrayList<>(List.of(Conditions.of("CephMessenger", "True", "SupportedMessenger", "m", 1, T0)));
        List<Condition> next = List.of(Conditions.of("Ready", "True", "AllChecksPassed", "m", 2, T1));
        String before = previous.toString() + next;

        assertThat(Conditions.merge(previous, next, T1, 2)).extracting(Condition::getType).containsExactly("Ready");
        assertThat(previous.toString() + next).isEqualTo(before);
    }

    @Test
    void aStoredConditionWithoutTimeGetsOne() {
        Condition noTime = Conditions.of("Ready", "True", "R", "m", 1, T0);
        noTime.setLastTransitionTime(null);
        assertThat(Conditions.merge(List.of(noTime), List.of(Conditions.of("Ready", "True", "R", "m", 1, T1)), T1, 1).get(0)
                .getLastTransitionTime()).isEqualTo("2024-05-01T11:00:00Z");
    }

    @Test
    void statusesOtherThanTrueOrFalseReadAsUnknown() {
        List<Condition> list = List.of(Conditions.of("A", "maybe", "R", "m", 1, T0), Conditions.of("B", "False", "R", "m", 1, T0));
        assertThat(Conditions.statusOf(list, "A")).isEqualTo("Unknown");
        assertThat(Conditions.statusOf(list, "B")).isEqualTo("False");
        assertThat(Conditions.statusOf(list, "C")).isEqualTo("Unknown");
        assertThat(Conditions.statusOf(null, "C")).isEqualTo("Unknown");
    }

    @Test
    void verdictChangesAreStatusChangesOnly() {
        List<Condition> previous = List.of(Conditions.of("Ready", "True", "AllChecksPassed", "m", 1, T0),
                Conditions.of("GpfsVerbs", "True", "VerbsConnected", "m", 1, T0),
                Conditions.of("GdsReady", "False", "IommuEnabled", "m", 1, T0));
        List<Condition> next = List.of(Conditions.of("Ready", "False", "ChecksFailed", "GpfsVerbs: TcpFallback", 1, T1),
                Conditions.of("GpfsVerbs", "False", "TcpFallback", "2 peers on TCP", 1, T1),
                Conditions.of("GdsReady", "False", "NvidiaFsMissing", "m2", 1, T1),
                Conditions.of("NvmeofRdma", "True", "AllTargetsRdma", "m", 1, T1));

        List<VerdictChange> changes = VerdictChange.between(previous, next);

        assertThat(changes).extracting(VerdictChange::type).containsExactly("Ready", "GpfsVerbs", "NvmeofRdma");
        assertThat(changes.get(1)).isEqualTo(new VerdictChange("GpfsVerbs", "True", "False", "TcpFallback", "2 peers on TCP"));
        assertThat(changes.get(1).describe()).isEqualTo("GpfsVerbs True → False (TcpFallback): 2 peers on TCP");
        assertThat(changes.get(2).isFirst()).isTrue();
        assertThat(changes.get(2).describe()).isEqualTo("NvmeofRdma True (AllTargetsRdma): m");
        assertThat(VerdictChange.between((List<Condition>) null, next)).hasSize(4);
        assertThat(VerdictChange.between(next, next)).isEmpty();
        assertThat(VerdictChange.between(next, (List<Condition>) null)).isEmpty();
    }
}
