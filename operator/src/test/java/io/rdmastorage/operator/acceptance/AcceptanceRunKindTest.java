package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** An acceptance run is a measurement of one round: due until it ends, then never again, never expired. */
class AcceptanceRunKindTest {

    private static final Instant NOW = Instant.parse("2026-12-01T16:00:00Z");
    private static final AcceptanceRunKind KIND = AcceptanceRunKind.KIND;

    @Test
    void aRunNotEndedYetHasNoResultAndIsDue() {
        for (String phase : new String[] {null, Reasons.Acceptance.PENDING, Reasons.Acceptance.PHASE_RUNNING}) {
            assertThat(KIND.last(status(phase, null))).as(phase).isEqualTo(Lifecycle.Last.NONE);
            assertThat(Lifecycle.isDue(KIND.last(status(phase, null)), KIND.schedule(), NOW)).as(phase).isTrue();
        }
        assertThat(KIND.last(null)).isEqualTo(Lifecycle.Last.NONE);
    }

    @Test
    void anEndedRunIsItsOneRoundHarvestedDatedByItsCompletionAndNeverDueAgainNorExpired() {
        for (String phase : new String[] {Reasons.Acceptance.SUCCEEDED, Reasons.Acceptance.FAILED}) {
            Lifecycle.Last last = KIND.last(status(phase, "2025-01-01T00:00:00Z"));

            assertThat(last.round()).as(phase).isEqualTo(AcceptanceRunKind.ROUND);
            assertThat(last.measuredAt()).as(phase).contains(Instant.parse("2025-01-01T00:00:00Z"));
            assertThat(last.expiresAt()).as(phase).isEmpty();
            assertThat(Lifecycle.isDue(last, KIND.schedule(), NOW)).as(phase).isFalse();
            assertThat(Lifecycle.toExpire(last, NOW)).as(phase).isFalse();
        }
    }

    private static RdmaStorageAcceptanceStatus status(String phase, String completionTime) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setPhase(phase);
        status.setCompletionTime(completionTime);
        return status;
    }
}
