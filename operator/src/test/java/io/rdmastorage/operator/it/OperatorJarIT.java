package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The shipped artifact: {@code java -jar operator.jar} against a kubeconfig, as a separate process,
 * reconciling a profile on a simulated node and serving its metrics and health endpoints.
 */
class OperatorJarIT {

    private static final Path JAR = Path.of(System.getProperty("operator.jar", "target/operator.jar"));

    @Test
    void theJarReconcilesAProfileAndServesMetrics() throws Exception {
        try (OperatorEnvironment env = OperatorEnvironment.start("jar")) {
            env.addNode("jar-1", null);
            int port = freePort();
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", JAR.toAbsolutePath().toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "operator-jar-it.log").toFile()));
            builder.environment().put("KUBECONFIG", env.plane.kubeconfig().toString());
            builder.environment().put("RSO_NAMESPACE", env.namespace);
            builder.environment().put("RSO_PROBE_IMAGE", OperatorEnvironment.PROBE_IMAGE);
            builder.environment().put("RSO_METRICS_PORT", Integer.toString(port));
            Process operator = builder.start();
            try {
                env.applyProfile("jar", "interval: 1m\nprobeTimeout: 30s", "rdma:\n  devices: [\"mlx5_0/1\"]");
                await("verdict from the jar", Duration.ofSeconds(90), () -> {
                    RdmaStorageNode v = env.verdict("jar", "jar-1");
                    return v != null && v.getStatus() != null && v.getStatus().getConditions().stream()
                            .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
                });
                HttpClient http = HttpClient.newHttpClient();
                await("ready", Duration.ofSeconds(30), () -> get(http, port, "/readyz").statusCode() == 200);
                assertThat(get(http, port, "/healthz").statusCode()).isEqualTo(200);
                String metrics = get(http, port, "/metrics").body();
                assertThat(metrics).contains("rdmastorage_nodes{profile=\"jar\",status=\"ready\"} 1.0");
                Condition ready = env.verdict("jar", "jar-1").getStatus().getConditions().get(0);
                assertThat(ready.getReason()).isEqualTo("AllChecksPassed");
                env.deleteProfile("jar");   // while the operator runs: its cleanup removes the finalizer
            } finally {
                operator.destroy();
                operator.waitFor();
            }
        }
    }

    static HttpResponse<String> get(HttpClient http, int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
