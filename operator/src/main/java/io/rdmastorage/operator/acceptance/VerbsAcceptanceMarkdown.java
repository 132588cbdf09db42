package io.rdmastorage.operator.acceptance;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.operator.api.AcceptanceRatios;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import java.util.List;

/**
 * The verbs target's Markdown record ({@link AcceptanceMarkdown} holds the key and the NVMe-oF
 * target's): the three numbers side by side per transport (4 KiB message latency one way, host
 * CPU per 1 MiB message, bandwidth) with the TCP/RDMA ratios, the verdict, what the counters
 * showed, the exact command lines of both sides, versions and date.
 */
final class VerbsAcceptanceMarkdown {

    static final RdmaEffectiveness.Wording WORDING = new RdmaEffectiveness.Wording(
            "4 KiB message typical latency (one way)", "host CPU per 1 MiB message");
    /** The peer's address in the record's command lines: the client pod had it, the record names the node. */
    static final String PEER = "PEER";

    private VerbsAcceptanceMarkdown() {
    }

    static String markdown(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                           RdmaEffectiveness.Ruling ruling) {
        VerbsAcceptanceSpec.Verbs verbs = document.verbs().verbs();
        List<AcceptanceTransportResult> t = result.transports();
        AcceptanceRatios ratios = ruling.ratios().orElse(new AcceptanceRatios());
        StringBuilder md = new StringBuilder();
        md.append("# RDMA storage acceptance: ").append(run.getMetadata().getName()).append("\n\n");
        md.append("- Node (client, CPU measured here): ").append(run.getSpec().getNodeName()).append('\n');
        md.append("- Peer (server): ").append(run.getSpec().getVerbs().getPeerNode()).append('\n');
        md.append("- Target: verbs, ").append(verbs.device()).append(" port ").append(verbs.port())
                .append(" on both nodes, against TCP between the same nodes\n");
        md.append("- Date: ").append(result.startedAt()).append('\n');
        md.append("- Tools: node-probe ").append(result.probeVersion()).append(", ")
                .append(result.fioVersion().isEmpty() ? "perftest and fio (versions not reported)" : result.fioVersion())
                .append('\n');
        md.append("- RdmaEffective: **").append(ruling.status()).append("** (").append(ruling.reason()).append("): ")
                .append(ruling.message()).append("\n\n");
        md.append("| | ");
        t.forEach(x -> md.append(x.getTransport()).append(" | "));
        md.append("TCP/RDMA |\n|---|");
        t.forEach(x -> md.append("---:|"));
        md.append("---:|\n");
        AcceptanceMarkdown.row(md, "4 KiB messages, one at a time (" + verbs.iterations() + "): typical latency, one way (µs)", t,
                AcceptanceTransportResult::getLatencyP50Micros, ratios.getLatency());
        AcceptanceMarkdown.row(md, "99% latency (µs)", t, AcceptanceTransportResult::getLatencyP99Micros, ratios.getLatencyP99());
        AcceptanceMarkdown.row(md, "99.9% latency (µs)", t, AcceptanceTransportResult::getLatencyP999Micros, null);
        AcceptanceMarkdown.row(md, "1 MiB messages streamed for " + verbs.durationSeconds() + " s: GB/s", t,
                AcceptanceTransportResult::getBandwidthGBps, ratios.getBandwidth());
        AcceptanceMarkdown.row(md, "host cores busy", t, AcceptanceTransportResult::getBandwidthCoresBusy, null);
        AcceptanceMarkdown.row(md, "host CPU per 1 MiB message (µs)", t, AcceptanceTransportResult::getCpuMicrosPerIo, ratios.getCpuPerIo());
        md.append("\nRatios are TCP divided by RDMA: above 1, RDMA is faster or cheaper (bandwidth: below 1). ")
                .append("perftest busy-polls its completions, so RDMA's CPU is at most about one core per run; ")
                .append("the peer's CPU is not counted.\n\n");
        md.append("## Transports\n\n");
        for (AcceptanceTransportResult x : t) {
            md.append("- ").append(x.getTransport()).append(": ").append(x.getDevice())
                    .append(x.getTraffic() == null ? "" : "; counters: " + x.getTraffic())
                    .append(x.getProblem() == null ? "" : "; not compared: " + x.getProblem()).append('\n');
        }
        md.append("\n## Commands (client on ").append(run.getSpec().getNodeName()).append("; the server on ")
                .append(run.getSpec().getVerbs().getPeerNode()).append(" runs the same without the peer, fio with --listen "
                        + "--rw=read; PEER is its address)\n\n```\n");
        for (VerbsWorkload w : VerbsWorkload.values()) {
            md.append(w.clientCommandLine(verbs, PEER, VerbsAcceptancePods.BASE_TCP_PORT)).append('\n');
        }
        md.append("```\n\nHost CPU: /proc/stat of ").append(run.getSpec().getNodeName())
                .append(" read just before and just after each run. The TCP ping-pong's round trip is halved to "
                        + "compare with perftest's one-way latency.\n");
        return md.toString();
    }
}
