package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.check.RdmaTrafficCheck.Facts;
import io.rdmastorage.probe.check.RdmaTrafficCheck.Port;
import io.rdmastorage.probe.counters.CounterKey;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.counters.CounterReading;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.parse.SysfsCounter;
import io.rdmastorage.probe.testing.CounterSamples;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** RdmaTraffic's rules on fact records: two counter snapshots 10 s apart, one rule per test. */
class RdmaTrafficJudgeTest {

    static final ProbeSpec SPEC = spec(null);
    static final Port RXE0 = new Port(new DevicePort("rxe0", 1), "Ethernet", Optional.of("veth0"));
    static final Port MLX5 = new Port(new DevicePort("mlx5_0", 1), "Ethernet", Optional.of("eth2"));
    static final Port IB = new Port(new DevicePort("mlx5_1", 1), "InfiniBand", Optional.empty());
    static final String NVME_TCP_SOCKET = "192.0.2.2:58954 -> 192.0.2.1:4420";
    static final String SS_UNREADABLE = "nsenter not found under the host root";

    static ProbeSpec spec(Integer priority) {
        return new ProbeSpec(null, null, null, null, null, null, null,
                new ProbeSpec.Traffic("10s", List.of(), null, null, priority, null, null));
    }

    /** A 10 s window; each snapshot starts with the storage socket listed (ss answered). */
    static CounterWindow window(Consumer<CounterSnapshot.Builder> before, Consumer<CounterSnapshot.Builder> after) {
        CounterSnapshot.Builder b = new CounterSnapshot.Builder(0, Instant.EPOCH);
        CounterSnapshot.Builder a = new CounterSnapshot.Builder(10_000_000_000L, Instant.EPOCH.plusSeconds(10));
        before.accept(b);
        after.accept(a);
        return new CounterWindow(b.build(), a.build());
    }

    static CounterKey port(Port p, String name) {
        return new CounterKey(Source.RDMA_PORT, p.port().toString(), name);
    }

    /** The real rxe0 hw_counters before and after a 64 MiB read over NVMe/RDMA (67,011 − 191 packets received). */
    static Consumer<CounterSnapshot.Builder> rxe(boolean after) {
        Map<String, Long> values = CounterSamples.rxe0(after);
        return s -> values.forEach((name, v) -> s.put(port(RXE0, "hw_counters/" + name), CounterReading.of(v)));
    }

    static Consumer<CounterSnapshot.Builder> socket(long sent, long received) {
        return s -> s.put(new CounterKey(Source.TCP_SOCKET, NVME_TCP_SOCKET, "bytes_sent"), CounterReading.of(sent))
                .put(new CounterKey(Source.TCP_SOCKET, NVME_TCP_SOCKET, "bytes_received"), CounterReading.of(received));
    }

    static Consumer<CounterSnapshot.Builder> legacy(Port p, String name, long raw) {
        return s -> s.put(port(p, name), new CounterReading(raw, SysfsCounter.legacyMaximum(name), name.endsWith("_data") ? 4 : 1));
    }

    /** An InfiniBand-style port's data and packet counters. */
    static Consumer<CounterSnapshot.Builder> ib(Port p, long data, long packets) {
        return legacy(p, "port_xmit_data", data).andThen(legacy(p, "port_rcv_data", data))
                .andThen(legacy(p, "port_xmit_packets", packets)).andThen(legacy(p, "port_rcv_packets", packets));
    }

    static CheckResult verdict(ProbeSpec spec, CounterWindow window, Port... ports) {
        return new RdmaTrafficCheck().result(new Facts("/host", true, true, List.of(ports), window), spec);
    }

    static CheckResult verdict(CounterWindow window, Port... ports) {
        return verdict(SPEC, window, ports);
    }

