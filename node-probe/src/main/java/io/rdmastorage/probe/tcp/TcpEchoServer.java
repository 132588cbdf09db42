package io.rdmastorage.probe.tcp;

import io.rdmastorage.probe.spec.IpAddress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The server side of the TCP ping-pong ({@link TcpPingPong}): listens from {@link #open} on, then
 * in a background thread serves exactly one client, sending each {@code size}-byte message straight
 * back, until the client closes the connection. {@link #close} ends it wherever it is.
 */
public final class TcpEchoServer implements AutoCloseable {

    private final ServerSocket listener;
    private final CompletableFuture<Void> arrived = new CompletableFuture<>();
    private final CompletableFuture<Boolean> served = new CompletableFuture<>();
    private Socket client;
    private boolean closed;

    private TcpEchoServer(ServerSocket listener) {
        this.listener = listener;
    }

    /**
     * Listens on {@code bind} (an address literal, already validated; empty = all addresses) and
     * {@code port}, and starts waiting for the client. The exception's message says what failed.
     */
    public static TcpEchoServer open(Optional<String> bind, int port, int size) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.setReuseAddress(true);   // a previous round's connection may linger in TIME_WAIT
            listener.bind(bind.isPresent() ? new InetSocketAddress(IpAddress.literal(bind.get()), port)
                    : new InetSocketAddress(port), 1);
        } catch (IOException e) {
            listener.close();
            throw new IOException("could not listen on " + IpAddress.withPort(bind.orElse("*"), port) + ": "
                    + e.getMessage(), e);
        }
        TcpEchoServer server = new TcpEchoServer(listener);
        Thread thread = new Thread(() -> server.serve(size), "tcp-echo");
        thread.setDaemon(true);
        thread.start();
        return server;
    }

    /**
     * Whether the client came within {@code toArrive} and finished its ping-pong within {@code max}
     * in all; false when it did not. A client that came is given the whole of {@code max}: its round
     * trips take as long as the path makes them (seconds on a slow node), not the arrival's grace.
     */
    public boolean awaitServed(Duration toArrive, Duration max) {
        long deadline = System.nanoTime() + Math.max(0, max.toNanos());
        try {
            arrived.get(Math.max(0, Math.min(toArrive.toMillis(), max.toMillis())), TimeUnit.MILLISECONDS);
            return served.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private void serve(int size) {
        try (Socket socket = listener.accept()) {
            if (!adopt(socket)) {
                return;
            }
            listener.close();   // exactly one client
            arrived.complete(null);
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[size];
            int n;
            while ((n = in.readNBytes(message, 0, size)) == size) {
                out.write(message);
            }
            served.complete(n == 0);   // a clean end between messages, not halfway through one
        } catch (IOException e) {
            // closed while waiting or serving, or the client broke off: not served
        } finally {
            arrived.complete(null);
            served.complete(false);
        }
    }

    private synchronized boolean adopt(Socket socket) {
        client = socket;
        return !closed;
    }

    @Override
    public void close() {
        Socket socket;
        synchronized (this) {
            closed = true;
            socket = client;
        }
        quietly(listener);
        if (socket != null) {
            quietly(socket);
        }
    }

    private static void quietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing to end the serving thread: nothing to report
        }
    }
}
