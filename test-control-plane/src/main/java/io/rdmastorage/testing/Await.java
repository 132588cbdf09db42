package io.rdmastorage.testing;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls until a value satisfies a condition; tests against a real API server are eventually consistent. */
public final class Await {

    private Await() {
    }

    public static <T> T until(Duration timeout, Supplier<T> value, java.util.function.Predicate<T> done, String what) {
        return until(timeout, Duration.ofMillis(100), value, done, what);
    }

    public static <T> T until(Duration timeout, Duration interval, Supplier<T> value, java.util.function.Predicate<T> done,
                       String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = value.get();
            if (last != null && done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last value: " + last);
    }
}
