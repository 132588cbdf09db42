package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.cli.ExitCode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LatencyFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency subcommands end to end: fixture host with a stub ib_write_lat → real CLI → report. */
class VerbsLatencyCheckTest {

    @TempDir
    Path dir;

    private FixtureHost host() {
        return FixtureHost.at(dir.resolve("root"));
    }

    /** {@code node-probe <command> --host-root ... --exec-mode direct --spec - <args>}, spec on stdin. */
    private static ProbeRun run(FixtureHost host, String spec, String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "gpu-01", "--spec", "-"));
        all.addAll(List.of(args));
        return ProbeRun.run(all, spec);
    }

    private static ProbeRun client(FixtureHost host, String spec) {
        return run(host, spec, "latency-client", "--peer", LatencyFixtures.PEER);
    }

    @Test
    void healthyClientIsWithinThreshold() {
        ProbeRun run = client(LatencyFixtures.healthyClient(host()), LatencyFixtures.SPEC);

        assertThat(run.exitCode()).isEqualTo(ExitCode.ALL_TRUE);
        assertThat(run.report().path("checks")).hasSize(1);
        JsonNode check = run.check("VerbsLatency");
        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("WithinThreshold");
        assertThat(check.path("message").asText()).isEqualTo("typical RDMA write latency to 10.10.0.12 is 1.01 µs "
                + "(2-byte messages, 1000 iterations, mlx5_0 port 1, link type IB), within maxTypicalMicros 5 µs");
        JsonNode d = check.path("details");
        assertThat(d.path("role").asText()).isEqualTo("client");
        assertThat(d.path("peer").asText()).isEqualTo("10.10.0.12");
        assertThat(d.path("tMinMicros").asDouble()).isEqualTo(0.98);
        assertThat(d.path("tTypicalMicros").asDouble()).isEqualTo(1.01);
        assertThat(d.path("tAvgMicros").asDouble()).isEqualTo(1.02);
        assertThat(d.path("p99Micros").asDouble()).isEqualTo(1.10);
        assertThat(d.path("p999Micros").asDouble()).isEqualTo(4.83);
        assertThat(d.path("maxTypicalMicros").asDouble()).isEqualTo(5.0);
        assertThat(d.path("connectAttempts").asInt()).isEqualTo(1);
        assertThat(d.has("tcpTypicalMicros")).as("no transport comparison unless the spec asks").isFalse();
    }

    @Test
    void specDefaultsGiveTheSameCommandLine() {
        // only the device given: port 1, size 2, 1000 iterations, 5 µs are the defaults; the stub answers only that argv
        ProbeRun run = client(LatencyFixtures.healthyClient(host()), "{\"latency\":{\"device\":\"mlx5_0\"}}");

        assertThat(run.check("VerbsLatency").path("status").asText()).isEqualTo("True");
    }

    @Test
    void everySpecValueReachesItsFlag() {
        // the recorded soft-RoCE run, answered only for its own command line (ib_write_lat -d rxe0 -n 5 -s 64 10.1.16.61)
        // and the out-of-band port of the command line
        FixtureHost host = host();
        host.tool(LatencyFixtures.TOOL).on("-d", "rxe0", "-i", "2", "-s", "64", "-n", "5", "-F", "-p", "20000", "10.1.16.61")
                .printsSample("perftest/ib_write_lat_client_rxe_softroce.txt");
        String spec = "{\"latency\":{\"device\":\"rxe0\",\"port\":2,\"size\":64,\"iterations\":5,\"maxTypicalMicros\":250}}";

        JsonNode check = run(host, spec, "latency-client", "--peer", "10.1.16.61", "--tcp-port", "20000").check("VerbsLatency");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("details").path("tTypicalMicros").asDouble()).isEqualTo(191.96);
        assertThat(check.path("details").path("linkType").asText()).isEqualTo("Ethernet");
    }

    @Test
    void unexpectedCommandLineFailsVisibly() {
        ProbeRun run = client(LatencyFixtures.healthyClient(host()), "{\"latency\":{\"device\":\"mlx5_0\",\"size\":64}}");

        JsonNode check = run.check("VerbsLatency");
        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolFailed");
        assertThat(check.path("message").asText()).contains("exited 64").contains("unexpected arguments");
    }

    @Test
    void healthyServerReportsItsOwnSide() {
        ProbeRun run = run(LatencyFixtures.healthyServer(host()), LatencyFixtures.SPEC, "latency-server");

        assertThat(run.exitCode()).isEqualTo(ExitCode.ALL_TRUE);
        JsonNode check = run.check("VerbsLatency");
        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).startsWith("typical RDMA write latency from the latency client is 1 µs");
        assertThat(check.path("details").path("role").asText()).isEqualTo("server");
        assertThat(check.path("details").has("peer")).isFalse();
    }

    @Test
    void slowClientIsAboveThreshold() {
        ProbeRun run = client(LatencyFixtures.slowClient(host()), LatencyFixtures.SPEC);

        assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        JsonNode check = run.check("VerbsLatency");
        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("AboveThreshold");
        assertThat(check.path("message").asText()).contains("is 7.85 µs").contains("above maxTypicalMicros 5 µs")
                .contains("`ibstat mlx5_0 1`").contains("cpupower frequency-set -g performance");
        assertThat(check.path("details").path("p99Micros").asDouble()).isEqualTo(9.87);
    }

    @Test
    void thresholdComesFromTheSpec() {
        String spec = "{\"latency\":{\"device\":\"mlx5_0\",\"maxTypicalMicros\":7.85}}";

        assertThat(client(LatencyFixtures.slowClient(host()), spec).check("VerbsLatency").path("status").asText())
                .isEqualTo("True");
    }

    @Test
    void noServerOnThePeerIsPeerUnreachableAfterRetrying() {
        long start = System.nanoTime();
        JsonNode check = run(LatencyFixtures.unreachablePeer(host()), LatencyFixtures.SPEC, "latency-client",
                "--peer", LatencyFixtures.PEER, "--connect-timeout", "1200ms").check("VerbsLatency");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PeerUnreachable");
        assertThat(check.path("message").asText())
                .contains("latency server at 10.10.0.12:18515 (perftest: Couldn't connect to 10.10.0.12:18515; "
                        + "Unable to open file descriptor")
                .contains("node-probe latency-server").contains("TCP port 18515");
        JsonNode d = check.path("details");
        assertThat(d.path("perftestError").asText()).startsWith("Couldn't connect to 10.10.0.12:18515");
        assertThat(d.path("peer").asText()).isEqualTo("10.10.0.12");
        // every 500 ms until 1.2 s after the first run: at 0, 0.5, 1.0 and 1.2 s (fewer on a busy machine)
        assertThat(d.path("connectAttempts").asInt()).isBetween(2, 4);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1200));
    }

    @Test
    void completionErrorIsABrokenRdmaPath() {
        JsonNode check = client(LatencyFixtures.completionError(host()), LatencyFixtures.SPEC).check("VerbsLatency");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("RdmaPathFailed");
        assertThat(check.path("message").asText()).contains("Failed status 12: wr_id 0 syndrom 0x81")
                .contains("ibv_rc_pingpong -d mlx5_0 -i 1");
    }

    @Test
    void missingDeviceIsNamed() {
        // constructed: perftest's message for a device name the node does not have
        FixtureHost host = host();
        host.tool(LatencyFixtures.TOOL).on(LatencyFixtures.clientArgs())
                .exits(1, "", "IB device mlx5_0 not found\n Unable to find the Infiniband/RoCE device\n");

        JsonNode check = client(host, LatencyFixtures.SPEC).check("VerbsLatency");

        assertThat(check.path("reason").asText()).isEqualTo("DeviceMissing");
        assertThat(check.path("message").asText()).contains("ibv_devices");
    }

    @Test
    void garbageIsUnparseable() {
        JsonNode check = client(LatencyFixtures.garbage(host()), LatencyFixtures.SPEC).check("VerbsLatency");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("OutputUnparseable");
        assertThat(check.path("message").asText()).contains("not a perftest latency table (found no perftest result table)");
    }

    @Test
    void bandwidthOutputIsNotMistakenForLatency() {
        FixtureHost host = host();
        host.tool(LatencyFixtures.TOOL).on(LatencyFixtures.clientArgs()).printsSample("perftest/ib_write_bw_server_rxe_gbit.txt");

        JsonNode check = client(host, LatencyFixtures.SPEC).check("VerbsLatency");

        assertThat(check.path("reason").asText()).isEqualTo("OutputUnparseable");
        assertThat(check.path("message").asText()).contains("a perftest bandwidth table");
    }

    @Test
    void serverWithoutClientTimesOut() {
        ProbeRun run = run(LatencyFixtures.hangingServer(host()), LatencyFixtures.SPEC, "latency-server", "--tool-timeout", "1s");

        JsonNode check = run.check("VerbsLatency");
        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolTimedOut");
        assertThat(check.path("message").asText()).contains("timed out after 1s").contains("node-probe latency-client --peer");
    }

    @Test
    void perftestNotInstalled() {
        JsonNode check = client(host(), LatencyFixtures.SPEC).check("VerbsLatency");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("ToolNotFound");
        assertThat(check.path("message").asText()).contains("apt-get install perftest");
    }

    @Test
    void latencyCommandsNeedALatencySection() {
        ProbeRun run = run(LatencyFixtures.healthyServer(host()), "{\"ceph\":{}}", "latency-server");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).startsWith("node-probe: latency-server needs --spec with a latency section");
    }

    @Test
    void latencyCommandsNeedASpec() {
        ProbeRun run = ProbeRun.run(List.of("latency-client", "--peer", LatencyFixtures.PEER, "--host-root",
                host().root().toString(), "--exec-mode", "direct"), "");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("latency-client needs --spec with a latency section");
    }

    @Test
    void plainCheckDoesNotMeasureLatency() {
        // the default command has no peer: a latency section alone gives no checks
        ProbeRun run = ProbeRun.withSpec(LatencyFixtures.healthyClient(host()), LatencyFixtures.SPEC);

        assertThat(run.hasCheck("VerbsLatency")).isFalse();
    }
}
