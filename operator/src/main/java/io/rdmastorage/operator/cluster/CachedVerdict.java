package io.rdmastorage.operator.cluster;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;

/**
 * What the operator keeps of an RdmaStorageNode, in its informer cache and as a reconcile's
 * writes return it: all of it, for its status is read whole (the digest covers the conditions,
 * probe round and inventory; a write carries the other checks' details and the latency result
 * over; the metrics read the traffic facts), but with the texts that every node's verdict repeats
 * held once ({@link SharedTexts}): the condition messages and reasons, the facts, the inventory,
 * the labels and the owner. What is left per node is its name, times and the objects around them.
 */
public final class CachedVerdict {

    private CachedVerdict() {
    }

    /** {@code verdict} itself, its repeated texts replaced by shared equal ones. */
    public static RdmaStorageNode trim(RdmaStorageNode verdict) {
        if (verdict.getMetadata() != null) {
            SharedTexts.values(verdict.getMetadata().getLabels());
            if (verdict.getMetadata().getOwnerReferences() != null) {
                for (OwnerReference owner : verdict.getMetadata().getOwnerReferences()) {
                    owner.setApiVersion(SharedTexts.of(owner.getApiVersion()));
                    owner.setKind(SharedTexts.of(owner.getKind()));
                    owner.setName(SharedTexts.of(owner.getName()));
                    owner.setUid(SharedTexts.of(owner.getUid()));
                }
            }
        }
        if (verdict.getSpec() != null) {
            verdict.getSpec().setProfile(SharedTexts.of(verdict.getSpec().getProfile()));
        }
        RdmaStorageNodeStatus status = verdict.getStatus();
        if (status != null) {
            SharedTexts.conditions(status.getConditions());
            if (status.getDetails() != null) {
                status.getDetails().replaceAll((check, facts) -> SharedTexts.json(facts));
            }
            SharedTexts.values(status.getInventory());
            status.setLastProbeTime(SharedTexts.of(status.getLastProbeTime()));
            status.setProbeVersion(SharedTexts.of(status.getProbeVersion()));
        }
        return verdict;
    }
}
