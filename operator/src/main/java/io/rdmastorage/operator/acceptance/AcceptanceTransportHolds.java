package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The nodes whose NVMe-oF transport an acceptance run holds: from the moment its pod is created
 * until its connection is seen undone, a run with {@code connect: true} may add a TCP controller
 * beside the node's RDMA one. A profile's probe there would judge the run's transport, not the
 * node's, and fence a node in service for a measurement its admin asked for; so profiles do not
 * probe a held node, and its checks read Unknown {@code AcceptanceRunInProgress} (no taint).
 * <p>Read from the runs' status ({@code status.pendingCleanup}, written before the pod exists) and
 * only where the operator's digest vouches for it: a status someone else wrote holds no node, or
 * whoever may edit a run's status could blind every profile to a node. A run failed for an edited
 * status holds nothing, and a cleanup that ended (even failed) holds nothing either: a controller left behind is the node's state now, and the profile
 * says what it is.
 */
public final class AcceptanceTransportHolds {

    private AcceptanceTransportHolds() {
    }

    /** The node {@code run} holds, if it holds one: it records controllers no cleanup has ended, in a status the operator wrote. */
    public static Optional<String> heldNode(RdmaStorageAcceptance run) {
        if (run == null || !AcceptanceCleanupKind.changesToUndo(run)) {
            return Optional.empty();
        }
        AcceptancePendingCleanup pending = run.getStatus().getPendingCleanup();
        boolean controllers = pending.getControllers() != null && !pending.getControllers().isEmpty();
        return controllers ? Optional.ofNullable(pending.getNodeName()) : Optional.empty();
    }

    /** Every node one of {@code runs} holds. */
    public static Set<String> heldNodes(Collection<RdmaStorageAcceptance> runs) {
        Set<String> held = new TreeSet<>();
        runs.forEach(run -> heldNode(run).ifPresent(held::add));
        return held;
    }
}
