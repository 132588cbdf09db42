package io.rdmastorage.testing;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/**
 * What a kubelet does with a request the API server could not answer (down, restarting,
 * overloaded: no answer, a 5xx, a 429): sends it again every half second while the caller still
 * wants it, for up to a minute (a restart takes seconds). Any other answer is the caller's at once.
 */
final class ApiOutageRetry {

    /** How long a request is sent again while the API server cannot answer it. */
    static final Duration LIMIT = Duration.ofSeconds(60);

    /** One sending of the request; an ExecutionException is a request that got no answer. */
    interface Attempt<T> {
        T run() throws ExecutionException, InterruptedException;
    }

    private ApiOutageRetry() {
    }

    /** {@code attempt}'s result, sent again while unanswered; the last failure once past the limit or no longer wanted. */
    static <T> T untilAnswered(Attempt<T> attempt, BooleanSupplier stillWanted) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            RuntimeException failure;
            try {
                return attempt.run();
            } catch (ExecutionException e) {
                // not launderThrowable: it throws a checked cause (the refused connection) at once
                failure = new KubernetesClientException("no answer: " + e.getCause(), e.getCause());
            } catch (KubernetesClientException e) {
                if (!unanswered(e.getCode())) {
                    throw e;
                }
                failure = e;
            }
            if (System.nanoTime() > deadline || !stillWanted.getAsBoolean()) {
                throw failure;
            }
            Thread.sleep(500);
        }
    }

    /** No answer (fabric8 gives such a failure no HTTP code), the server's error, or its "too many requests". */
    private static boolean unanswered(int code) {
        return code <= 0 || code >= 500 || code == 429;
    }
}
