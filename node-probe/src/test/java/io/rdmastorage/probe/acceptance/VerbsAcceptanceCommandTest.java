package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.VerbsFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verbs target's client and server commands on a fixture host ({@link VerbsFixtures}): the real CLI, stub perftest and fio. */
class VerbsAcceptanceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PEER = "192.0.2.7";
    @TempDir
    Path dir;
    private FixtureHost host;
    private Path bin;

    @BeforeEach
    void node() {
        host = VerbsFixtures.node(FixtureHost.at(dir.resolve("host")));
        bin = dir.resolve("bin");
    }

    private List<String> tools(long fioPackets) {
        return VerbsFixtures.tools(bin, host, dir, fioPackets, VerbsFixtures.FIO_PINGPONG);
    }

    private ProbeRun client(List<String> tools) {
        List<String> args = new ArrayList<>(List.of("acceptance-client", "--peer", PEER, "--tcp-port", "18600",
                "--connect-timeout", "2s", "--host-root", host.root().toString(), "--exec-mode", "direct", "--node", "n1",
                "--spec", "-", "--output", dir.resolve("termination-log").toString()));
        args.addAll(tools);
        return ProbeRun.run(args, "{\"verbs\":{\"device\":\"rxe0\",\"port\":1,\"iterations\":2000,\"durationSeconds\":5}}");
    }

    private List<String> log() throws IOException {
        Path p = dir.resolve(VerbsFixtures.LOG);
        return Files.exists(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void bothTransportsAreMeasuredWithTheSameMessagesAndTheHostCpu() throws IOException {
        ProbeRun run = client(tools(0));

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isTrue();
        assertThat(doc.get("fioVersion").asText()).isEqualTo("perftest 6.06, fio-3.33");
        JsonNode rdma = doc.get("transports").get(0);
        assertThat(rdma.get("transport").asText()).isEqualTo("rdma");
        assertThat(rdma.get("device").asText()).isEqualTo("rxe0/1");
        assertThat(rdma.get("traffic").asText()).contains("rxe0/1", "packets");
        assertThat(rdma.has("problem")).isFalse();
        assertThat(rdma.get("latency").get("p50Micros").asDouble()).isPositive();
        assertThat(rdma.get("latency").get("coresBusy").asDouble()).isEqualTo(1.0);
        // 0.48 Gb/s average in the sample
        assertThat(rdma.get("bandwidth").get("bytesPerSecond").asLong()).isEqualTo(60_000_000L);
        assertThat(rdma.get("bandwidth").get("iops").asDouble()).isEqualTo(920.0);
        JsonNode tcp = doc.get("transports").get(1);
        assertThat(tcp.get("device").asText()).isEqualTo("TCP to " + PEER);
        // the ping-pong's round trip p50 of 17280 ns, halved to perftest's one way
        assertThat(tcp.get("latency").get("p50Micros").asDouble()).isEqualTo(8.64);
        assertThat(tcp.get("bandwidth").get("coresBusy").asDouble()).isEqualTo(1.0);

        List<String> runs = log().stream().filter(l -> !l.endsWith(" -V")).toList();
        assertThat(runs).hasSize(4);
        assertThat(runs.get(0)).isEqualTo("ib_write_lat -d rxe0 -i 1 -s 4096 -n 2000 -F -p 18600 " + PEER);
        assertThat(runs.get(1)).isEqualTo("ib_write_bw -d rxe0 -i 1 -s 1048576 -D 5 -F -p 18601 " + PEER);
        assertThat(runs.get(2)).startsWith("fio-pingpong ").contains("--ioengine=net", "--protocol=tcp", "--port=18602", "--hostname=" + PEER,
                "--rw=write", "--bs=4k", "--pingpong=1", "--size=8192000");
        assertThat(runs.get(3)).startsWith("fio-stream ").contains("--port=18603", "--bs=1M", "--time_based", "--runtime=5s");
        assertThat(Files.readString(dir.resolve("termination-log"))).isEqualTo(run.stdout().strip());
    }

    @Test
    void aTcpRunThatMovedRdmaTrafficIsNotTcps() throws IOException {
        ProbeRun run = client(tools(5_000_000));

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("transports").get(0).has("problem")).isFalse();
        assertThat(doc.get("transports").get(1).get("problem").asText()).contains("the tcp run moved RDMA traffic");
    }

    @Test
    void unreadablePortCountersLeaveTheTransportUnproven() throws IOException {
        VerbsFixtures.withoutCounters(host);

        ProbeRun run = client(tools(0));

        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("transports").get(0).get("problem").asText()).contains("counters could not be read");
    }

    @Test
    void aRefusedConnectionIsTriedAgainUntilTheWindowEnds() throws IOException {
        ProbeRun run = client(VerbsFixtures.tools(bin, host, dir, 0, VerbsFixtures.FIO_REFUSED));

        JsonNode tcp = JSON.readTree(run.stdout()).get("transports").get(1);
        assertThat(tcp.get("problem").asText()).contains("error 111", "nothing listened on " + PEER + " port 18602");
        assertThat(log().stream().filter(l -> l.startsWith("fio-pingpong ")).count()).as("tried again for 2 s").isGreaterThan(2);
    }

    @Test
    void theServerWaitsForAllFourRunsAtOnce() throws IOException {
        List<String> args = new ArrayList<>(List.of("acceptance-server", "--tcp-port", "18600", "--host-root",
                host.root().toString(), "--exec-mode", "direct", "--node", "peer", "--spec", "-"));
        args.addAll(tools(0));

        ProbeRun run = ProbeRun.run(args, "{\"verbs\":{\"device\":\"rxe0\"}}");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(JSON.readTree(run.stdout()).get("served").toString()).isEqualTo(
                "{\"rdma-latency\":\"served\",\"rdma-bandwidth\":\"served\",\"tcp-latency\":\"served\",\"tcp-bandwidth\":\"served\"}");
        assertThat(log()).containsExactlyInAnyOrder(
                "ib_write_lat -d rxe0 -i 1 -s 4096 -n 100000 -F -p 18600",
                "ib_write_bw -d rxe0 -i 1 -s 1048576 -D 30 -F -p 18601",
                "fio-pingpong --name=tcp-latency --ioengine=net --protocol=tcp --port=18602 --listen --rw=read --bs=4k --nodelay=1 "
                        + "--pingpong=1 --size=409600000 --output-format=json",
                "fio-stream --name=tcp-bandwidth --ioengine=net --protocol=tcp --port=18603 --listen --rw=read --bs=1M --size=100g "
                        + "--output-format=json");
    }

    @Test
    void theClientNeedsAPeerAndTheServerRoomForFourPorts() {
        assertThat(ProbeRun.run(List.of("acceptance-client", "--spec", "-"), "{}").stderr()).contains("needs --peer ADDR");
        assertThat(ProbeRun.run(List.of("acceptance-server", "--tcp-port", "65533", "--spec", "-"), "{}").stderr())
                .contains("no room for the verbs target's 4 ports");
        assertThat(ProbeRun.run(List.of("acceptance-server", "--spec", "-"), "{\"verbs\":{\"device\":\"a b\"}}").stderr())
                .contains("verbs.device");
    }
}
