package io.rdmastorage.operator.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.rdmastorage.operator.verdict.VerdictChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which verdict changes get an Event (pure; the API server test writes them). */
class VerdictEventsTest {

    private static VerdictChange change(String type, String before, String after) {
        return new VerdictChange(type, before, after, type + "Reason", type + " message");
    }

    @Test
    void aFirstVerdictThatIsAllTrueIsNoEvent() {
        // the profile's event when its Ready turns True tells it for all nodes at once
        List<VerdictChange> changes = List.of(change("Ready", null, "True"), change("RdmaDevices", null, "True"),
                change("GpfsVerbs", null, "True"), change("CephMessenger", null, "True"));
        assertThat(VerdictEvents.eventsFor(changes)).isEmpty();
    }

    @Test
    void aFirstVerdictWithAFailureIsAWarningPerFailingCheckOnly() {
        // a failing node's first verdict used to be one event per condition, Normal ones included
        List<VerdictChange> changes = List.of(change("Ready", null, "False"), change("RdmaDevices", null, "True"),
                change("GpfsVerbs", null, "False"), change("NvmeofRdma", null, "True"), change("GdsReady", null, "True"),
                change("CephMessenger", null, "True"));
        assertThat(VerdictEvents.eventsFor(changes)).containsExactly(change("GpfsVerbs", null, "False"));
        List<VerdictChange> two = List.of(change("Ready", null, "False"), change("GpfsVerbs", null, "False"),
                change("GdsReady", null, "False"));
        assertThat(VerdictEvents.eventsFor(two)).containsExactly(change("GpfsVerbs", null, "False"),
                change("GdsReady", null, "False"));
    }

    @Test
    void aFirstReadyThatNoCheckExplainsKeepsItsWarning() {
        List<VerdictChange> changes = List.of(change("Ready", null, "False"), change("RdmaDevices", null, "True"));
        assertThat(VerdictEvents.eventsFor(changes)).containsExactly(change("Ready", null, "False"));
    }

    @Test
    void laterChangesAreAnEventEachRecoveriesIncluded() {
        List<VerdictChange> changes = List.of(change("Ready", "False", "True"), change("GpfsVerbs", "False", "True"));
        assertThat(VerdictEvents.eventsFor(changes)).isEqualTo(changes);
        List<VerdictChange> worse = List.of(change("Ready", "True", "False"), change("GpfsVerbs", "True", "False"));
        assertThat(VerdictEvents.eventsFor(worse)).isEqualTo(worse);
        assertThat(VerdictEvents.eventsFor(List.of())).isEmpty();
    }

    @Test
    void aNewCheckOnAJudgedNodeIsAnEventOnlyWhenItFails() {
        assertThat(VerdictEvents.eventsFor(List.of(change("NvmeofRdma", null, "True")))).isEmpty();
        List<VerdictChange> failing = List.of(change("NvmeofRdma", null, "False"), change("Ready", "True", "False"));
        assertThat(VerdictEvents.eventsFor(failing)).isEqualTo(failing);
    }

    private static Condition condition(String type, String status, String reason) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(reason + " message").build();
    }

    @Test
    void aFirstVerdictUnknownBecauseTheProbeWentWrongIsOneWarning() {
        List<Condition> timedOut = List.of(condition("Ready", "Unknown", "ProbeTimedOut"),
                condition("GpfsVerbs", "Unknown", "ProbeTimedOut"), condition("RdmaDevices", "Unknown", "ProbeTimedOut"));
        assertThat(VerdictEvents.eventsFor(VerdictChange.between(List.of(), timedOut))).isEmpty();
        assertThat(VerdictEvents.troubleOnFirstVerdict(List.of(), timedOut)).hasValueSatisfying(c -> {
            assertThat(c.type()).isEqualTo("Ready");
            assertThat(c.reason()).isEqualTo("ProbeTimedOut");
            assertThat(c.toTrue()).isFalse();
        });
        // waiting, or a node not probed while NotReady, is nothing wrong
        assertThat(VerdictEvents.troubleOnFirstVerdict(null, List.of(condition("Ready", "Unknown", "AwaitingProbe")))).isEmpty();
        assertThat(VerdictEvents.troubleOnFirstVerdict(null, List.of(condition("Ready", "Unknown", "NodeNotReady")))).isEmpty();
        // after waiting for its probe slot it is the same news; trouble that goes on is none
        assertThat(VerdictEvents.troubleOnFirstVerdict(List.of(condition("Ready", "Unknown", "AwaitingProbe")), timedOut))
                .isPresent();
        assertThat(VerdictEvents.troubleOnFirstVerdict(List.of(condition("Ready", "Unknown", "ReportUnparseable")), timedOut))
                .isEmpty();
        assertThat(VerdictEvents.troubleOnFirstVerdict(List.of(condition("Ready", "True", "AllChecksPassed")), timedOut))
                .as("a status change, an event of its own").isEmpty();
        assertThat(VerdictEvents.troubleOnFirstVerdict(null, List.of(condition("Ready", "False", "ChecksFailed")))).isEmpty();
    }
}
