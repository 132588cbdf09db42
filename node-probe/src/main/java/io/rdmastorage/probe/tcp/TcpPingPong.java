package io.rdmastorage.probe.tcp;

import io.rdmastorage.probe.spec.IpAddress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;

/**
 * A plain TCP ping-pong with a {@link TcpEchoServer}: the same message size and number of round
 * trips as the RDMA measurement, TCP_NODELAY, one message in flight. Times are one way, half a
 * round trip, as perftest's {@code ib_write_lat} reports its own, so the two compare directly.
 */
public final class TcpPingPong {

    /** Round trips before the measured ones: connection set-up, slow start and cold caches are not counted. */
    static final int WARM_UP = 5;
    /**
     * At most this many measured round trips: enough for a stable p99, and the server waits only
     * seconds for the comparison, so ib_write_lat's millions would not finish anyway.
     */
    public static final int MAX_ROUND_TRIPS = 100_000;
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    /** The server may only just be closing a listener of a previous run, or not be there yet. */
    private static final Duration REFUSED_WINDOW = Duration.ofSeconds(3);
    private static final int READ_TIMEOUT_MS = 5_000;

    /** One-way times in microseconds, rounded to perftest's two decimals. */
    public record Result(int roundTrips, double typicalMicros, double p99Micros) {
    }

    private TcpPingPong() {
    }

    /**
     * Measures against the echo server at {@code address} (a validated literal) and {@code port};
     * gives up once {@code within} has passed. The exception's message is short and says what failed.
     */
    public static Result run(String address, int port, int size, int iterations, Duration within) throws IOException {
        String where = IpAddress.withPort(address, port);
        long deadline = System.nanoTime() + within.toNanos();
        try (Socket socket = connect(address, port, where)) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            int roundTrips = Math.min(iterations, MAX_ROUND_TRIPS);
            byte[] message = new byte[size];
            byte[] reply = new byte[size];
            long[] nanos = new long[roundTrips];
            for (int i = -WARM_UP; i < roundTrips; i++) {
                long start = System.nanoTime();
                out.write(message);
                if (in.readNBytes(reply, 0, size) < size) {
                    throw new IOException(where + " closed the connection after " + Math.max(0, i) + " of "
                            + roundTrips + " round trips");
                }
                long end = System.nanoTime();
                if (i >= 0) {
                    nanos[i] = end - start;
                }
                if (end > deadline) {
                    throw new IOException("the ping-pong with " + where + " took longer than " + within.toSeconds()
                            + "s (" + Math.max(0, i + 1) + " of " + roundTrips + " round trips)");
                }
            }
            Arrays.sort(nanos);
            // perftest's statistics: typical = the median sample, p99 = the sample 99% of the way up
            return new Result(roundTrips, oneWayMicros(nanos[roundTrips / 2]),
                    oneWayMicros(nanos[Math.min(roundTrips - 1, (int) (roundTrips * 0.99))]));
        } catch (IOException e) {
            throw e.getMessage() != null && e.getMessage().contains(where) ? e
                    : new IOException("TCP to " + where + ": " + e.getMessage(), e);
        }
    }

    private static Socket connect(String address, int port, String where) throws IOException {
        InetSocketAddress server = new InetSocketAddress(IpAddress.literal(address), port);
        RetryWindow retry = new RetryWindow(REFUSED_WINDOW);
        while (true) {
            Socket socket = new Socket();
            try {
                socket.connect(server, CONNECT_TIMEOUT_MS);
                return socket;
            } catch (ConnectException e) {
                socket.close();
                if (!retry.pause()) {
                    throw new IOException("could not connect to " + where + " (" + e.getMessage() + ", "
                            + retry.attempts() + " attempts)", e);
                }
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }
    }

    private static double oneWayMicros(long roundTripNanos) {
        return Math.round(roundTripNanos / 20.0) / 100.0;
    }
}
