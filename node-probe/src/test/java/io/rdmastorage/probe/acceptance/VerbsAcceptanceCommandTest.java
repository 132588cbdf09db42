package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs target's client and server commands on a fixture host: the real CLI, with stub
 * perftest and fio outside the host root (the probe image's) that log their argv, move the host's
 * /proc/stat on by a run's worth of ticks, count packets on the soft-RoCE port as the kernel would
 * (perftest only, unless told otherwise), and print recorded outputs: ib_write_lat and ib_write_bw
 * of soft-RoCE (their result rows relabelled to the verbs target's message sizes: constructed from
 * the recorded ones), fio's net engine over TCP (the ping-pong, or the stream for 1 MiB blocks).
 */
class VerbsAcceptanceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PEER = "192.0.2.7";
    private static final String LAT = "perftest/ib_write_lat_client_rxe1-over-veth_vm-6.1.txt";
    private static final String BW = "perftest/ib_write_bw_server_rxe_gbit.txt";
    private static final String FIO_PINGPONG = "fio/fio_json_net-tcp-pingpong_4k_write_client_fio-3.33_loopback.txt";
    private static final String FIO_STREAM = "fio/fio_json_net-tcp-stream_1M_write_client_fio-3.33_loopback.txt";
    private static final String FIO_REFUSED = "fio/fio_json_net-tcp_connection-refused_fio-3.33.txt";

    @TempDir
    Path dir;
    private FixtureHost host;
    private Path bin;

    @BeforeEach
    void node() throws IOException {
        host = FixtureHost.at(dir.resolve("host")).sampleFile("/proc/stat", "proc/stat_2cpu_pair-1s_before.txt")
                .file("/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", "1000\n")
                .file("/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts", "1000\n");
        bin = dir.resolve("bin");
        Files.createDirectories(bin);
    }

    /** A stub tool printing {@code stdout} (a file), adding {@code packets} to the port's counters. */
    private Path tool(String name, String body, long packets) throws IOException {
        Path out = bin.resolve(name + ".out");
        Files.writeString(out, body);
        String stat = host.path("/proc/stat").toString();
        String sent = host.path("/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts").toString();
        Path script = bin.resolve(name);
        Files.writeString(script, "#!/bin/sh\n"
                + "echo \"" + name + " $*\" >> " + FixtureHost.shQuote(dir.resolve("tools.log").toString()) + "\n"
                + "case \"$*\" in -V) echo 'Version: 6.06'; exit 0 ;; esac\n"
                + "read -r c u n s i w q sq st g gn < " + FixtureHost.shQuote(stat) + "\n"
                + "{ echo \"cpu  $((u+50)) $n $((s+30)) $((i+100)) $w $q $((sq+20)) $st $g $gn\"; grep '^cpu[0-9]' "
                + FixtureHost.shQuote(stat) + "; } > " + FixtureHost.shQuote(stat + ".new") + "\n"
                + "mv " + FixtureHost.shQuote(stat + ".new") + " " + FixtureHost.shQuote(stat) + "\n"
                + "if [ -f " + FixtureHost.shQuote(sent) + " ]; then read -r p < " + FixtureHost.shQuote(sent)
                + "; echo $((p+" + packets + ")) > " + FixtureHost.shQuote(sent) + "; fi\n"
                + "cat " + FixtureHost.shQuote(out.toString()) + "\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        return script;
    }

    private List<String> tools(long fioPackets) throws IOException {
        return List.of("--tool", "ib_write_lat=" + tool("ib_write_lat", resized(LAT, " 2 ", " 4096 "), 20_000),
                "--tool", "ib_write_bw=" + tool("ib_write_bw", resized(BW, " 65536 ", " 1048576 "), 2_000_000),
                "--tool", "fio=" + fio(Samples.body(FIO_PINGPONG), fioPackets));
    }

    /** The recorded perftest output with its result row's message size replaced. */
    private static String resized(String sample, String size, String wanted) {
        String body = Samples.body(sample);
        int header = body.indexOf("#bytes");
        int row = body.indexOf('\n', header) + 1;
        String line = body.substring(row, body.indexOf('\n', row));
        assertThat(line).startsWith(size);
        return body.substring(0, row) + wanted + line.substring(size.length()) + body.substring(row + line.length());
    }

    /** The fio stub: the stream sample for the 1 MiB run, {@code latency} for the other. */
    private Path fio(String latency, long packets) throws IOException {
        Path stream = tool("fio-stream", Samples.body(FIO_STREAM), packets);
        Path pingPong = tool("fio-pingpong", latency, packets);
        Path script = bin.resolve("fio");
        Files.writeString(script, "#!/bin/sh\ncase \"$*\" in *--bs=1M*) exec " + FixtureHost.shQuote(stream.toString())
                + " \"$@\" ;; *) exec " + FixtureHost.shQuote(pingPong.toString()) + " \"$@\" ;; esac\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        return script;
    }

    private ProbeRun client(List<String> tools) {
        List<String> args = new ArrayList<>(List.of("acceptance-client", "--peer", PEER, "--tcp-port", "18600",
                "--connect-timeout", "2s", "--host-root", host.root().toString(), "--exec-mode", "direct", "--node", "n1",
                "--spec", "-", "--output", dir.resolve("termination-log").toString()));
        args.addAll(tools);
        return ProbeRun.run(args, "{\"verbs\":{\"device\":\"rxe0\",\"port\":1,\"iterations\":2000,\"durationSeconds\":5}}");
    }

    private List<String> log() throws IOException {
        Path p = dir.resolve("tools.log");
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
        assertThat(runs.get(1)).isEqualTo("ib_write_bw -d rxe0 -i 1 -s 1048576 -D 5 -F --report_gbits -p 18601 " + PEER);
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
        host.delete("/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts")
                .delete("/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts");

        ProbeRun run = client(tools(0));

        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("transports").get(0).get("problem").asText()).contains("counters could not be read");
    }

    @Test
    void aRefusedConnectionIsTriedAgainUntilTheWindowEnds() throws IOException {
        List<String> tools = new ArrayList<>(tools(0));
        tools.set(5, "fio=" + fio(Samples.body(FIO_REFUSED), 0));

        ProbeRun run = client(tools);

        JsonNode tcp = JSON.readTree(run.stdout()).get("transports").get(1);
        assertThat(tcp.get("problem").asText()).contains("error 111", "nothing listened on " + PEER + " port 18602");
        assertThat(log().stream().filter(l -> l.startsWith("fio-pingpong ")).count()).as("tried again for 2 s").isGreaterThan(2);
    }

    @Test
    void theServerWaitsForAllFourRunsAtOnce() throws IOException {
        List<String> args = new ArrayList<>(List.of("acceptance-server", "--tcp-port", "18600", "--host-root",
                host.root().toString(), "--exec-mode", "direct", "--node", "peer", "--spec", "-"));
        args.addAll(List.of("--tool", "ib_write_lat=" + tool("ib_write_lat", Samples.body(LAT), 0),
                "--tool", "ib_write_bw=" + tool("ib_write_bw", Samples.body(BW), 0),
                "--tool", "fio=" + fio(Samples.body(FIO_STREAM), 0)));

        ProbeRun run = ProbeRun.run(args, "{\"verbs\":{\"device\":\"rxe0\"}}");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(JSON.readTree(run.stdout()).get("served").toString()).isEqualTo(
                "{\"rdma-latency\":\"served\",\"rdma-bandwidth\":\"served\",\"tcp-latency\":\"served\",\"tcp-bandwidth\":\"served\"}");
        assertThat(log()).containsExactlyInAnyOrder(
                "ib_write_lat -d rxe0 -i 1 -s 4096 -n 100000 -F -p 18600",
                "ib_write_bw -d rxe0 -i 1 -s 1048576 -D 30 -F --report_gbits -p 18601",
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
