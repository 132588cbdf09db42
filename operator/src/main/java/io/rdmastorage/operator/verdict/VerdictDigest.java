package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.probe.CounterBaselineHandover;
import io.rdmastorage.operator.status.StatusDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's record of what it wrote to a verdict: a SHA-256 over the object's name and the
 * parts of its status that node markings, the fleet comparison and the measurement lifecycle
 * depend on (every condition, the probe's time and round, the inventory facts other nodes'
 * MatchesFleet is computed from, the latency measurement's time and round), stored in
 * {@code status.digest} with each write. A status edited by anyone else (a
 * {@code kubectl patch --subresource=status} setting conditions True or an inventory fact to another
 * value, a copied status) no longer matches, so the operator discards it and measures the node
 * again rather than label, untaint or condition this node, or judge the others, by it.
 *
 * <p>This catches edits, not forgery: whoever may write RdmaStorageNode status may also recompute
 * the digest, as they may label nodes themselves. Of {@code details}, only the port error counter
 * reading the next probe is handed is covered ({@link CounterBaselineHandover#reading}, in the
 * contract's spelling): an edited reading could hide errors between two rounds. The other facts
 * (the rest of {@code details}, latency figures) are left out: the operator decides nothing by them,
 * and their numbers need not come back from the API server byte for byte as they were written. The recommended actions in
 * {@code details} are worked out from the digested conditions at every write
 * ({@link RecommendedActions}), so an edit of an action alone stands until the node's next write.
 *
 * <p>Digests written before the inventory was covered still match, so an upgrade does not make
 * every verdict look edited (every node Unknown {@code VerdictEdited} and probed at once): each gets
 * the full digest with its next write, at the latest its next probe round.
 */
public final class VerdictDigest {

    private VerdictDigest() {
    }

    /** The digest of {@code status} as written to the RdmaStorageNode named {@code name}. */
    public static String of(String name, RdmaStorageNodeStatus status) {
        List<Object> parts = withoutInventory(name, status);
        // sorted: the API server returns a map's keys in its own order, not in the order written
        parts.add(new TreeMap<>(status.getInventory() == null ? Map.of() : status.getInventory()));
        // only where there is one: a verdict without a reading keeps the digest it had before readings were covered
        CounterBaselineHandover.reading(status).ifPresent(parts::add);
        return StatusDigest.of(parts);
    }

    /** The digest as operators wrote it before it covered the inventory: the same parts, less that one. */
    static String withoutInventoryOf(String name, RdmaStorageNodeStatus status) {
        return StatusDigest.of(withoutInventory(name, status));
    }

    private static List<Object> withoutInventory(String name, RdmaStorageNodeStatus status) {
        List<Object> parts = new ArrayList<>(Arrays.asList(name, status.getObservedGeneration(),
                status.getLastProbeTime(), status.getProbePod(), status.getProbeRound()));
        parts.addAll(StatusDigest.conditions(status.getConditions()));
        LatencyResult latency = status.getLatency();
        parts.add(latency == null ? null : Arrays.asList(latency.getPeer(), latency.getMeasuredAt(), latency.getRound(),
                latency.getObservedGeneration()));
        return parts;
    }

    /** Stamps {@code status} with its digest, as the operator writes it to {@code name}. */
    public static RdmaStorageNodeStatus stamp(String name, RdmaStorageNodeStatus status) {
        status.setDigest(of(name, status));
        return status;
    }

    /**
     * Whether the verdict's status is as the operator wrote it, by this digest or by the one of an
     * operator before the inventory was covered (a status stamped that way has no inventory digest
     * to break, so an edited inventory there counts until the next write); a verdict without a
     * status (being created) has nothing to distrust.
     */
    public static boolean matches(RdmaStorageNode verdict) {
        if (verdict == null || verdict.getStatus() == null) {
            return true;
        }
        String name = verdict.getMetadata().getName();
        String digest = verdict.getStatus().getDigest();
        return digest != null && (digest.equals(of(name, verdict.getStatus()))
                || digest.equals(withoutInventoryOf(name, verdict.getStatus())));
    }
}
