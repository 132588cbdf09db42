package io.rdmastorage.probe.tcp;

import java.time.Duration;

/**
 * Paces the retries of a connect that the other side refused: the two sides of a pairwise test
 * start independently, and the listening one may come up a little after its peer first tries.
 * Attempts are made every {@link #PAUSE} until the window, counted from the first attempt, has passed.
 */
public final class RetryWindow {

    public static final Duration PAUSE = Duration.ofMillis(500);

    private final long deadlineNanos;
    private int attempts = 1;

    /** Starts the window; create it right before the first attempt. */
    public RetryWindow(Duration window) {
        this.deadlineNanos = System.nanoTime() + window.toNanos();
    }

    /** Waits before the next attempt; false, at once, when the window is over (or the thread is interrupted). */
    public boolean pause() {
        long leftNanos = deadlineNanos - System.nanoTime();
        if (leftNanos <= 0) {
            return false;
        }
        try {
            Thread.sleep(Math.min(PAUSE.toMillis(), Duration.ofNanos(leftNanos).toMillis() + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        attempts++;
        return true;
    }

    /** How many attempts were made so far, the first included. */
    public int attempts() {
        return attempts;
    }
}
