package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The acceptance command on a fixture host ({@link AcceptanceFixtures}): the real CLI, stub nvme and fio. */
class AcceptanceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TCP_ADDRESS = NvmeofFixtures.TARGET_TCP_ADDRESS;

    @TempDir
    Path dir;
    private FixtureHost host;
    private Path fio;

    @BeforeEach
    void node() {
        host = AcceptanceFixtures.node(FixtureHost.at(dir.resolve("host")), dir);
        fio = AcceptanceFixtures.fio(dir.resolve("bin/fio"), host, dir);
    }

    private static String spec(String transports, boolean connect) {
        return "{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"" + NvmeofFixtures.TARGET_ADDRESS
                + "\",\"port\":" + NvmeofFixtures.TARGET_PORT + ",\"transports\":" + transports + ",\"connect\":" + connect
                + "},\"latency\":{\"durationSeconds\":5},\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},"
                + "\"bandwidth\":{\"durationSeconds\":5}}";
    }

    private ProbeRun acceptance(String spec) {
        List<String> args = new ArrayList<>(List.of("acceptance", "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "test-node", "--spec", "-", "--tool", "fio=" + fio, "--output", dir.resolve("termination-log").toString()));
        return ProbeRun.run(args, spec);
    }

    private List<String> log(String name) throws IOException {
        Path p = dir.resolve(name);
        return Files.exists(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
    }

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    @Test
    void connectedControllersAreMeasuredAsTheyAreAndNeverTouched() throws IOException {
        AcceptanceFixtures.tcpConnected(host);

        ProbeRun run = acceptance(spec("[\"rdma\",\"tcp\"]", false));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode doc = json(run.stdout());
        assertThat(doc.get("kind").asText()).isEqualTo("AcceptanceReport");
        assertThat(doc.get("node").asText()).isEqualTo("test-node");
        assertThat(doc.get("complete").asBoolean()).isTrue();
        assertThat(doc.get("fioVersion").asText()).isEqualTo("fio-3.14-6-g97134");
        JsonNode rdma = doc.get("transports").get(0);
        assertThat(rdma.get("transport").asText()).isEqualTo("rdma");
        assertThat(rdma.get("controller").asText()).isEqualTo("nvme1");
        assertThat(rdma.get("device").asText()).isEqualTo("/dev/nvme1n1");
        assertThat(rdma.get("connectedByProbe").asBoolean()).isFalse();
        assertThat(rdma.get("latency").get("p50Micros").asDouble()).isEqualTo(102.912);
        assertThat(rdma.get("latency").get("p99Micros").asDouble()).isEqualTo(150.528);
        assertThat(rdma.get("iops").get("iops").asDouble()).isEqualTo(8360.8);
        // 200 ticks passed, 100 idle, on 2 CPUs: one core busy; 20 of them softirq, 30 system
        assertThat(rdma.get("iops").get("coresBusy").asDouble()).isEqualTo(1.0);
        assertThat(rdma.get("iops").get("softPercent").asDouble()).isEqualTo(10.0);
        assertThat(rdma.get("iops").get("sysPercent").asDouble()).isEqualTo(15.0);
        assertThat(rdma.get("bandwidth").get("bytesPerSecond").asLong()).isEqualTo(34245812);
        assertThat(doc.get("transports").get(1).get("device").asText()).isEqualTo("/dev/nvme2n1");
        assertThat(log(AcceptanceFixtures.NVME_LOG)).as("nvme was never run").isEmpty();
        assertThat(Files.readString(dir.resolve("termination-log"))).isEqualTo(run.stdout().strip());
        assertThat(run.stdout().strip().getBytes(StandardCharsets.UTF_8).length).isLessThan(ReportSchema.MAX_BYTES);
    }

    @Test
    void everyWorkloadIsReadOnlyAndRunsForItsDuration() throws IOException {
        AcceptanceFixtures.tcpConnected(host);

        acceptance(spec("[\"rdma\",\"tcp\"]", false));

        List<String> runs = log(AcceptanceFixtures.FIO_LOG);
        assertThat(runs).hasSize(6);
        assertThat(runs).allSatisfy(argv -> assertThat(argv)
                .contains("--readonly", "--direct=1", "--runtime=5s", "--output-format=json")
                .containsPattern("--rw=(randread|read) ")
                .doesNotContain("write", "trim", "--rw=rw", "--rw=randrw"));
        // the host's device node under the host root, not the container's own /dev (a copy from its start)
        assertThat(runs.get(0)).contains("--name=latency", "--filename=" + host.path("/dev/nvme1n1"), "--bs=4k", "--iodepth=1",
                "--numjobs=1");
        assertThat(runs.get(1)).contains("--name=iops", "--iodepth=8", "--numjobs=2");
        assertThat(runs.get(2)).contains("--name=bandwidth", "--rw=read", "--bs=1M");
        assertThat(runs.get(3)).contains("--filename=" + host.path("/dev/nvme2n1"));
    }

    @Test
    void connectTrueConnectsTheMissingTransportAndDisconnectsOnlyThat() throws IOException {
        ProbeRun run = acceptance(spec("[\"rdma\",\"tcp\"]", true));

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        JsonNode doc = json(run.stdout());
        JsonNode tcp = doc.get("transports").get(1);
        assertThat(tcp.get("controller").asText()).isEqualTo("nvme2");
        assertThat(tcp.get("connectedByProbe").asBoolean()).isTrue();
        assertThat(doc.get("transports").get(0).get("connectedByProbe").asBoolean()).isFalse();
        assertThat(doc.get("disconnected")).extracting(JsonNode::asText).containsExactly("nvme2");
        assertThat(log(AcceptanceFixtures.NVME_LOG)).containsExactly(
                "connect -t tcp -a " + NvmeofFixtures.TARGET_ADDRESS + " -s 4420 -n " + NvmeofFixtures.TARGET_NQN,
                "disconnect -d nvme2");
        assertThat(host.path("/sys/class/nvme/nvme2")).doesNotExist();
        assertThat(host.path("/sys/class/nvme/nvme1")).exists();
    }

    @Test
    void aDisconnectThatFailsIsNamedInTheReportsCleanupProblems() throws IOException {
        Path nvme = host.path("/usr/sbin/nvme");
        Files.writeString(nvme, Files.readString(nvme).replace("disconnect) rm -rf",
                "disconnect) echo 'Device or resource busy' >&2; exit 1; rm -rf"));

        ProbeRun run = acceptance(spec("[\"rdma\",\"tcp\"]", true));

        JsonNode doc = json(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("disconnected")).isEmpty();
        assertThat(doc.get("cleanupProblems")).as("the operator keeps the run's record for its cleanup pod")
                .singleElement().satisfies(p -> assertThat(p.asText()).contains("nvme2"));
        assertThat(doc.get("message").asText()).isEqualTo(doc.get("cleanupProblems").get(0).asText());
    }

    @Test
    void aFailedRunStillDisconnectsWhatItConnected() throws IOException {
        // a fio that fails on the device of the controller this run connects
        ProbeRun failed = tcpRunWithFio(AcceptanceFixtures.failingFio(dir.resolve("bin/failing-fio")));

        assertThat(failed.exitCode()).isEqualTo(1);
        JsonNode doc = json(failed.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        // fio's own error quoted (the fixture root's long path in fio's --filename leaves the message's
        // 300 characters no room for the rest of its line; under /host it fits)
        assertThat(doc.get("message").asText()).startsWith("tcp: latency: ").contains("exited 1: fio: io_u error on file");
        assertThat(doc.get("disconnected")).extracting(JsonNode::asText).containsExactly("nvme2");
        assertThat(log(AcceptanceFixtures.NVME_LOG)).last().isEqualTo("disconnect -d nvme2");
        assertThat(host.path("/sys/class/nvme/nvme2")).doesNotExist();
    }

    /** A connecting tcp run whose fio is the given stub. */
    private ProbeRun tcpRunWithFio(Path fio) throws IOException {
        Files.writeString(dir.resolve("spec.json"), spec("[\"tcp\"]", true));
        return ProbeRun.run(List.of("acceptance", "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "test-node", "--spec", dir.resolve("spec.json").toString(), "--tool", "fio=" + fio), "");
    }

    @Test
    void anInterruptedFioIsAPartialRunWithItsFiguresNotNoIo() throws IOException {
        JsonNode doc = json(tcpRunWithFio(AcceptanceFixtures.interruptedFio(dir.resolve("bin/fio"))).stdout());

        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("message").asText()).startsWith("tcp: latency: fio was stopped by signal 2 after 501,656 I/Os in 60.0 s")
                .contains("8,361 IOPS", "a partial run, not judged").doesNotContain("no I/O");
    }

    @Test
    void withoutConnectAMissingTransportIsNotMeasuredAndSaysHowToConnectIt() throws IOException {
        ProbeRun run = acceptance(spec("[\"rdma\",\"tcp\"]", false));

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode doc = json(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("transports").get(0).has("problem")).isFalse();
        assertThat(doc.get("transports").get(1).get("problem").asText())
                .contains("no live tcp controller", "nvme connect -t tcp -a 10.68.20.10 -s 4420", "connect: true");
        assertThat(log(AcceptanceFixtures.NVME_LOG)).isEmpty();
    }

    @Test
    void aConnectThatGivesNoControllerIsAProblemNotACrash() throws IOException {
        ProbeRun run = ProbeRun.run(List.of("acceptance", "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--spec", "-", "--tool", "fio=" + fio, "--tool", "nvme=/usr/sbin/nvme-none"), spec("[\"tcp\"]", true));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(json(run.stdout()).get("message").asText()).contains("could not connect over tcp", "nvme not found");
    }

    @Test
    void multipathPathsOverBothTransportsAreNotMeasured() throws IOException {
        // NVMe multipath: both controllers are paths (nvme0c1n1, nvme0c2n1) of the one head nvme0n1
        host.delete("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme1n1")
                .mkdir("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme0c1n1");
        NvmeofFixtures.fabricsController(host, "nvme2", "tcp", TCP_ADDRESS, NvmeofFixtures.TARGET_NQN, "live")
                .mkdir("/sys/devices/virtual/nvme-fabrics/ctl/nvme2/nvme0c2n1");

        ProbeRun run = acceptance(spec("[\"rdma\",\"tcp\"]", false));

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode doc = json(run.stdout());
        assertThat(doc.get("transports").get(0).get("device").asText()).isEqualTo("/dev/nvme0n1");
        assertThat(doc.get("transports").get(0).get("problem").asText()).contains("multipath head", "nvme2 (tcp)");
        assertThat(doc.get("transports").get(1).get("problem").asText()).contains("nvme1 (rdma)");
        assertThat(log(AcceptanceFixtures.FIO_LOG)).as("nothing measured").isEmpty();
    }

    @Test
    void aMultipathHeadWithOnePathIsMeasured() throws IOException {
        host.delete("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme1n1")
                .mkdir("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme0c1n1");

        ProbeRun run = acceptance(spec("[\"rdma\"]", false));

        assertThat(run.exitCode()).as(run.stdout()).isZero();
        assertThat(json(run.stdout()).get("transports").get(0).get("device").asText()).isEqualTo("/dev/nvme0n1");
    }

    @Test
    void specValuesAreValidatedBeforeAnythingRuns() throws IOException {
        assertThat(ProbeRun.run(List.of("acceptance"), "").exitCode()).as("no spec").isEqualTo(2);
        assertThat(acceptance("{\"nvmeof\":{\"nqn\":\"nqn.2014-08.org.example:t; rm -rf /\",\"address\":\"10.0.0.1\"}}").exitCode())
                .isEqualTo(2);
        assertThat(acceptance("{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"-a\"}}").stderr())
                .contains("nvmeof.address");
        assertThat(acceptance("{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"10.0.0.1\",\"transports\":[\"fc\"]}}")
                .stderr()).contains("nvmeof.transports[0]");
        assertThat(acceptance("{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"10.0.0.1\"},"
                + "\"latency\":{\"iodepth\":32}}").stderr()).contains("latency: runs one job at iodepth 1");
        assertThat(acceptance("{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"10.0.0.1\"},"
                + "\"bandwidth\":{\"durationSeconds\":3600}}").stderr()).contains("bandwidth.durationSeconds: 3600 must be between 5 and 300");
        assertThat(acceptance("{\"latency\":{}}").stderr()).contains("nvmeof: is required");
        assertThat(log(AcceptanceFixtures.NVME_LOG)).isEmpty();
        assertThat(log(AcceptanceFixtures.FIO_LOG)).isEmpty();
    }
}
