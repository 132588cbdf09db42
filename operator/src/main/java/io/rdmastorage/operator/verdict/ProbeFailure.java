package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;

/**
 * A probe that gave no usable report, as a condition reason and a message that says what happened
 * and what to run. Every check of the node becomes Unknown with it; never True.
 */
public record ProbeFailure(String reason, String message) {

    /** How much of a crashed probe's stderr (its termination message under FallbackToLogsOnError) is quoted. */
    public static final int STDERR_EXCERPT = 600;

    /** A probe pod's final outcome other than Finished, as its failure. */
    public static ProbeFailure of(ProbePod pod, ProbeOutcome outcome, Duration probeTimeout) {
        if (outcome instanceof ProbeOutcome.FailedToStart f) {
            return failedToStart(pod, f.reason(), f.message());
        }
        if (outcome instanceof ProbeOutcome.TimedOut) {
            return timedOut(pod, probeTimeout);
        }
        if (outcome instanceof ProbeOutcome.Lost lost) {
            return new ProbeFailure(lost.reason(), lost.message());
        }
        throw new IllegalStateException("not a failure: " + outcome);
    }

    /** The pod did not finish within the profile's probeTimeout. */
    public static ProbeFailure timedOut(ProbePod pod, Duration timeout) {
        return new ProbeFailure(Reasons.PROBE_TIMED_OUT, "probe pod " + pod.namespace() + "/" + pod.name()
                + " on node " + pod.node() + " did not finish within " + Timestamps.human(timeout)
                + " (spec.probeTimeout, plus traffic.window for the node's own probe): a host tool may hang (GPFS commands block while mmfsd hangs) or the pod may not "
                + "have started. See " + pod.describeCommand() + " and " + pod.logsCommand()
                + "; raise spec.probeTimeout if the node is only slow");
    }

    /**
     * The container never ran: an image that cannot be pulled, a bad volume, a refused security context.
     *
     * @param waitingReason  the container's {@code state.waiting.reason}, e.g. ErrImagePull, CreateContainerConfigError
     * @param kubeletMessage the kubelet's {@code state.waiting.message}; may be null
     */
    public static ProbeFailure failedToStart(ProbePod pod, String waitingReason, String kubeletMessage) {
        String said = kubeletMessage == null || kubeletMessage.isBlank() ? ""
                : ": " + SafeText.quote(kubeletMessage.strip(), STDERR_EXCERPT);
        return new ProbeFailure(Reasons.PROBE_FAILED_TO_START, "probe pod " + pod.namespace() + "/" + pod.name()
                + " on node " + pod.node() + " could not start its container (" + SafeText.escape(String.valueOf(waitingReason))
                + ")" + said + ". See " + pod.describeCommand() + "; check the probe image name and pull access "
                + "(RSO_PROBE_IMAGE) and the pod's security context");
    }

    /** The container ended, but with no report the operator can trust ({@link ReportParser#parse}). */
    public static ProbeFailure unusableReport(ProbePod pod, ReportParser.Unparseable report) {
        return new ProbeFailure(report.reason(), "probe pod " + pod.namespace() + "/" + pod.name() + " on node "
                + pod.node() + ": " + report.message() + ". See " + pod.logsCommand()
                + " for what node-probe printed, and run `node-probe --format text` on the node to check it by hand");
    }

    /**
     * node-probe did not finish its checks: exit code 2 (it refused its arguments or spec), 3 (an
     * internal failure), or the container was killed.
     *
     * @param terminatedReason the container's {@code state.terminated.reason} (Error, OOMKilled, ...); may be null
     * @param text             the termination message: the probe's stderr under FallbackToLogsOnError; may be null
     */
    public static ProbeFailure exited(ProbePod pod, int exitCode, String terminatedReason, String text) {
        String what = switch (exitCode) {
            case 2 -> "node-probe refused its arguments or spec (exit code 2): the operator and the probe image may be "
                    + "of different versions";
            case 3 -> "node-probe failed internally (exit code 3)";
            case 137 -> "the probe container was killed (exit code 137, SIGKILL: often out of memory)";
            case 143 -> "the probe container was terminated (exit code 143, SIGTERM)";
            default -> "the probe container exited with code " + exitCode;
        };
        String kubelet = terminatedReason == null || terminatedReason.isBlank() || terminatedReason.equals("Error")
                || terminatedReason.equals("Completed") ? "" : " [" + SafeText.escape(terminatedReason) + "]";
        String said = text == null || text.isBlank() ? " and left no message"
                : "; it said " + SafeText.quote(text.strip(), STDERR_EXCERPT);
        return new ProbeFailure(Reasons.PROBE_FAILED, "probe pod " + pod.namespace() + "/" + pod.name() + " on node "
                + pod.node() + ": " + what + kubelet + said + ". See " + pod.logsCommand() + " and " + pod.describeCommand());
    }

    /** The report names another node than the pod's: it cannot be this node's verdict. */
    public static ProbeFailure nodeMismatch(ProbePod pod, String reportNode) {
        return new ProbeFailure(Reasons.REPORT_NODE_MISMATCH, "probe pod " + pod.namespace() + "/" + pod.name()
                + " ran on node " + pod.node() + " but its report is for node " + SafeText.quote(reportNode, 80)
                + ": the probe must be given its node name (`--node $(NODE_NAME)` with NODE_NAME from the downward API's "
                + "spec.nodeName). See " + pod.describeCommand());
    }
}
