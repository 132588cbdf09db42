package io.rdmastorage.operator.status;

import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.checks.CephMessenger;
import io.rdmastorage.contract.checks.VerbsLatency;
import java.util.List;

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
    /**
     * An acceptance run connects NVMe-oF on the node (or its connection is not undone yet): the
     * node's transport is the run's, not its own, so it is not probed until the run's changes are undone.
     */
    public static final String ACCEPTANCE_RUN_IN_PROGRESS = "AcceptanceRunInProgress";

    // VerbsLatency, decided by the operator from one or two latency pairs.
    /** The only matching node: there is no peer to measure against. */
    public static final String NO_PEER = VerbsLatency.NO_PEER;
    /** As node-probe names it: the out-of-band TCP exchange with the peer failed. */
    public static final String PEER_UNREACHABLE = VerbsLatency.PEER_UNREACHABLE;

    /**
     * A verdict whose status someone other than the operator wrote
     * ({@code VerdictDigest}): discarded, measured again.
     */
    public static final String VERDICT_EDITED = "VerdictEdited";

    /** A result older than 3 × interval. */
    public static final String RESULT_EXPIRED = "ResultExpired";

    /**
     * The reasons above that the operator writes on any check's condition, declared as a check's
     * descriptor declares its own: status, meaning and recommended action. All are Unknown, and
     * only a hang on the host asks anything of the node: the others are no evidence against it.
     */
    public static final List<Reason> ON_CHECKS = List.of(
            Reason.operator(AWAITING_PROBE, UNKNOWN, "not probed yet", NONE),
            Reason.operator(NODE_NOT_READY, UNKNOWN, "the node is NotReady, so not probed", NONE),
            Reason.operator(NODE_UNSCHEDULABLE, UNKNOWN, "the node is cordoned, so not probed", NONE),
            Reason.operator(ACCEPTANCE_RUN_IN_PROGRESS, UNKNOWN,
                    "an acceptance run connects NVMe-oF on the node, so it is not probed until that is undone", NONE),
            Reason.operator(PROBE_TIMED_OUT, UNKNOWN, "the probe pod ran past probeTimeout: a host tool hangs", INVESTIGATE_NODE),
            Reason.operator(PROBE_FAILED_TO_START, UNKNOWN, "the probe pod never ran (image pull, container creation)", NONE),
            Reason.operator(PROBE_FAILED, UNKNOWN, "node-probe refused its spec or crashed", NONE),
            Reason.operator(REPORT_MISSING, UNKNOWN, "the probe pod ended without a report", NONE),
            Reason.operator(REPORT_OVERSIZED, UNKNOWN, "the termination message is larger than a report may be", NONE),
            Reason.operator(REPORT_UNPARSEABLE, UNKNOWN, "the termination message is not a report", NONE),
            Reason.operator(REPORT_NODE_MISMATCH, UNKNOWN, "the report names another node than the probe pod's", NONE),
            Reason.operator(NOT_REPORTED, UNKNOWN, "the report lacks a check the profile asks for", NONE),
            Reason.operator(RESULT_EXPIRED, UNKNOWN, "the last result is older than 3 × interval", NONE),
            Reason.operator(VERDICT_EDITED, UNKNOWN, "someone other than the operator changed the status", NONE));

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
    // Fleet consistency: a profile's FleetConsistent and a node's MatchesFleet.
    public static final String FLEET_UNIFORM = "FleetUniform";
    public static final String FLEET_DIVERGES = "FleetDiverges";
    /** Fewer than two nodes have reported inventory facts. */
    public static final String FLEET_TOO_SMALL = "FleetTooSmall";
    public static final String MATCHES_MAJORITY = "MatchesMajority";
    public static final String DIFFERS_FROM_FLEET = "DiffersFromFleet";
    /** A fact's most common values tie: no node of them is the odd one out. */
    public static final String NO_FLEET_MAJORITY = "NoFleetMajority";
    public static final String INVENTORY_NOT_REPORTED = "InventoryNotReported";
    /** The operator's reconcile of the profile keeps failing (Ready Unknown, the error in the message). */
    public static final String RECONCILE_FAILING = "ReconcileFailing";

    private Reasons() {
    }

    /**
     * An acceptance run's condition types, their reasons and its phases: the run's own vocabulary,
     * which docs/acceptance.md and docs/troubleshooting.md list (not the operator reasons table).
     */
    public static final class Acceptance {

        public static final String COMPLETE = "Complete";
        public static final String RDMA_EFFECTIVE = "RdmaEffective";

        // Complete
        /** True: every transport was measured by itself and the run cleaned up. */
        public static final String MEASURED = "Measured";
        public static final String WAITING_FOR_NODE = "WaitingForNode";
        public static final String RUNNING = "Running";
        /** The pod reported, but a transport was not measured (not connected, fio failed, shared multipath head). */
        public static final String INCOMPLETE = "Incomplete";
        public static final String TIMED_OUT = "TimedOut";
        /** The pod never ran, was lost, or ended without a readable report. */
        public static final String PROBE_FAILED = "ProbeFailed";
        public static final String NODE_NOT_FOUND = "NodeNotFound";
        /** Failed: the run's pod did not start within the start deadline (not placed, its image not pulled), or timed out before it started. */
        public static final String POD_NOT_STARTED = "PodNotStarted";
        /** Pending: the node (or peer) is cordoned; a run does not start there. */
        public static final String NODE_UNSCHEDULABLE = Reasons.NODE_UNSCHEDULABLE;
        /** Pending: the node (or peer) is NotReady; Failed: it turned NotReady while the run measured. */
        public static final String NODE_NOT_READY = Reasons.NODE_NOT_READY;
        /** Pending: a pod of an earlier run of the same name (another UID) is still being deleted. */
        public static final String WAITING_FOR_EARLIER_POD = "WaitingForEarlierPod";
        /** Failed: the run's status was not as the operator wrote it ({@code AcceptanceDigest}). */
        public static final String STATUS_EDITED = "StatusEdited";
        public static final String INVALID_SPEC = "InvalidSpec";
        /**
         * A path run's compareWith names no run it can be compared with (missing, not Succeeded,
         * another node, directory or workload).
         */
        public static final String COMPARE_WITH_INVALID = "CompareWithInvalid";
        /**
         * The run's node, directory, NVMe-oF address, file size or duration is outside what the
         * cluster admin allows (the operator's acceptance configuration); refused before any pod.
         */
        public static final String OUTSIDE_ADMIN_BOUNDS = "OutsideAdminBounds";

        // CleanedUp: a run that ended without saying it undid its changes to the node (its pod
        // killed, OOM-killed, lost, its node rebooted) is cleaned up from its journal on the node
        /** The condition, and its True reason: the cleanup pod undid what the run's journal recorded. */
        public static final String CLEANED_UP = "CleanedUp";
        /** False while the cleanup pod waits for the run's pod to be gone, or runs. */
        public static final String CLEANUP_RUNNING = "CleanupRunning";
        /** False: the cleanup pod could not undo everything (or did not run); the message says what to undo by hand. */
        public static final String CLEANUP_FAILED = "CleanupFailed";

        // RdmaEffective
        public static final String EFFECTIVE = "Effective";
        public static final String NOT_EFFECTIVE = "NotEffective";
        /** Unknown: not both transports have comparable numbers (yet). */
        public static final String NO_COMPARISON = "NoComparison";
        /** Unknown: a path run and the run it is compared with went over the same transport. */
        public static final String SAME_TRANSPORT = "SameTransport";

        // phases
        public static final String PENDING = "Pending";
        public static final String PHASE_RUNNING = "Running";
        public static final String SUCCEEDED = "Succeeded";
        public static final String FAILED = "Failed";

        private Acceptance() {
        }
    }
}
