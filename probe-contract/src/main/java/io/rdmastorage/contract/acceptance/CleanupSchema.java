package io.rdmastorage.contract.acceptance;

/**
 * The document node-probe's {@code acceptance-cleanup} command prints (and writes to its
 * termination message): what it undid of a killed acceptance run, as the run's journal on the node
 * recorded it, read by the operator into the run's status and Event.
 */
public final class CleanupSchema {

    public static final String KIND = "AcceptanceCleanup";
    /**
     * The host directory of the runs' journals ({@code <run-uid>.json}): what a run is about to change
     * on its node, written before it changes it. The acceptance pods that change the node mount it
     * read-write; node-probe writes and reads it.
     */
    public static final String JOURNAL_DIRECTORY = "/var/lib/rdma-storage-operator/acceptance";

    public static final String F_KIND = "kind";
    public static final String F_NODE = "node";
    public static final String F_RUN_UID = "runUid";
    /** True when everything the journal recorded is undone (or was already gone), and the journal is removed. */
    public static final String F_COMPLETE = "complete";
    /** Controllers it disconnected (names as the kernel gave them). */
    public static final String F_DISCONNECTED = "disconnected";
    /** Files it removed (paths on the node). */
    public static final String F_REMOVED = "removed";
    /** What was recorded but already gone (a reboot drops every NVMe-oF connection), in words. */
    public static final String F_GONE = "gone";
    /** What it could not undo, each with the command to finish by hand. */
    public static final String F_PROBLEMS = "problems";

    private CleanupSchema() {
    }
}
