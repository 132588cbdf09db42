package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminationMessageTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void fileContentIsTheMessage() {
        assertThat(TerminationMessage.of(bytes("{\"ok\":true}"), "File", 0, bytes("log"))).isEqualTo("{\"ok\":true}");
    }

    @Test
    void fileIsCappedToItsLast4096Bytes() {
        String file = "a".repeat(100) + "b".repeat(4096);
        assertThat(TerminationMessage.of(bytes(file), "File", 0, new byte[0])).isEqualTo("b".repeat(4096));
    }

    @Test
    void failedContainerWithoutMessageFallsBackToTheLogTail() {
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 100; i++) {
            log.append("line ").append(i).append('\n');
        }
        String message = TerminationMessage.of(new byte[0], "FallbackToLogsOnError", 2, bytes(log.toString()));
        assertThat(message).startsWith("line 21\n").endsWith("line 100\n");
    }

    @Test
    void logFallbackIsCappedTo2048Bytes() {
        String message = TerminationMessage.of(new byte[0], "FallbackToLogsOnError", 1, bytes("x".repeat(5000)));
        assertThat(message).hasSize(2048);
    }

    @Test
    void noFallbackOnSuccessOrWithFilePolicy() {
        assertThat(TerminationMessage.of(new byte[0], "FallbackToLogsOnError", 0, bytes("log"))).isEmpty();
        assertThat(TerminationMessage.of(new byte[0], "File", 3, bytes("log"))).isEmpty();
    }
}
