package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.probe.cli.ExitCode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LatencyFabric;
import io.rdmastorage.probe.testing.ProbeRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real latency-server and latency-client, in-process side by side, on two fixture nodes joined by
 * a {@link LatencyFabric}; the transport comparison runs real TCP between their loopback addresses.
 */
class VerbsLatencyPairTest {

    private static final String SERVER = "127.1.0.1";
    private static final String CLIENT = "127.1.0.2";
    private static final String SPEC = "{\"latency\":{\"device\":\"mlx5_0\",\"maxTypicalMicros\":5}}";
    private static final String COMPARED = "{\"latency\":{\"device\":\"mlx5_0\",\"maxTypicalMicros\":5,\"transportComparison\":true}}";

    @TempDir
    Path dir;

    private LatencyFabric fabric;
    private FixtureHost serverNode;
    private FixtureHost clientNode;
    /** perftest's port: the one after it is free now, for the TCP comparison. */
    private String tcpPort;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void fabric() throws IOException {
        fabric = new LatencyFabric(dir.resolve("fabric"));
        serverNode = FixtureHost.at(dir.resolve("gpu-01"));
        clientNode = FixtureHost.at(dir.resolve("gpu-02"));
        fabric.install(serverNode, SERVER);
        fabric.install(clientNode, CLIENT);
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(SERVER))) {
            tcpPort = String.valueOf(s.getLocalPort() - 1);
        }
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private CompletableFuture<ProbeRun> server(String spec, String... extra) {
        return start(serverNode, "gpu-01", spec, "latency-server", "--bind", SERVER, extra);
    }

    private CompletableFuture<ProbeRun> client(String spec, String... extra) {
        return start(clientNode, "gpu-02", spec, "latency-client", "--peer", SERVER, extra);
    }

    private CompletableFuture<ProbeRun> start(FixtureHost node, String name, String spec, String command, String option,
                                              String address, String... extra) {
        List<String> args = new ArrayList<>(List.of(command, option, address, "--tcp-port", tcpPort,
                "--host-root", node.root().toString(), "--exec-mode", "direct", "--node", name, "--spec", "-",
                "--tool-timeout", "20s"));
        args.addAll(List.of(extra));
        return CompletableFuture.supplyAsync(() -> ProbeRun.run(args, spec), threads);
    }

    private static JsonNode verbsLatency(CompletableFuture<ProbeRun> run) throws Exception {
        ProbeRun done = run.get(60, TimeUnit.SECONDS);
        assertThat(done.stdout().strip().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);
        return done.check("VerbsLatency");
    }

    @Test
    void healthyPairMeasuresRdmaAndComparesItWithTcp() throws Exception {
        CompletableFuture<ProbeRun> server = server(COMPARED);
        CompletableFuture<ProbeRun> client = client(COMPARED);

        JsonNode c = verbsLatency(client);
        assertThat(c.path("status").asText()).isEqualTo("True");
        assertThat(c.path("reason").asText()).isEqualTo("WithinThreshold");
        JsonNode d = c.path("details");
        assertThat(d.path("peer").asText()).isEqualTo(SERVER);
        assertThat(d.path("tTypicalMicros").asDouble()).isEqualTo(1.01);
        assertThat(d.path("p99Micros").asDouble()).isEqualTo(1.10);
        assertThat(d.path("connectAttempts").asInt()).isPositive();
        assertThat(d.has("tcpError")).as(c.toString()).isFalse();
        assertThat(d.path("tcpTypicalMicros").asDouble()).isPositive();
        assertThat(d.path("tcpP99Micros").asDouble()).isGreaterThanOrEqualTo(d.path("tcpTypicalMicros").asDouble());
        assertThat(d.path("tcpIterations").asInt()).isEqualTo(1000);
        assertThat(d.has("rdmaSpeedup")).isTrue();
        double expected = Math.round(d.path("tcpTypicalMicros").asDouble() / 1.01 * 10) / 10.0;
        assertThat(d.path("rdmaSpeedup").asDouble()).isEqualTo(expected);
        assertThat(c.path("message").asText()).startsWith("typical RDMA write latency to 127.1.0.1 is 1.01 µs")
                .contains("within maxTypicalMicros 5 µs; the same pair over TCP: ");

        JsonNode s = verbsLatency(server);
        assertThat(s.path("status").asText()).isEqualTo("True");
        assertThat(s.path("details").path("tTypicalMicros").asDouble()).isEqualTo(1.0);
        assertThat(s.path("details").path("tcpServed").asBoolean()).isTrue();
    }

    @Test
    void unreachablePeerIsPeerUnreachableAfterSeveralAttempts() throws Exception {
        fabric.setUnreachable(SERVER, true);
        CompletableFuture<ProbeRun> server = server(SPEC, "--tool-timeout", "3s");
        CompletableFuture<ProbeRun> client = client(SPEC, "--connect-timeout", "2s");

        JsonNode c = verbsLatency(client);
        assertThat(c.path("status").asText()).isEqualTo("False");
        assertThat(c.path("reason").asText()).isEqualTo("PeerUnreachable");
        assertThat(c.path("details").path("connectAttempts").asInt()).isGreaterThan(1);
        assertThat(c.path("details").path("perftestError").asText()).startsWith("Couldn't connect to " + SERVER + ":" + tcpPort);
        assertThat(c.path("message").asText()).contains("TCP port " + tcpPort);

        JsonNode s = verbsLatency(server);
        assertThat(s.path("reason").asText()).isEqualTo("ToolTimedOut");
    }

    @Test
    void aClientStartedBeforeItsServerConnectsOnARetry() throws Exception {
        CompletableFuture<ProbeRun> client = client(SPEC);
        Thread.sleep(1200);
        CompletableFuture<ProbeRun> server = server(SPEC);

        JsonNode c = verbsLatency(client);
        assertThat(c.path("reason").asText()).isEqualTo("WithinThreshold");
        assertThat(c.path("details").path("connectAttempts").asInt()).isGreaterThan(1);
        assertThat(verbsLatency(server).path("reason").asText()).isEqualTo("WithinThreshold");
    }

    @Test
    void slowClientNodeIsAboveThreshold() throws Exception {
        fabric.setSlow(CLIENT, true);
        String size64 = "{\"latency\":{\"device\":\"mlx5_0\",\"size\":64,\"maxTypicalMicros\":5}}";
        CompletableFuture<ProbeRun> server = server(size64);
        CompletableFuture<ProbeRun> client = client(size64);

        JsonNode c = verbsLatency(client);
        assertThat(c.path("status").asText()).isEqualTo("False");
        assertThat(c.path("reason").asText()).isEqualTo("AboveThreshold");
        assertThat(c.path("details").path("tTypicalMicros").asDouble()).isEqualTo(191.96);
        assertThat(c.path("details").path("linkType").asText()).isEqualTo("Ethernet");
        JsonNode s = verbsLatency(server);
        assertThat(s.path("reason").asText()).isEqualTo("WithinThreshold");
        assertThat(s.path("message").asText()).contains("(64-byte messages, 1000 iterations");
    }

    @Test
    void aServerKilledByItsTimeoutIsNotListeningAnyMore() throws Exception {
        ProbeRun lonely = server(SPEC, "--tool-timeout", "1s").get(30, TimeUnit.SECONDS);
        assertThat(lonely.check("VerbsLatency").path("reason").asText()).isEqualTo("ToolTimedOut");

        JsonNode c = verbsLatency(client(SPEC, "--connect-timeout", "500ms"));

        assertThat(c.path("reason").asText()).isEqualTo("PeerUnreachable");
    }

    @Test
    void aFailedTcpComparisonIsReportedAndChangesNothing() throws Exception {
        // the server was not asked for the comparison, so nothing listens on the next port
        CompletableFuture<ProbeRun> server = server(SPEC);
        CompletableFuture<ProbeRun> client = client(COMPARED);

        JsonNode c = verbsLatency(client);
        assertThat(c.path("status").asText()).isEqualTo("True");
        assertThat(c.path("reason").asText()).isEqualTo("WithinThreshold");
        String port = String.valueOf(Integer.parseInt(tcpPort) + 1);
        assertThat(c.path("details").path("tcpError").asText()).startsWith("could not connect to " + SERVER + ":" + port);
        assertThat(c.path("details").has("rdmaSpeedup")).isFalse();
        assertThat(c.path("message").asText()).contains("within maxTypicalMicros 5 µs; the TCP comparison failed: could not connect");
        assertThat(verbsLatency(server).path("details").has("tcpServed")).isFalse();
    }
}