    @Test
    void realRxeCountersOfAReadOverRdmaAndFlatStorageSocketsAreDataOverRdma() {
        CheckResult result = verdict(window(rxe(false).andThen(socket(1000, 2000)), rxe(true).andThen(socket(1100, 2100))), RXE0);

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).isEqualTo("rxe0/1 carried 13,364 packets/s; storage TCP 20 B/s (control traffic) over the "
                + "10.0 s window");
        assertThat(result.details()).containsEntry("rdmaPacketsPerSecond", 13364L).containsEntry("tcpBytesPerSecond", 20L)
                .doesNotContainKey("rdmaBytesPerSecond");   // soft-RoCE counts packets only: no bytes are made up
    }

    @Test
    void storageBytesOnTheNvmeTcpSocketWhileRdmaStayedFlatIsDataOnTcpNamingTheTarget() {
        CheckResult result = verdict(window(rxe(true).andThen(socket(0, 0)), rxe(true).andThen(socket(1_000_000, 670_000_000))),
                RXE0);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).startsWith("192.0.2.1:4420 (NVMe/TCP) moved 67.1 MB/s over TCP (sent 0.1 MB/s, "
                + "received 67.0 MB/s) in the 10.0 s window, above traffic.maxTcpBytesPerSecond 1.0 MB/s, while the RDMA "
                + "ports stayed below 100 packets/s");
    }

    @Test
    void tcpAboveTheAllowanceIsDataOnTcpEvenWhileRdmaMovesToo() {
        // part of the I/O fell back: one path on rdma, another on tcp
        CheckResult result = verdict(window(rxe(false).andThen(socket(0, 0)), rxe(true).andThen(socket(0, 50_000_000))), RXE0);

        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).contains("while RDMA moved too (rxe0/1 carried 13,364 packets/s)");
    }

    @Test
    void controlTrafficWithinTheAllowanceIsNoFinding() {
        CheckResult result = verdict(window(rxe(false).andThen(socket(0, 0)), rxe(true).andThen(socket(0, 10_000_000))), RXE0);

        assertThat(result.reason()).isEqualTo("DataOverRdma");   // 1.0 MB/s is not above 1 MiB/s
    }

    @Test
    void aSocketOpenedDuringTheWindowCountsFromZero() {
        CheckResult result = verdict(window(rxe(true), rxe(true).andThen(socket(0, 200_000_000))), RXE0);

        assertThat(result.reason()).isEqualTo("DataOnTcp");
    }

    @Test
    void nothingMovingIsNoStorageTrafficNeverTrue() {
        CheckResult result = verdict(window(rxe(true).andThen(socket(5, 5)), rxe(true).andThen(socket(5, 5))), RXE0);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoStorageTraffic");
        assertThat(result.message()).startsWith("no storage traffic in the 10.0 s window: the RDMA ports moved 0 packets/s")
                .contains("an idle node proves nothing").contains("iflag=direct");
    }

    @Test
    void keepAlivesBelowThePacketFloorAreNoStorageTraffic() {
        CheckResult result = verdict(window(ib(IB, 1000, 100), ib(IB, 1100, 150)), IB);

        assertThat(result.reason()).isEqualTo("NoStorageTraffic");
    }

    @Test
    void infinibandPortsCountBytesInFourOctetUnits() {
        CheckResult result = verdict(window(ib(IB, 1_000_000, 1_000), ib(IB, 1_000_000 + 262_500_000L, 1_000_000)), IB);

        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).startsWith("mlx5_1/1 carried 210.0 MB/s (199,800 packets/s)");
        assertThat(result.details()).containsEntry("rdmaBytesPerSecond", 210_000_000L);
    }

    @Test
    void aSaturatedLegacyDataCounterIsNoCounterDeltaNeverAComputedRate() {
        CheckResult result = verdict(window(ib(IB, 4294967295L, 1000), ib(IB, 4294967295L, 900_000)), IB);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("mlx5_1/1: no delta for the bytes it carried (port_xmit_data at its maximum "
                + "4294967295");
        assertThat(result.details()).doesNotContainKey("rdmaBytesPerSecond");
    }

    @Test
    void aCounterGoingBackwardsIsNoCounterDelta() {
        CheckResult result = verdict(window(rxe(true), rxe(false)), RXE0);

        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).contains("hw_counters/sent_pkts went backwards from 67015 to 195");
    }

    @Test
    void growingErrorCountersAreFabricErrorsNamingCounterDeltaAndPort() {
        CheckResult result = verdict(window(ib(IB, 0, 0).andThen(legacy(IB, "symbol_error", 10)),
                ib(IB, 500_000_000, 2_000_000).andThen(legacy(IB, "symbol_error", 13))), IB);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("FabricErrors");
        assertThat(result.message()).startsWith("mlx5_1/1: symbol_error grew by 3 in the 10.0 s window (traffic.maxErrorCount 0): "
                + "the link itself is faulty");
    }

    @Test
    void transportRetriesOfSoftRoceAreFabricErrors() {
        Consumer<CounterSnapshot.Builder> retries = s -> s.put(port(RXE0, "hw_counters/retry_exceeded_err"), CounterReading.of(2));
        CheckResult result = verdict(window(rxe(false), rxe(true).andThen(retries)), RXE0);

        assertThat(result.reason()).isEqualTo("FabricErrors");
        assertThat(result.message()).startsWith("rxe0/1: hw_counters/retry_exceeded_err ");
    }

    @Test
    void aSaturatedErrorCounterIsUnknownNotFalse() {
        CheckResult result = verdict(window(ib(IB, 0, 0).andThen(legacy(IB, "link_downed", 255)),
                ib(IB, 500_000_000, 2_000_000).andThen(legacy(IB, "link_downed", 255))), IB);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("mlx5_1/1: link_downed at its maximum 255");
    }

    @Test
    void anEcnStormAboveTheCongestionThresholdIsFabricErrors() {
        Consumer<CounterSnapshot.Builder> ecn0 = s -> s.put(port(MLX5, "hw_counters/np_ecn_marked_roce_packets"),
                CounterReading.of(21278189006L));
        Consumer<CounterSnapshot.Builder> ecn1 = s -> s.put(port(MLX5, "hw_counters/np_ecn_marked_roce_packets"),
                CounterReading.of(21278189006L + 500_000));
        CheckResult result = verdict(window(ib(MLX5, 0, 0).andThen(ecn0), ib(MLX5, 500_000_000, 2_000_000).andThen(ecn1)), MLX5);

        assertThat(result.reason()).isEqualTo("FabricErrors");
        assertThat(result.message()).startsWith("mlx5_0/1: hw_counters/np_ecn_marked_roce_packets grew by 500,000 in the 10.0 s "
                + "window (50,000/s, above traffic.maxCongestionPerSecond 10,000)");
    }

    @Test
    void pauseFramesOfTheNetdevCountAsCongestion() {
        Consumer<CounterSnapshot.Builder> pause0 = s -> s.put(new CounterKey(Source.NETDEV, "eth2", "rx_prio3_pause"),
                CounterReading.of(0));
        Consumer<CounterSnapshot.Builder> pause1 = s -> s.put(new CounterKey(Source.NETDEV, "eth2", "rx_prio3_pause"),
                CounterReading.of(1_000_000));
        CheckResult result = verdict(window(ib(MLX5, 0, 0).andThen(pause0), ib(MLX5, 500_000_000, 2_000_000).andThen(pause1)), MLX5);

        assertThat(result.reason()).isEqualTo("FabricErrors");
        assertThat(result.message()).startsWith("mlx5_0/1 (eth2): rx_prio3_pause grew by 1,000,000");
    }

    /** The real ethtool -S prio counters of the byteps issue, before and after: every byte in priority 0. */
    static Consumer<CounterSnapshot.Builder> prio(boolean after) {
        Map<String, Long> stats = CounterSamples.prio(after);
        return s -> stats.forEach((name, v) -> s.put(new CounterKey(Source.NETDEV, "eth2", name), CounterReading.of(v)));
    }

    @Test
    void roceBytesOnPriority0InsteadOfTheLosslessPriority3IsDataOnLossyPriority() {
        // the RDMA port's bytes (constructed) match what priority 0 gained in the real before/after copy
        CheckResult result = verdict(spec(3), window(ib(MLX5, 0, 0).andThen(prio(false)),
                ib(MLX5, 134_000_000_000L / 8, 127_000_000).andThen(prio(true))), MLX5);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("DataOnLossyPriority");
        assertThat(result.message()).startsWith("mlx5_0/1 (eth2) carried 13.4 GB/s of RDMA but its lossless priority 3 only 0 B/s "
                + "while priority 0 moved 27.3 GB/s");
    }

    @Test
    void roceBytesOnTheLosslessPriorityPass() {
        Consumer<CounterSnapshot.Builder> p3a = s -> {
            for (String d : List.of("tx", "rx")) {
                s.put(new CounterKey(Source.NETDEV, "eth2", d + "_prio3_bytes"), CounterReading.of(0));
            }
        };
        Consumer<CounterSnapshot.Builder> p3b = s -> {
            for (String d : List.of("tx", "rx")) {
                s.put(new CounterKey(Source.NETDEV, "eth2", d + "_prio3_bytes"), CounterReading.of(1_000_000_000));
            }
        };
        CheckResult result = verdict(spec(3), window(ib(MLX5, 0, 0).andThen(p3a), ib(MLX5, 500_000_000, 2_000_000).andThen(p3b)), MLX5);

        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).startsWith("mlx5_0/1 carried 400.0 MB/s (400,000 packets/s) on priority 3; storage TCP 0 B/s");
    }

    @Test
    void aMovingPortWhoseLinkLayerCannotBeReadIsNoCounterDeltaNotAPassedPriority() {
        // the same bytes as the passing case, on a port whose link_layer sysfs did not show: RoCE or InfiniBand is unknown
        Port unknown = new Port(MLX5.port(), "", MLX5.netdev());

        CheckResult result = verdict(spec(3), window(ib(unknown, 0, 0), ib(unknown, 500_000_000, 2_000_000)), unknown);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("mlx5_0/1: cannot tell whether its RDMA bytes had to ride priority 3: its "
                + "link layer cannot be read (/sys/class/infiniband/mlx5_0/ports/1/link_layer)");
    }

    /** ethtool -S prio3 bytes of the given netdevs: {@code bytes} each, tx and rx. */
    private static Consumer<CounterSnapshot.Builder> prio3(long bytes, String... netdevs) {
        return s -> {
            for (String netdev : netdevs) {
                for (String d : List.of("tx", "rx")) {
                    s.put(new CounterKey(Source.NETDEV, netdev, d + "_prio3_bytes"), CounterReading.of(bytes));
                }
            }
        };
    }

    @Test
    void aBondCountsItsPrioritiesOnItsSlaves() {
        // a bond's own ethtool -S has no per-priority counters: its slaves' are summed
        Port bond = new Port(new DevicePort("mlx5_0", 1), "Ethernet", Optional.of("bond0"), List.of("ens1f0", "ens1f1"));
        CheckResult result = verdict(spec(3), window(ib(bond, 0, 0).andThen(prio3(0, "ens1f0", "ens1f1")),
                ib(bond, 500_000_000, 2_000_000).andThen(prio3(500_000_000, "ens1f0", "ens1f1"))), bond);

        assertThat(result.reason()).isEqualTo("DataOverRdma");
        assertThat(result.message()).contains("on priority 3");
    }

    @Test
    void aBondWhoseSlavesCountNoPrioritiesSaysSoNotInstallEthtool() {
        Port bond = new Port(new DevicePort("mlx5_0", 1), "Ethernet", Optional.of("bond0"), List.of("ens1f0", "ens1f1"));
        CheckResult result = verdict(spec(3), window(ib(bond, 0, 0), ib(bond, 500_000_000, 2_000_000)), bond);

        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).contains("no per-priority byte delta of bond0 (ens1f0, ens1f1)",
                "`ethtool -S ens1f0`, `ethtool -S ens1f1` show no tx/rx_prio3_bytes").doesNotContain("install ethtool");
    }

    @Test
    void aPriorityWithoutPerPriorityCountersIsNoCounterDelta() {
        CheckResult result = verdict(spec(3), window(rxe(false), rxe(true)), RXE0);

        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("rxe0/1: cannot tell which priority its RDMA bytes rode (no byte counters");
    }

    @Test
    void unreadableSocketsAreNoCounterDeltaNotTrue() {
        CheckResult result = verdict(window(rxe(false).andThen(s -> s.unreadable("ss", SS_UNREADABLE)),
                rxe(true).andThen(s -> s.unreadable("ss", SS_UNREADABLE))), RXE0);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("the storage TCP sockets could not be read (nsenter not found under the host root)");
    }

    @Test
    void gpfsPeerMegabytesOnTcpAreDataOnTcpNamingTheGpfsNode() {
        CounterKey sent = new CounterKey(Source.GPFS_PEER, "nsd-01 10.10.0.1 sock 32", "sent(MB)");
        CounterKey recvd = new CounterKey(Source.GPFS_PEER, "nsd-01 10.10.0.1 sock 32", "recvd(MB)");
        CheckResult result = verdict(window(ib(IB, 0, 0).andThen(s -> s.put(sent, new CounterReading(5, 0, 1 << 20))
                        .put(recvd, new CounterReading(7, 0, 1 << 20))),
                ib(IB, 0, 0).andThen(s -> s.put(sent, new CounterReading(6, 0, 1 << 20)).put(recvd, new CounterReading(807, 0, 1 << 20)))),
                IB);

        assertThat(result.reason()).isEqualTo("DataOnTcp");
        assertThat(result.message()).startsWith("GPFS node nsd-01 moved 84.0 MB/s over TCP").contains("mmfsadm test verbs conn");
    }

    @Test
    void aHostWithoutSysfsOrProcfsIsHostViewMissing() {
        CheckResult noSys = new RdmaTrafficCheck().result(new Facts("/host", false, true, List.of(), null), SPEC);
        CheckResult noProc = new RdmaTrafficCheck().result(new Facts("/host", true, false, List.of(), null), SPEC);

        assertThat(noSys.reason()).isEqualTo("HostViewMissing");
        assertThat(noSys.message()).startsWith("the host's /sys is not visible");
        assertThat(noProc.message()).startsWith("the host's /proc is not visible");
    }
}
