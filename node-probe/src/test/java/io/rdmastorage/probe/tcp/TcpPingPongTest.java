package io.rdmastorage.probe.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The TCP ping-pong of the transport comparison, for real over loopback. */
class TcpPingPongTest {

    private static final String LOOPBACK = "127.0.0.1";

    /** A port nobody listens on right now. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return s.getLocalPort();
        }
    }

    @Test
    void measuresOneWayTimesAndTheServerSeesACleanEnd() throws Exception {
        int port = freePort();
        try (TcpEchoServer echo = TcpEchoServer.open(Optional.of(LOOPBACK), port, 64)) {
            TcpPingPong.Result result = TcpPingPong.run(LOOPBACK, port, 64, 200, Duration.ofSeconds(20));

            assertThat(result.roundTrips()).isEqualTo(200);
            assertThat(result.typicalMicros()).isPositive();
            assertThat(result.p99Micros()).isGreaterThanOrEqualTo(result.typicalMicros());
            assertThat(echo.awaitServed(Duration.ofSeconds(5), Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void largeMessagesGoBothWaysWhole() throws Exception {
        int port = freePort();
        try (TcpEchoServer echo = TcpEchoServer.open(Optional.empty(), port, 1024 * 1024)) {
            assertThat(TcpPingPong.run(LOOPBACK, port, 1024 * 1024, 5, Duration.ofSeconds(20)).roundTrips()).isEqualTo(5);
            assertThat(echo.awaitServed(Duration.ofSeconds(5), Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aClientThatCameIsServedPastTheArrivalGraceUntilItsRoundTripsEnd() throws Exception {
        int port = freePort();
        try (TcpEchoServer echo = TcpEchoServer.open(Optional.of(LOOPBACK), port, 2);
             Socket client = new Socket(LOOPBACK, port)) {
            CompletableFuture<Boolean> served = CompletableFuture.supplyAsync(
                    () -> echo.awaitServed(Duration.ofSeconds(2), Duration.ofSeconds(20)));
            // a slow path: the round trips outlast the 2 s the server gives a client to come
            for (int i = 0; i < 3; i++) {
                client.getOutputStream().write(new byte[] {1, 2});
                assertThat(client.getInputStream().readNBytes(2)).containsExactly(1, 2);
                Thread.sleep(1000);
            }
            assertThat(served).as("still serving the client that came").isNotDone();
            client.close();

            assertThat(served.get()).isTrue();
        }
    }

    @Test
    void noServerIsRefusedAfterAShortRetry() throws Exception {
        int port = freePort();

        assertThatThrownBy(() -> TcpPingPong.run(LOOPBACK, port, 2, 10, Duration.ofSeconds(20)))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("could not connect to 127.0.0.1:" + port + " (Connection refused, ")
                .hasMessageEndingWith(" attempts)");
    }

    @Test
    void aTakenPortIsNamed() throws Exception {
        int port = freePort();
        try (TcpEchoServer first = TcpEchoServer.open(Optional.of(LOOPBACK), port, 2)) {
            assertThatThrownBy(() -> TcpEchoServer.open(Optional.of(LOOPBACK), port, 2))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("could not listen on 127.0.0.1:" + port + ": ");
        }
    }

    @Test
    void closingEndsAServerThatNobodyCameTo() throws Exception {
        TcpEchoServer echo = TcpEchoServer.open(Optional.of(LOOPBACK), freePort(), 2);

        assertThat(echo.awaitServed(Duration.ofMillis(100), Duration.ofMillis(100))).isFalse();
        echo.close();
        assertThat(echo.awaitServed(Duration.ofSeconds(5), Duration.ofSeconds(5))).isFalse();
    }
}
