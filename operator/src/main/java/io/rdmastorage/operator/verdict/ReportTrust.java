package io.rdmastorage.operator.verdict;

/**
 * Whether the report a finished probe container left can be trusted — one rule for every probe
 * pod, the node's own and either side of a latency pair: only node-probe's exit code 0 or 1 comes
 * with a report, the termination message must parse ({@link ReportParser#parse}), and the report
 * must be for the node the pod ran on. Anything else is the {@link ProbeFailure} that says why.
 */
public sealed interface ReportTrust {

    record Trusted(ProbeReport report) implements ReportTrust {
    }

    record Untrusted(ProbeFailure failure) implements ReportTrust {
    }

    /**
     * @param terminatedReason   {@code state.terminated.reason} (Completed, Error, OOMKilled); may be null
     * @param terminationMessage {@code state.terminated.message}; may be null
     */
    public static ReportTrust of(ProbePod pod, int exitCode, String terminatedReason, String terminationMessage) {
        if (exitCode != 0 && exitCode != 1) {
            return new Untrusted(ProbeFailure.exited(pod, exitCode, terminatedReason, terminationMessage));
        }
        ReportParser.Result result = ReportParser.parse(terminationMessage);
        if (result instanceof ReportParser.Unparseable unparseable) {
            return new Untrusted(ProbeFailure.unusableReport(pod, unparseable));
        }
        return of(pod, exitCode, ((ReportParser.Parsed) result).report());
    }

    /** A report already parsed: trusted only with exit code 0 or 1 and for the pod's own node. */
    static ReportTrust of(ProbePod pod, int exitCode, ProbeReport report) {
        if (exitCode != 0 && exitCode != 1) {
            return new Untrusted(ProbeFailure.exited(pod, exitCode, null,
                    "a report, although node-probe writes one only with exit code 0 or 1"));
        }
        if (pod.node() != null && !pod.node().equals(report.node())) {
            return new Untrusted(ProbeFailure.nodeMismatch(pod, report.node()));
        }
        return new Trusted(report);
    }
}
