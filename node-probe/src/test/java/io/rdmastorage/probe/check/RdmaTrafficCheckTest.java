package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.EthtoolStats;
import io.rdmastorage.probe.spec.SpecReader;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RdmaTraffic on fixture hosts: soft-RoCE rxe0 with the real hw_counters recorded around a read over
 * NVMe/RDMA, and an {@code nsenter} stub printing {@code ss -tin} from a file. The counters change
 * between the two samples (the pause rewrites the files), so the check must read the host twice.
 */
class RdmaTrafficCheckTest {

    static final String PORT = "/sys/class/infiniband/rxe0/ports/1/";
    static final String SS_FILE = "/fixture/ss-tin.txt";
    static final String SPEC = "{\"traffic\":{\"window\":\"1s\"}}";
    static final String SS_HEADER = "State Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n";

    @TempDir
    Path dir;

    /** ss -tin with TCP_INFO as iproute2 6.1 prints it into a pipe (constructed: items on the socket's line). */
    static String ss(long sent, long received) {
        return SS_HEADER + "ESTAB 0      0          192.0.2.2:58954    192.0.2.1:4420 cubic rto:204 rtt:0.1/0.05 mss:65483 "
                + "cwnd:10 bytes_sent:" + sent + " bytes_acked:" + sent + " bytes_received:" + received + " segs_out:9\n";
    }

    static Map<String, Long> rxe0(boolean after) {
        String body = Samples.body("counters/sysfs_rxe-hw_counters_before-after-nvme-rdma-read_vm-6.1.txt");
        String part = after ? body.substring(body.indexOf("=== rdma after")) : body.substring(0, body.indexOf("=== rdma after"));
        return EthtoolStats.parse(part.substring(part.indexOf("/sys/class/infiniband/rxe0/"))
                .replace("/sys/class/infiniband/rxe0/ports/1/hw_counters/", ""));
    }

    private FixtureHost host() {
        FixtureHost host = FixtureHost.at(dir.resolve("root"))
                .file("/sys/class/net/veth0/mtu", "1500\n")
                .file("/proc/1/status", "Name:\tinit\n")
                .file(PORT + "state", "4: ACTIVE\n")
                .file(PORT + "link_layer", "Ethernet\n")
                .file(PORT + "gid_attrs/ndevs/0", "veth0\n")
                .file(SS_FILE, ss(1000, 2000));
        counters(host, false);
        return host.script("/usr/bin/nsenter", "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path(SS_FILE).toString()) + "\n");
    }

    private static void counters(FixtureHost host, boolean after) {
        rxe0(after).forEach((name, value) -> host.file(PORT + "hw_counters/" + name, value + "\n"));
    }

    private static CheckResult run(FixtureHost fixture, RdmaTrafficCheck check) throws Exception {
        HostRoot host = new HostRoot(fixture.root());
        ToolRunner tools = new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        return check.run(new ProbeContext(host, tools, SpecReader.read(SPEC), false, "vm-node", Instant.now()));
    }

    @Test
    void countersThatMoveBetweenTheTwoReadsAreDataOverRdma() throws Exception {
        FixtureHost host = host();
        List<Duration> waits = new ArrayList<>();

        CheckResult result = run(host, new RdmaTrafficCheck(window -> {
            waits.add(window);
            counters(host, true);   // the read over NVMe/RDMA happens while the probe waits
            host.file(SS_FILE, ss(1100, 2100));
        }));

        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).startsWith("rxe0/1 carried ").contains("packets/s; storage TCP ");
    }

    @Test
    void nvmeTcpSocketBytesGrowingWhileRxeStaysFlatIsDataOnTcp() throws Exception {
        FixtureHost host = host();

        CheckResult result = run(host, new RdmaTrafficCheck(window -> host.file(SS_FILE, ss(1_000_000, 600_000_000))));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).startsWith("192.0.2.1:4420 (NVMe/TCP) moved ");
    }

    @Test
    void ssWithoutTcpInfoMakesTheTcpPartUnknown() throws Exception {
        FixtureHost host = host();
        host.sampleFile(SS_FILE, "counters/ss-tin_nvme-tcp-sockets_proc-net-tcp-fallback-no-tcp_diag_vm-6.1.txt");

        CheckResult result = run(host, new RdmaTrafficCheck(window -> counters(host, true)));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).contains("`modprobe tcp_diag`");
    }

    @Test
    void throughTheCliAnIdleFixtureNodeIsNoStorageTrafficAfterItsWindow() {
        long start = System.nanoTime();

        ProbeRun run = ProbeRun.withSpec(host(), SPEC);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(run.stdout().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
        JsonNode check = run.check("RdmaTraffic");
        assertThat(check.path("status").asText() + " " + check.path("reason").asText()).isEqualTo("Unknown NoStorageTraffic");
        assertThat(check.path("details").path("windowSeconds").asDouble()).isGreaterThanOrEqualTo(1.0);
    }
}
