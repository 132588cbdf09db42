package io.rdmastorage.operator.measurement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The lifecycle every kind of measurement shares (a node's own probe, a latency pair, an acceptance
 * run): <b>due → in flight → harvested → expired</b>. Each kind ({@link MeasurementKind}) reads its
 * stored result into a {@link Last} and says how often it measures ({@link Schedule}); the rules
 * below are the same for all of them:
 * <ul>
 * <li><b>in flight</b>: pods of a round after the last harvested one exist;</li>
 * <li><b>harvested</b>: round N's result is stored, so pods of rounds up to N are leftovers (an
 * operator restart between the write and the delete), deleted without a second harvest;</li>
 * <li><b>due</b>: at once for a subject never measured or measured under another generation of the
 * spec, then one interval after its last measurement; a kind of one round only
 * ({@link Schedule#ONCE}, the acceptance run) is never due again once harvested;</li>
 * <li><b>expired</b>: a result past its expiry (3 × interval) no longer counts; it is written as
 * Unknown ResultExpired once, and a reconcile wakes for an expiry still to come. A result of one
 * round only never expires: its status is its record.</li>
 * </ul>
 * Pure: the caller passes the clock.
 */
public final class Lifecycle {

    /**
     * How far a stored measurement time may lie ahead of the operator's clock (replicas' clocks drift
     * a little). Beyond it the time is invalid, a hand edit or a broken clock, and the subject is due:
     * a result dated in the future would otherwise never be due nor expire.
     */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(1);

    private Lifecycle() {
    }

    /**
     * What a kind's stored result says, as the lifecycle needs it.
     *
     * @param round          the last harvested round; 0 when none
     * @param measuredAt     when it was measured; empty when never (or the time does not read)
     * @param expiresAt      when it stops counting; empty when there is nothing to expire
     * @param sameGeneration whether it was measured under the profile's current generation
     * @param saysExpired    whether its conditions already say ResultExpired
     */
    public record Last(long round, Optional<Instant> measuredAt, Optional<Instant> expiresAt, boolean sameGeneration,
                       boolean saysExpired) {

        /** Nothing stored yet. */
        public static final Last NONE = new Last(0, Optional.empty(), Optional.empty(), false, false);
    }

    /**
     * How often a kind measures a subject and how long its result counts.
     *
     * @param interval between rounds; empty: one round only, never due again once harvested
     * @param expiry   how long after its measurement a result counts; empty: it never expires
     */
    public record Schedule(Optional<Duration> interval, Optional<Duration> expiry) {

        /** One round only, a result that never expires: the acceptance run, whose status is its record. */
        public static final Schedule ONCE = new Schedule(Optional.empty(), Optional.empty());

        /** A round every {@code interval}, a result that counts for {@code expiry}. */
        public static Schedule every(Duration interval, Duration expiry) {
            return new Schedule(Optional.of(interval), Optional.of(expiry));
        }

        /** When a result measured at {@code measuredAt} stops counting; empty when it never does. */
        public Optional<Instant> expiresAt(Instant measuredAt) {
            return expiry.map(measuredAt::plus);
        }
    }

    /** A subject's pods, split by the last harvested round. */
    public record Rounds<T>(List<T> leftovers, List<T> current, long highest) {
    }

    /** Leftovers (round ≤ the harvested one) and the pods of later rounds, in {@code pods}' order. */
    public static <T> Rounds<T> rounds(List<T> pods, ToLongFunction<T> roundOf, long harvested) {
        List<T> leftovers = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long highest = harvested;
        for (T pod : pods) {
            long round = roundOf.applyAsLong(pod);
            highest = Math.max(highest, round);
            (round <= harvested ? leftovers : current).add(pod);
        }
        return new Rounds<>(leftovers, current, highest);
    }

    /**
     * When the next round is due: now for a new subject or spec or a measurement time from the
     * future, else one interval after the last measurement.
     */
    public static Instant dueAt(Last last, Duration interval, Instant now) {
        if (!last.sameGeneration() || isFromTheFuture(last, now)) {
            return now;
        }
        return last.measuredAt().map(t -> t.plus(interval)).orElse(now);
    }

    /** Whether the stored measurement time is later than now by more than {@link #MAX_CLOCK_SKEW}. */
    public static boolean isFromTheFuture(Last last, Instant now) {
        return last.measuredAt().map(t -> t.isAfter(now.plus(MAX_CLOCK_SKEW))).orElse(false);
    }

    public static boolean isDue(Last last, Duration interval, Instant now) {
        return !dueAt(last, interval, now).isAfter(now);
    }

    /**
     * When the next round is due by {@code schedule}: as {@link #dueAt(Last, Duration, Instant)} for a
     * kind that measures every interval; for one of a round only, now until that round is harvested,
     * then never (empty).
     */
    public static Optional<Instant> dueAt(Last last, Schedule schedule, Instant now) {
        if (schedule.interval().isEmpty()) {
            return last.round() == 0 ? Optional.of(now) : Optional.empty();
        }
        return Optional.of(dueAt(last, schedule.interval().get(), now));
    }

    public static boolean isDue(Last last, Schedule schedule, Instant now) {
        return dueAt(last, schedule, now).map(at -> !at.isAfter(now)).orElse(false);
    }

    /** Whether the result has passed its expiry ({@code now} after it; at the instant itself it still counts). */
    public static boolean isExpired(Last last, Instant now) {
        return last.expiresAt().map(now::isAfter).orElse(false);
    }

    /** Whether the result must be written as expired now: past its expiry and not yet saying so. */
    public static boolean toExpire(Last last, Instant now) {
        return isExpired(last, now) && !last.saysExpired();
    }

    /**
     * The expiry to wake for, if it is still to come. An expiry already passed (and written) is
     * nothing to wake for: a past instant would have the reconciler poll every second while the
     * subject waits for a probe slot.
     */
    public static Optional<Instant> expiryToWakeFor(Last last, Instant now) {
        return isExpired(last, now) ? Optional.empty() : last.expiresAt();
    }

    /** The earlier of two instants, either of which may be null. */
    public static Instant earliest(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }
}
