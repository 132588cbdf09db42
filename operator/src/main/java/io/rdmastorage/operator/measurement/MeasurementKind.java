package io.rdmastorage.operator.measurement;

/**
 * One kind of measurement (a node's own probe, a latency pair, an acceptance run): what differs
 * between the kinds, for the rules they share in {@link Lifecycle}. Each kind reads its own result
 * out of the status it is stored in and says how often it measures; the rounds, due times and
 * expiries follow from that alike for all of them.
 *
 * @param <S> the status the kind's result is stored in (a node's verdict, an acceptance run's status)
 */
public interface MeasurementKind<S> {

    /** How often this kind measures a subject, and how long its result counts. */
    Lifecycle.Schedule schedule();

    /** This kind's last harvested result in {@code stored} (null: nothing stored yet), as the lifecycle reads it. */
    Lifecycle.Last last(S stored);
}
