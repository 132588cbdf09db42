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
import java.util.List;
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
            Process operator = start(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    JAR.toAbsolutePath().toString()), env, env.plane.kubeconfig().toString(), port, "operator-jar-it.log");
            try {
                reconcilesAndServes(env, operator, "jar", "jar-1", port, Duration.ofSeconds(90), Duration.ofSeconds(30));
                Condition ready = env.verdict("jar", "jar-1").getStatus().getConditions().get(0);
                assertThat(ready.getReason()).isEqualTo("AllChecksPassed");
                env.deleteProfile("jar");   // while the operator runs: its cleanup removes the finalizer
            } finally {
                operator.destroy();
                operator.waitFor();
            }
        }
    }

    /**
     * Starts {@code command} as {@code env}'s operator, as the chart would configure it (kubeconfig,
     * namespace, probe image, metrics port), its output appended to {@code target/<log>}.
     */
    static Process start(List<String> command, OperatorEnvironment env, String kubeconfig, int port, String log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", log).toFile()));
        builder.environment().put("KUBECONFIG", kubeconfig);
        builder.environment().put("RSO_NAMESPACE", env.namespace);
        builder.environment().put("RSO_PROBE_IMAGE", OperatorEnvironment.PROBE_IMAGE);
        builder.environment().put("RSO_METRICS_PORT", Integer.toString(port));
        return builder.start();
    }

    /**
     * A profile of one device on {@code node} reconciled by the {@code operator} process to a Ready
     * verdict within {@code verdict}, then its readyz within {@code ready}, its healthz, and the
     * verdict in its metrics.
     */
    static void reconcilesAndServes(OperatorEnvironment env, Process operator, String profile, String node, int port,
                                    Duration verdict, Duration ready) {
        env.applyProfile(profile, "interval: 1m\nprobeTimeout: 30s", "rdma:\n  devices: [\"mlx5_0/1\"]");
        await("verdict from the operator process", verdict, () -> {
            assertThat(operator.isAlive()).as("the operator process (its log under target/)").isTrue();
            RdmaStorageNode v = env.verdict(profile, node);
            return v != null && v.getStatus() != null && v.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
        });
        HttpClient http = HttpClient.newHttpClient();
        await("ready", ready, () -> get(http, port, "/readyz").statusCode() == 200);
        assertThat(get(http, port, "/healthz").statusCode()).isEqualTo(200);
        assertThat(get(http, port, "/metrics").body()).contains("rdmastorage_nodes{profile=\"" + profile + "\",status=\"ready\"} 1.0");
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) {
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
