package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.status.Reasons;

/** Why a matching node has no fresh probe result; each gives every check Unknown, never True. */
public enum NotProbed {

    /** The node's Ready condition is not True: its kubelet cannot run a probe pod. */
    NODE_NOT_READY(Reasons.NODE_NOT_READY),
    /** The node is cordoned ({@code spec.unschedulable}). */
    NODE_UNSCHEDULABLE(Reasons.NODE_UNSCHEDULABLE),
    /**
     * An acceptance run connects NVMe-oF on the node, or has not undone its connection yet: a probe
     * would judge the run's extra transport, not the node's, and fence a node in service for it.
     */
    ACCEPTANCE_RUN_IN_PROGRESS(Reasons.ACCEPTANCE_RUN_IN_PROGRESS),
    /** The first round has not reached the node yet (operator start, new profile, node just joined). */
    AWAITING_PROBE(Reasons.AWAITING_PROBE);

    private final String reason;

    NotProbed(String reason) {
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }

    public String message(String node) {
        return switch (this) {
            case NODE_NOT_READY -> "node " + node + " is NotReady, so it is not probed and earlier results no longer "
                    + "count. See `kubectl describe node " + node + "`; it is probed again once it is Ready";
            case NODE_UNSCHEDULABLE -> "node " + node + " is cordoned (spec.unschedulable), so it is not probed. "
                    + "Run `kubectl uncordon " + node + "` to have it probed again";
            case ACCEPTANCE_RUN_IN_PROGRESS -> "an acceptance run connects NVMe-oF on node " + node + " (or has not "
                    + "undone its connection yet), so the node is not probed: a probe would judge the run's extra "
                    + "transport, not the node's. It is probed again once the run's changes are undone; see "
                    + "`kubectl get rdmastorageacceptances` (status.pendingCleanup names the node)";
            case AWAITING_PROBE -> "node " + node + " has not been probed yet: its probe is queued (at most "
                    + "spec.maxConcurrentProbes run at once). If this lasts, check the operator's logs and "
                    + "`kubectl get pods -A -l app.kubernetes.io/component=node-probe`";
        };
    }
}
