package io.rdmastorage.operator.events;

import static org.assertj.core.api.Assertions.assertThat;

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
    void aFirstVerdictWithAFailureKeepsAnEventPerCondition() {
        List<VerdictChange> changes = List.of(change("Ready", null, "False"), change("RdmaDevices", null, "True"),
                change("GpfsVerbs", null, "False"));
        assertThat(VerdictEvents.eventsFor(changes)).isEqualTo(changes);
    }

    @Test
    void laterChangesAreAnEventEach() {
        List<VerdictChange> changes = List.of(change("Ready", "False", "True"), change("GpfsVerbs", "False", "True"));
        assertThat(VerdictEvents.eventsFor(changes)).isEqualTo(changes);
        assertThat(VerdictEvents.eventsFor(List.of())).isEmpty();
        // a new check on a node that had a verdict: no Ready change among them, so it keeps its own event
        List<VerdictChange> newCheck = List.of(change("NvmeofRdma", null, "True"));
        assertThat(VerdictEvents.eventsFor(newCheck)).isEqualTo(newCheck);
    }
}
