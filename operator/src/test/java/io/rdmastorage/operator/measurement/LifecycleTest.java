package io.rdmastorage.operator.measurement;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration INTERVAL = Duration.ofMinutes(15);

    private static Lifecycle.Last measuredAt(Instant at) {
        return new Lifecycle.Last(4, Optional.of(at), Optional.of(at.plus(INTERVAL.multipliedBy(3))), true, false);
    }

    @Test
    void aResultIsDueOneIntervalAfterItsMeasurement() {
        Lifecycle.Last last = measuredAt(NOW.minus(Duration.ofMinutes(5)));

        assertThat(Lifecycle.dueAt(last, INTERVAL, NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
        assertThat(Lifecycle.isDue(last, INTERVAL, NOW)).isFalse();
        assertThat(Lifecycle.isDue(last, INTERVAL, NOW.plus(Duration.ofMinutes(10)))).isTrue();
    }

    @Test
    void aNewSubjectOrSpecIsDueAtOnce() {
        Lifecycle.Last otherGeneration = new Lifecycle.Last(4, Optional.of(NOW), Optional.of(NOW.plus(INTERVAL)), false, false);

        assertThat(Lifecycle.isDue(Lifecycle.Last.NONE, INTERVAL, NOW)).isTrue();
        assertThat(Lifecycle.isDue(otherGeneration, INTERVAL, NOW)).isTrue();
    }

    @Test
    void aMeasurementTimeFromTheFutureIsInvalidAndTheSubjectIsDueAtOnce() {
        // a hand-edited lastProbeTime: 2099-01-01 would otherwise hold the verdict until then
        Lifecycle.Last edited = measuredAt(Instant.parse("2099-01-01T00:00:00Z"));

        assertThat(Lifecycle.isFromTheFuture(edited, NOW)).isTrue();
        assertThat(Lifecycle.dueAt(edited, INTERVAL, NOW)).isEqualTo(NOW);
    }

    @Test
    void aSmallClockSkewIsNoFuture() {
        Lifecycle.Last skewed = measuredAt(NOW.plus(Lifecycle.MAX_CLOCK_SKEW));

        assertThat(Lifecycle.isFromTheFuture(skewed, NOW)).isFalse();
        assertThat(Lifecycle.isDue(skewed, INTERVAL, NOW)).isFalse();
        assertThat(Lifecycle.isFromTheFuture(measuredAt(NOW.plus(Lifecycle.MAX_CLOCK_SKEW).plusSeconds(1)), NOW)).isTrue();
    }

    @Test
    void aResultPastItsExpiryIsWrittenAsExpiredOnce() {
        Lifecycle.Last old = measuredAt(NOW.minus(INTERVAL.multipliedBy(3)).minusSeconds(1));
        Lifecycle.Last written = new Lifecycle.Last(old.round(), old.measuredAt(), old.expiresAt(), true, true);

        assertThat(Lifecycle.toExpire(old, NOW)).isTrue();
        assertThat(Lifecycle.toExpire(written, NOW)).isFalse();
        assertThat(Lifecycle.isExpired(measuredAt(NOW.minus(INTERVAL.multipliedBy(3))), NOW)).isFalse();
    }

    @Test
    void aKindOfOneRoundIsDueUntilThatRoundIsHarvestedAndThenNeverAgainNorExpires() {
        Lifecycle.Last harvested = new Lifecycle.Last(1, Optional.of(NOW.minus(Duration.ofDays(400))), Optional.empty(), true,
                false);

        assertThat(Lifecycle.dueAt(Lifecycle.Last.NONE, Lifecycle.Schedule.ONCE, NOW)).contains(NOW);
        assertThat(Lifecycle.isDue(harvested, Lifecycle.Schedule.ONCE, NOW)).isFalse();
        assertThat(Lifecycle.dueAt(harvested, Lifecycle.Schedule.ONCE, NOW)).isEmpty();
        assertThat(Lifecycle.Schedule.ONCE.expiresAt(NOW)).isEmpty();
        assertThat(Lifecycle.toExpire(harvested, NOW)).isFalse();
    }

    @Test
    void aScheduleOfIntervalsIsDueAsTheIntervalSaysAndExpiresAfterItsExpiry() {
        Lifecycle.Schedule every = Lifecycle.Schedule.every(INTERVAL, INTERVAL.multipliedBy(3));
        Lifecycle.Last last = measuredAt(NOW.minus(Duration.ofMinutes(5)));

        assertThat(Lifecycle.dueAt(last, every, NOW)).contains(Lifecycle.dueAt(last, INTERVAL, NOW));
        assertThat(Lifecycle.isDue(Lifecycle.Last.NONE, every, NOW)).isTrue();
        assertThat(every.expiresAt(NOW)).contains(NOW.plus(Duration.ofMinutes(45)));
    }
}
