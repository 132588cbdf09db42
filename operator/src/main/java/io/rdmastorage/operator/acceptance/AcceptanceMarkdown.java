package io.rdmastorage.operator.acceptance;

import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.operator.api.AcceptanceRatios;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The run's record for the deployment document, in Markdown: the three numbers side by side per
 * transport with the TCP/RDMA ratios, the verdict, what its target says of each row (the
 * controllers, or the runs of a directory), the exact fio command lines, versions and date: the
 * record of the targets that fio measures, each of which gives its own parts
 * ({@link AcceptanceTarget#markdown}; the verbs target's is {@link VerbsAcceptanceMarkdown}). Kept in
 * the run's ConfigMap under {@value #KEY}:
 * {@code kubectl get cm rsa-<run>-report -n <ns> -o jsonpath='{.data.report\.md}'}.
 */
public final class AcceptanceMarkdown {

    public static final String KEY = "report.md";

    private AcceptanceMarkdown() {
    }

    /**
     * The record of a run that fio measured, with the parts its target gives.
     *
     * @param target    what the run measured, as the record names it
     * @param rows      the section on the rows, after the table ({@link #controllers}, {@link #pathRuns})
     * @param file      the placeholder for what fio reads in the command lines
     * @param fileIs    what the placeholder stands for
     */
    static String fio(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                      RdmaEffectiveness.Ruling ruling, String target, String rows, String file, String fileIs) {
        List<AcceptanceTransportResult> t = result.transports();
        AcceptanceRatios ratios = ruling.ratios().orElse(new AcceptanceRatios());
        StringBuilder md = new StringBuilder();
        md.append("# RDMA storage acceptance: ").append(run.getMetadata().getName()).append("\n\n");
        md.append("- Node: ").append(run.getSpec().getNodeName()).append('\n');
        md.append("- Target: ").append(target).append('\n');
        md.append("- Date: ").append(result.startedAt()).append('\n');
        md.append("- Tools: node-probe ").append(result.probeVersion()).append(", ")
                .append(result.fioVersion().isEmpty() ? "fio (version not reported)" : result.fioVersion()).append('\n');
        md.append("- RdmaEffective: **").append(ruling.status()).append("** (").append(ruling.reason()).append("): ")
                .append(ruling.message()).append("\n\n");
        md.append("| | ");
        t.forEach(x -> md.append(x.getTransport()).append(x.getRun() == null ? "" : " (" + x.getRun() + ")").append(" | "));
        md.append("TCP/RDMA |\n|---|");
        t.forEach(x -> md.append("---:|"));
        md.append("---:|\n");
        Workload lat = Workload.LATENCY;
        Workload iops = Workload.IOPS;
        Workload bw = Workload.BANDWIDTH;
        row(md, "4 KiB random read, depth 1: p50 latency (µs)", t, AcceptanceTransportResult::getLatencyP50Micros, ratios.getLatency());
        row(md, "p99 latency (µs)", t, AcceptanceTransportResult::getLatencyP99Micros, ratios.getLatencyP99());
        row(md, "p99.9 latency (µs)", t, AcceptanceTransportResult::getLatencyP999Micros, null);
        row(md, "4 KiB random read, " + document.spec().run(iops).jobs() + " jobs x depth " + document.spec().run(iops).iodepth()
                + ": IOPS", t, AcceptanceTransportResult::getIops, null);
        row(md, "host cores busy", t, AcceptanceTransportResult::getIopsCoresBusy, null);
        row(md, "%soft", t, AcceptanceTransportResult::getIopsSoftPercent, null);
        row(md, "%sys", t, AcceptanceTransportResult::getIopsSysPercent, null);
        row(md, "host CPU per I/O (µs)", t, AcceptanceTransportResult::getCpuMicrosPerIo, ratios.getCpuPerIo());
        row(md, "1 MiB sequential read: GB/s (reference)", t, AcceptanceTransportResult::getBandwidthGBps, ratios.getBandwidth());
        row(md, "host cores busy", t, AcceptanceTransportResult::getBandwidthCoresBusy, null);
        md.append("\nRatios are TCP divided by RDMA: above 1, RDMA is faster or cheaper (bandwidth: below 1).\n\n");
        md.append(rows);
        md.append("\n## Commands (the same on every transport; ").append(file).append(" is ").append(fileIs)
                .append(")\n\n```\n");
        for (Workload w : List.of(lat, iops, bw)) {
            md.append(w.fioCommandLine(document.spec().run(w), file)).append('\n');
        }
        md.append("```\n\nHost CPU: /proc/stat read just before and just after each fio run.\n");
        return md.toString();
    }

    /** An NVMe-oF run: each transport's controller, who connected it, and what its counters showed. */
    static String controllers(List<AcceptanceTransportResult> t) {
        StringBuilder md = new StringBuilder("## Controllers\n\n");
        for (AcceptanceTransportResult x : t) {
            md.append("- ").append(x.getTransport()).append(": ")
                    .append(x.getController() == null || x.getController().isEmpty() ? "none" : x.getController())
                    .append(x.getDevice() == null || x.getDevice().isEmpty() ? "" : " " + x.getDevice())
                    .append(Boolean.TRUE.equals(x.getConnectedByProbe()) ? " (connected by the run, disconnected after it)"
                            : " (connected before the run, left as it was)")
                    .append(x.getTraffic() == null ? "" : "; counters: " + x.getTraffic())
                    .append(x.getProblem() == null ? "" : "; not compared: " + x.getProblem()).append('\n');
        }
        return md.toString();
    }

    /** A path run: which run each row is, the transport its counters showed, and the one file it wrote and removed. */
    static String pathRuns(RdmaStorageAcceptance run, AcceptanceSpec.Path path, List<AcceptanceTransportResult> t) {
        StringBuilder md = new StringBuilder("## Runs\n\nA file system such as GPFS cannot switch its transport without restarting its daemon: "
                + "each transport is its own run, on the same node, directory and workloads.\n\n");
        for (AcceptanceTransportResult x : t) {
            md.append("- ").append(x.getRun() == null ? run.getMetadata().getName() + " (this run)" : x.getRun()).append(": ")
                    .append(x.getTransport()).append(", read ").append(x.getDevice() == null ? "–" : x.getDevice())
                    .append(x.getTraffic() == null ? "" : "; counters: " + x.getTraffic())
                    .append(x.getProblem() == null ? "" : "; not compared: " + x.getProblem()).append('\n');
        }
        md.append("\nThe run's only write: ").append(path.file()).append(" (")
                .append(path.fileSizeMiB()).append(" MiB), laid out before the reads and removed after them.\n");
        return md.toString();
    }

    /** One table row: the label, each transport's value, the ratio if any. */
    static void row(StringBuilder md, String label, List<AcceptanceTransportResult> t,
                            Function<AcceptanceTransportResult, Double> value, Double ratio) {
        md.append("| ").append(label).append(" | ");
        t.forEach(x -> md.append(RdmaEffectiveness.fmt(Optional.ofNullable(value.apply(x)).orElse(null))).append(" | "));
        md.append(ratio == null ? "" : RdmaEffectiveness.fmt(ratio) + "x").append(" |\n");
    }
}
