package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ApiOutageRetryTest {

    @Test
    void aRequestWithoutAnAnswerOrWithAServerErrorIsSentAgainUntilAnswered() throws InterruptedException {
        AtomicInteger sent = new AtomicInteger();
        String answer = ApiOutageRetry.untilAnswered(() -> switch (sent.incrementAndGet()) {
            // fabric8's failure of a request that got no answer carries no HTTP code (-1)
            case 1 -> throw new KubernetesClientException("connection refused", new ConnectException("refused"));
            case 2 -> throw new ExecutionException(new ConnectException("refused"));
            case 3 -> throw new KubernetesClientException("restarting", 503, null);
            case 4 -> throw new KubernetesClientException("overloaded", 429, null);
            default -> "answered";
        }, () -> true);

        assertThat(answer).isEqualTo("answered");
        assertThat(sent).hasValue(5);
    }

    @Test
    void anAnswerThatRefusesTheRequestIsTheCallersAtOnce() {
        AtomicInteger sent = new AtomicInteger();

        assertThatThrownBy(() -> ApiOutageRetry.untilAnswered(() -> {
            sent.incrementAndGet();
            throw new KubernetesClientException("forbidden", 403, null);
        }, () -> true)).isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        assertThat(sent).hasValue(1);
    }

    @Test
    void aRequestNoLongerWantedIsNotSentAgain() {
        AtomicInteger sent = new AtomicInteger();

        assertThatThrownBy(() -> ApiOutageRetry.untilAnswered(() -> {
            sent.incrementAndGet();
            throw new KubernetesClientException("restarting", 503, null);
        }, () -> false)).isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(503));
        assertThat(sent).hasValue(1);
    }
}
