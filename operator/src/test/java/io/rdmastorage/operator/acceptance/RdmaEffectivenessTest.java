package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.AcceptanceTransportResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RdmaEffective from a run's rows: the typical 100 GbE figures of the issue, and what is not evidence. */
class RdmaEffectivenessTest {

    private static AcceptanceTransportResult row(String transport, Double p50, Double cpuMicrosPerIo) {
        AcceptanceTransportResult r = new AcceptanceTransportResult();
        r.setTransport(transport);
        r.setLatencyP50Micros(p50);
        r.setLatencyP99Micros(p50 == null ? null : p50 * 2);
        r.setCpuMicrosPerIo(cpuMicrosPerIo);
        r.setBandwidthGBps(11.8);
        return r;
    }

    @Test
    void rdmaThreeTimesFasterAndCheaperIsEffective() {
        RdmaEffectiveness.Ruling j = RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 1.2), row("tcp", 90.0, 8.4)), 2.0);

        assertThat(j.status()).isEqualTo("True");
        assertThat(j.reason()).isEqualTo("Effective");
        assertThat(j.ratios()).hasValueSatisfying(r -> {
            assertThat(r.getLatency()).isEqualTo(3.6);
            assertThat(r.getLatencyP99()).isEqualTo(3.6);
            assertThat(r.getCpuPerIo()).isEqualTo(7.0);
            assertThat(r.getBandwidth()).isEqualTo(1.0);
        });
        assertThat(j.message()).contains("rdma 25.0 µs vs tcp 90.0 µs (3.60× lower, at least 2.00× required)",
                "rdma 1.20 µs vs tcp 8.40 µs (7.00× lower)");
    }

    @Test
    void notLowEnoughLatencyOrNoCpuSavingIsNotEffectiveWithTheNumbers() {
        RdmaEffectiveness.Ruling slow = RdmaEffectiveness.judge(List.of(row("rdma", 60.0, 1.2), row("tcp", 90.0, 8.4)), 2.0);
        assertThat(slow.status()).isEqualTo("False");
        assertThat(slow.reason()).isEqualTo("NotEffective");
        assertThat(slow.message()).startsWith("rdma's latency is not 2.00× lower").contains("1.50× lower");

        RdmaEffectiveness.Ruling costly = RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 9.0), row("tcp", 90.0, 8.4)), 2.0);
        assertThat(costly.status()).isEqualTo("False");
        assertThat(costly.message()).startsWith("rdma costs no less CPU per I/O");

        RdmaEffectiveness.Ruling stricter = RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 1.2), row("tcp", 90.0, 8.4)), 4.0);
        assertThat(stricter.status()).as("minLatencyRatio 4").isEqualTo("False");
    }

    @Test
    void withoutBothTransportsMeasuredByThemselvesThereIsNoVerdict() {
        AcceptanceTransportResult shared = row("tcp", 90.0, 8.4);
        shared.setProblem("/dev/nvme0n1 is an NVMe multipath head that nvme1 (rdma) also reaches");

        assertThat(RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 1.2), shared), 2.0).status()).isEqualTo("Unknown");
        assertThat(RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 1.2), shared), 2.0).message()).contains("multipath head");
        assertThat(RdmaEffectiveness.judge(List.of(row("rdma", 25.0, 1.2)), 2.0).message()).contains("tcp not in the run");
        // no /proc/stat delta: CPU per I/O unknown, so never True on latency alone
        RdmaEffectiveness.Ruling noCpu = RdmaEffectiveness.judge(List.of(row("rdma", 25.0, null), row("tcp", 90.0, 8.4)), 2.0);
        assertThat(noCpu.status()).isEqualTo("Unknown");
        assertThat(noCpu.reason()).isEqualTo("NoComparison");
        assertThat(noCpu.ratios()).isEmpty();
    }
}
