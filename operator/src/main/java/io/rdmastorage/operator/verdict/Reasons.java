package io.rdmastorage.operator.verdict;

import io.rdmastorage.contract.checks.CephMessenger;
import io.rdmastorage.contract.checks.VerbsLatency;

/**
 * The condition reasons the operator itself writes (the probe's own reasons, such as TcpFallback,
 * come from its report). CamelCase, stable: users alert and filter on them. Those that belong to
 * one check are declared by its descriptor in probe-contract and only named here.
 */
public final class Reasons {

    // A check the probe should have reported on, but did not.
    public static final String NOT_REPORTED = "NotReported";
    /** VerbsLatency before its first pairwise measurement (or in a status built by the node's own probe). */
    public static final String AWAITING_MEASUREMENT = VerbsLatency.AWAITING_MEASUREMENT;
    /** CephMessenger on a node without /etc/ceph/ceph.conf: there is no messenger to misconfigure. */
    public static final String NO_CEPH_CONFIG = CephMessenger.NO_CEPH_CONFIG;

    // A probe that gave no usable report: every check Unknown with one of these.
    public static final String PROBE_TIMED_OUT = "ProbeTimedOut";
    public static final String PROBE_FAILED_TO_START = "ProbeFailedToStart";
    public static final String PROBE_FAILED = "ProbeFailed";
    public static final String REPORT_MISSING = "ReportMissing";
    public static final String REPORT_OVERSIZED = "ReportOversized";
    public static final String REPORT_UNPARSEABLE = "ReportUnparseable";
    /** The report names another node than the one the probe pod ran on. */
    public static final String REPORT_NODE_MISMATCH = "ReportNodeMismatch";

    // A node that was not probed.
    public static final String NODE_NOT_READY = "NodeNotReady";
    public static final String NODE_UNSCHEDULABLE = "NodeUnschedulable";
    public static final String AWAITING_PROBE = "AwaitingProbe";

    // VerbsLatency, decided by the operator from one or two latency pairs.
    /** The only matching node: there is no peer to measure against. */
    public static final String NO_PEER = VerbsLatency.NO_PEER;
    /** As node-probe names it: the out-of-band TCP exchange with the peer failed. */
    public static final String PEER_UNREACHABLE = VerbsLatency.PEER_UNREACHABLE;

    /** A result older than 3 × interval. */
    public static final String RESULT_EXPIRED = "ResultExpired";

    // A node's Ready condition.
    public static final String ALL_CHECKS_PASSED = "AllChecksPassed";
    public static final String CHECKS_FAILED = "ChecksFailed";
    public static final String CHECKS_UNKNOWN = "ChecksUnknown";
    /** A profile with no check section: nothing to be Ready about. */
    public static final String NO_CHECKS_CONFIGURED = "NoChecksConfigured";

    // A profile's conditions, aggregated over its nodes.
    public static final String ALL_NODES_READY = "AllNodesReady";
    public static final String NODES_NOT_READY = "NodesNotReady";
    /** Nodes Unknown for trouble: a probe that went wrong, an expired result, a check that cannot tell. */
    public static final String NODES_UNKNOWN = "NodesUnknown";
    /** Unknown nodes that only wait for their first probe or verbs latency measurement (maybe beside paused ones). */
    public static final String NODES_AWAITING = "NodesAwaiting";
    /** Unknown nodes that are all NotReady or cordoned, so not probed until they are back. */
    public static final String NODES_PAUSED = "NodesPaused";
    public static final String NO_MATCHING_NODES = "NoMatchingNodes";
    public static final String ALL_NODES_PASSED = "AllNodesPassed";
    public static final String NODES_FAILING = "NodesFailing";
    /** The operator's reconcile of the profile keeps failing (Ready Unknown, the error in the message). */
    public static final String RECONCILE_FAILING = "ReconcileFailing";

    private Reasons() {
    }
}
