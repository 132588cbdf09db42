package io.rdmastorage.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmastorage.operator.api.NodeCounts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HealthServerTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean alive = new AtomicBoolean(true);
    private final AtomicBoolean ready = new AtomicBoolean(false);
    private PrometheusMeterRegistry registry;
    private HealthServer server;

    @BeforeEach
    void start() throws Exception {
        registry = OperatorMetrics.newPrometheusRegistry();
        NodeCounts counts = new NodeCounts();
        counts.setReady(3);
        new OperatorMetrics(registry).updateProfile("gds", counts, Map.of());
        server = HealthServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                registry, alive::get, ready::get);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(HealthServer.PROMETHEUS_TEXT);
        assertThat(response.body()).contains("# TYPE rdmastorage_nodes gauge")
                .contains("rdmastorage_nodes{profile=\"gds\",status=\"ready\"} 3");
    }

    @Test
    void livenessAndReadinessFollowTheirSuppliers() throws Exception {
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        assertThat(get("/readyz").statusCode()).isEqualTo(503);

        ready.set(true);
        assertThat(get("/readyz").statusCode()).isEqualTo(200);
        assertThat(get("/readyz").body()).isEqualTo("ready\n");

        alive.set(false);
        assertThat(get("/healthz").statusCode()).isEqualTo(503);
    }

    @Test
    void unknownPathsAndMethodsAreRefused() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(404);
        assertThat(get("/metrics/extra").statusCode()).isEqualTo(404);
        HttpResponse<String> post = send(HttpRequest.newBuilder(uri("/metrics")).POST(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(post.statusCode()).isEqualTo(405);
        HttpResponse<String> head = send(HttpRequest.newBuilder(uri("/healthz")).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
    }

    @Test
    void aFailingCheckIsA500AndTheServerKeepsServing() throws Exception {
        try (HealthServer failing = HealthServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                () -> { throw new IllegalStateException("boom"); }, () -> true, () -> true)) {
            URI metrics = URI.create("http://127.0.0.1:" + failing.port() + "/metrics");
            assertThat(send(HttpRequest.newBuilder(metrics).GET()).statusCode()).isEqualTo(500);
            URI health = URI.create("http://127.0.0.1:" + failing.port() + "/healthz");
            assertThat(send(HttpRequest.newBuilder(health).GET()).statusCode()).isEqualTo(200);
        }
    }
}
