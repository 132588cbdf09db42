package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptanceRatios;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether RDMA is worth it on this node, from a run's numbers: RdmaEffective is True when RDMA's
 * small-I/O latency (p50 of 4 KiB random reads at depth 1) is at least {@code minLatencyRatio}
 * times lower than TCP's and its host CPU per I/O (IOPS workload) is lower; False with the numbers
 * otherwise; Unknown when not both transports were measured by themselves with CPU numbers (never
 * True on no evidence). Bandwidth is a reference value: TCP reaches line rate too. Pure.
 */
public final class RdmaEffectiveness {

    /** The ruling on RdmaEffective: the condition's status, reason and message, and the ratios behind it. */
    public record Ruling(String status, String reason, String message, Optional<AcceptanceRatios> ratios) {
    }

    private RdmaEffectiveness() {
    }

    /** How the ruling's message names the latency and the CPU figure it compares. */
    public record Wording(String latency, String cpu) {
    }

    /** The NVMe-oF target's: fio's 4 KiB random reads. */
    public static final Wording NVMEOF = new Wording("4 KiB random read p50 latency", "host CPU per I/O");

    public static Ruling judge(List<AcceptanceTransportResult> transports, double minLatencyRatio) {
        return judge(transports, minLatencyRatio, NVMEOF);
    }

    public static Ruling judge(List<AcceptanceTransportResult> transports, double minLatencyRatio, Wording wording) {
        Optional<AcceptanceTransportResult> rdma = find(transports, "rdma");
        Optional<AcceptanceTransportResult> tcp = find(transports, "tcp");
        if (rdma.isEmpty() || tcp.isEmpty() || !AcceptanceResult.comparable(rdma.get()) || !AcceptanceResult.comparable(tcp.get())) {
            return new Ruling(Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON, "needs rdma and tcp each measured by "
                    + "itself, with latency and host CPU: " + missing("rdma", rdma) + "; " + missing("tcp", tcp),
                    Optional.empty());
        }
        AcceptanceTransportResult r = rdma.get();
        AcceptanceTransportResult t = tcp.get();
        AcceptanceRatios ratios = new AcceptanceRatios();
        ratios.setLatency(ratio(t.getLatencyP50Micros(), r.getLatencyP50Micros()));
        ratios.setLatencyP99(ratio(t.getLatencyP99Micros(), r.getLatencyP99Micros()));
        ratios.setCpuPerIo(ratio(t.getCpuMicrosPerIo(), r.getCpuMicrosPerIo()));
        ratios.setBandwidth(ratio(t.getBandwidthGBps(), r.getBandwidthGBps()));
        if (ratios.getLatency() == null || ratios.getCpuPerIo() == null) {
            return new Ruling(Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON,
                    "a latency or CPU figure is zero, so no ratio can be formed", Optional.of(ratios));
        }
        boolean latencyOk = ratios.getLatency() >= minLatencyRatio;
        boolean cpuOk = ratios.getCpuPerIo() > 1.0;
        String numbers = String.format(Locale.ROOT, "%s rdma %s µs vs tcp %s µs (%s× lower, "
                        + "at least %s× required); %s rdma %s µs vs tcp %s µs (%s× lower)",
                wording.latency(), fmt(r.getLatencyP50Micros()), fmt(t.getLatencyP50Micros()), fmt(ratios.getLatency()), fmt(minLatencyRatio),
                wording.cpu(), fmt(r.getCpuMicrosPerIo()), fmt(t.getCpuMicrosPerIo()), fmt(ratios.getCpuPerIo()));
        if (latencyOk && cpuOk) {
            return new Ruling(Conditions.TRUE, Reasons.Acceptance.EFFECTIVE, numbers, Optional.of(ratios));
        }
        String what = !latencyOk && !cpuOk ? "neither latency nor CPU cost is lower enough over rdma"
                : !latencyOk ? "rdma's latency is not " + fmt(minLatencyRatio) + "× lower"
                : "rdma costs no less " + wording.cpu().replace("host ", "");
        return new Ruling(Conditions.FALSE, Reasons.Acceptance.NOT_EFFECTIVE, what + ": " + numbers
                + ". Check that the rdma controller's traffic really moves over the RDMA port, the HCA's PCIe link and "
                + "NUMA placement, and the target's load", Optional.of(ratios));
    }

    private static Optional<AcceptanceTransportResult> find(List<AcceptanceTransportResult> transports, String transport) {
        return transports.stream().filter(t -> transport.equals(t.getTransport())).findFirst();
    }

    private static String missing(String transport, Optional<AcceptanceTransportResult> t) {
        if (t.isEmpty()) {
            return transport + " not in the run";
        }
        if (t.get().getProblem() != null) {
            return transport + ": " + t.get().getProblem();
        }
        return AcceptanceResult.comparable(t.get()) ? transport + " measured"
                : transport + ": no latency or CPU figure (/proc/stat gave no delta)";
    }

    private static Double ratio(Double tcp, Double rdma) {
        return tcp == null || rdma == null || rdma <= 0 || tcp <= 0 ? null : Math.round(tcp / rdma * 100) / 100.0;
    }

    static String fmt(Double value) {
        if (value == null) {
            return "–";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value)
                : value >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }
}
