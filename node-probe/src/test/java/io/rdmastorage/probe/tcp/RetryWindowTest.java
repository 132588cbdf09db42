package io.rdmastorage.probe.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryWindowTest {

    @Test
    void anEmptyWindowAllowsOneAttempt() {
        RetryWindow retry = new RetryWindow(Duration.ZERO);

        assertThat(retry.pause()).isFalse();
        assertThat(retry.attempts()).isEqualTo(1);
    }

    @Test
    void retriesEveryHalfSecondUntilTheWindowIsOver() {
        long start = System.nanoTime();
        RetryWindow retry = new RetryWindow(Duration.ofMillis(1100));
        while (retry.pause()) {
            // attempts at 0, 0.5, 1.0 and 1.1 s (a late wake-up on a busy machine may leave out one)
        }

        assertThat(retry.attempts()).isBetween(3, 4);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(1100), Duration.ofMillis(3000));
    }
}
