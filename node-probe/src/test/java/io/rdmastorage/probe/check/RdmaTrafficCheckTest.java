package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.Ttar;
import io.rdmastorage.probe.testing.CounterSamples;
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

    @TempDir
    Path dir;

    /** The recorded ss -tin of the NVMe/TCP queue sockets, before or after a 64 MiB read. */
    static String ss(boolean after) {
        return CounterSamples.ssRead(after);
    }

    private FixtureHost host() {
        FixtureHost host = FixtureHost.at(dir.resolve("root"))
                .file("/sys/class/net/veth0/mtu", "1500\n")
                .file("/proc/1/status", "Name:\tinit\n")
                .file(PORT + "state", "4: ACTIVE\n")
                .file(PORT + "link_layer", "Ethernet\n")
                .file(PORT + "gid_attrs/ndevs/0", "veth0\n")
                .file(SS_FILE, ss(false));
        counters(host, false);
        return host.script("/usr/bin/nsenter", "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path(SS_FILE).toString()) + "\n");
    }

    private static void counters(FixtureHost host, boolean after) {
        CounterSamples.rxe0(after).forEach((name, value) -> host.file(PORT + "hw_counters/" + name, value + "\n"));
    }

    private static CheckResult run(FixtureHost fixture, RdmaTrafficCheck check) throws Exception {
        return run(fixture, check, SPEC);
    }

    private static CheckResult run(FixtureHost fixture, RdmaTrafficCheck check, String spec) throws Exception {
        HostRoot host = new HostRoot(fixture.root());
        ToolRunner tools = new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        return check.run(new ProbeContext(host, tools, SpecReader.read(spec), false, "vm-node", Instant.now()));
    }

    @Test
    void countersThatMoveBetweenTheTwoReadsAreDataOverRdma() throws Exception {
        FixtureHost host = host();
        List<Duration> waits = new ArrayList<>();

        CheckResult result = run(host, new RdmaTrafficCheck(window -> {
            waits.add(window);
            counters(host, true);   // the read over NVMe/RDMA happens while the probe waits
        }));

        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).startsWith("rxe0/1 carried ").contains("packets/s; storage TCP ");
    }

    @Test
    void nvmeTcpSocketBytesGrowingWhileRxeStaysFlatIsDataOnTcp() throws Exception {
        FixtureHost host = host();

        CheckResult result = run(host, new RdmaTrafficCheck(window -> host.file(SS_FILE, ss(true))));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("DataOnTcp");
        // the 67 MB the recorded read moved, over the window the fixture really took (about no time at all)
        assertThat(result.message()).startsWith("192.0.2.1:4420 (NVMe/TCP) moved ").contains(" over TCP (sent ");
    }

    @Test
    void lustreAndBeegfsSocketBytesGrowingAreDataOnTcpNamedByFileSystem() throws Exception {
        FixtureHost host = host().file(SS_FILE, CounterSamples.ss(CounterSamples.SS_LUSTRE_BEEGFS, false));

        CheckResult result = run(host, new RdmaTrafficCheck(window -> host.file(SS_FILE,
                CounterSamples.ss(CounterSamples.SS_LUSTRE_BEEGFS, true))));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).contains("10.20.0.10:988 (Lustre) moved ", "10.10.0.21:8003 (BeeGFS)", "BeegfsRdma");
    }

    @Test
    void theSectionsTcpPortsDecideWhichSocketsAreLustreAndBeegfs() throws Exception {
        FixtureHost host = host().file(SS_FILE, CounterSamples.ss(CounterSamples.SS_LUSTRE_BEEGFS, false));

        CheckResult result = run(host, new RdmaTrafficCheck(window -> host.file(SS_FILE,
                CounterSamples.ss(CounterSamples.SS_LUSTRE_BEEGFS, true))),
                "{\"traffic\":{\"window\":\"1s\"},\"lustre\":{\"tcpPort\":1988},\"beegfs\":{\"tcpPorts\":[8003]}}");

        // 988 is no storage port now; the ss stub prints every line, so the probe's own port filter decides
        assertThat(result.message()).contains("10.10.0.21:8003 (BeeGFS)").doesNotContain(":988", ":8005");
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
    void gpfsPeerMegabytesGrowingOverTheWindowAreDataOnTcpAndGpfsSocketsAreLeftToMmdiag() throws Exception {
        FixtureHost host = host();
        String before = Samples.body("gpfs/mmdiag-network_mrot-tcp_storage-node.txt");
        // constructed from the recorded table: storage-2's first connection received 800 MB more
        String after = before.replace("connected  0    127   0         0  ", "connected  0    127   3         800");
        assertThat(after).isNotEqualTo(before);
        host.file("/fixture/mmdiag.txt", before)
                .script("/usr/lpp/mmfs/bin/mmdiag", "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path("/fixture/mmdiag.txt").toString()) + "\n")
                .script("/usr/bin/nsenter", "#!/bin/sh\necho \"$@\" > " + FixtureHost.shQuote(host.path("/fixture/nsenter.args").toString())
                        + "\ncat " + FixtureHost.shQuote(host.path(SS_FILE).toString()) + "\n");

        CheckResult result = run(host, new RdmaTrafficCheck(window -> host.file("/fixture/mmdiag.txt", after)));

        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).startsWith("GPFS node scale-cluster-storage-2 moved ");
        String ssArgs = java.nio.file.Files.readString(host.path("/fixture/nsenter.args"));
        // 1191 left to mmdiag; Lustre 988 and BeeGFS 8003-8008 asked for beside NVMe/TCP and NFS
        assertThat(ssArgs).startsWith("--net=/proc/1/ns/net ss -tin ( dport = :988 or dport = :2049 or dport = :4420 or dport = :8003 "
                + "or dport = :8004 or dport = :8005 or dport = :8006 or dport = :8007 or dport = :8008 )");
    }

    /** The recorded mlx5_0 port 1 (prometheus/procfs's sysfs snapshot): counters/ with 64-bit data counters and hw_counters/. */
    private FixtureHost mlx5() {
        FixtureHost host = host();
        host.delete("/sys/class/infiniband/rxe0");
        Ttar.files(Samples.body("counters/sysfs-infiniband-counters-and-hw_counters_mlx5_0_procfs-fixture.txt"))
                .forEach((path, content) -> host.file(path.substring("fixtures".length()), content));
        return host.file("/sys/class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n");
    }

    private static void add(FixtureHost host, String counter, long more) throws java.io.IOException {
        String file = "/sys/class/infiniband/mlx5_0/ports/1/" + counter;
        long now = Long.parseLong(java.nio.file.Files.readString(host.path(file)).strip());
        host.file(file, (now + more) + "\n");
    }

    @Test
    void theRecordedMlx5PortCarryingDataWhileAckTimeoutsGrowIsFabricErrors() throws Exception {
        FixtureHost host = mlx5();

        CheckResult result = run(host, new RdmaTrafficCheck(window -> {
            try {
                add(host, "counters/port_xmit_data", 250_000_000);   // 1 GB in 4-octet units
                add(host, "counters/port_xmit_packets", 250_000);
                add(host, "hw_counters/local_ack_timeout_err", 5);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("FabricErrors");
        assertThat(result.message()).startsWith("mlx5_0/1: hw_counters/local_ack_timeout_err grew by 5 in the ");
        assertThat(((Number) result.details().get("rdmaBytesPerSecond")).longValue()).isPositive();
    }

    @Test
    void aSymbolErrorCounterStuckAtItsLegacyMaximumIsNoCounterDeltaNotFabricErrors() throws Exception {
        FixtureHost host = mlx5().file("/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "65535\n");

        CheckResult result = run(host, new RdmaTrafficCheck(window -> {
            try {
                add(host, "counters/port_xmit_packets", 250_000);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("mlx5_0/1: symbol_error at its maximum 65535");
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
