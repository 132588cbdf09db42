package io.rdmastorage.operator.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's HTTP port: {@code /metrics} (Prometheus text), {@code /healthz} (liveness) and
 * {@code /readyz} (readiness). The JDK's own HTTP server is enough for three GET endpoints and
 * adds no dependency; one thread serves them, so a slow scrape cannot starve the operator.
 */
public final class HealthServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HealthServer.class);
    /** Prometheus text exposition format 0.0.4, what {@link PrometheusMeterRegistry#scrape()} writes. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String PLAIN_TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private HealthServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Serves the registry's metrics; see {@link #start(InetSocketAddress, Supplier, BooleanSupplier, BooleanSupplier)}. */
    public static HealthServer start(InetSocketAddress address, PrometheusMeterRegistry registry,
                                     BooleanSupplier alive, BooleanSupplier ready) throws IOException {
        return start(address, registry::scrape, alive, ready);
    }

    /**
     * Starts serving at once.
     *
     * @param address where to listen: {@code new InetSocketAddress(port)} in a pod, a loopback
     *                address with port 0 (any free port) in tests
     * @param metrics the Prometheus text to serve at {@code /metrics}
     * @param alive   liveness: false makes {@code /healthz} 503 and the kubelet restart the pod
     * @param ready   readiness: true once the operator's informers are started and synced
     */
    public static HealthServer start(InetSocketAddress address, Supplier<String> metrics,
                                     BooleanSupplier alive, BooleanSupplier ready) throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "health-server");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> handle(exchange, metrics, alive, ready));
        server.start();
        LOG.info("serving /metrics, /healthz and /readyz on {}", server.getAddress());
        return new HealthServer(server, executor);
    }

    /** The port it listens on (the one picked when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void handle(HttpExchange exchange, Supplier<String> metrics,
                               BooleanSupplier alive, BooleanSupplier ready) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, PLAIN_TEXT, "method not allowed\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case "/metrics" -> respond(exchange, 200, PROMETHEUS_TEXT, metrics.get());
                case "/healthz" -> probe(exchange, alive, "alive\n", "not alive\n");
                case "/readyz" -> probe(exchange, ready, "ready\n", "not ready\n");
                default -> respond(exchange, 404, PLAIN_TEXT, "not found\n");
            }
        } catch (RuntimeException e) {
            // A failing supplier must not kill the server thread; the request gets a 500.
            LOG.warn("health server request {} failed", exchange.getRequestURI(), e);
            try {
                respond(exchange, 500, PLAIN_TEXT, "internal error\n");
            } catch (IOException | RuntimeException ignored) {
                // headers already sent or connection gone: nothing more to tell the client
            }
        } finally {
            exchange.close();
        }
    }

    private static void probe(HttpExchange exchange, BooleanSupplier check, String yes, String no) throws IOException {
        boolean ok = check.getAsBoolean();
        respond(exchange, ok ? 200 : 503, PLAIN_TEXT, ok ? yes : no);
    }

    private static void respond(HttpExchange exchange, int code, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
