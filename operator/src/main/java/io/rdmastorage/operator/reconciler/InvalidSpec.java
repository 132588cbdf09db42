package io.rdmastorage.operator.reconciler;

import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.probe.InvalidProbeSpecException;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.verdict.CheckTypes;
import java.time.Instant;
import java.util.List;

/**
 * The status of a profile whose checks node-probe would refuse: a value the CRD schema let through
 * (an older CRD, a rule only the probe knows). Nothing is probed; Ready says which field to fix.
 */
final class InvalidSpec {

    static final String REASON = "InvalidSpec";

    private InvalidSpec() {
    }

    static RdmaStorageProfileStatus status(RdmaStorageProfile profile, InvalidProbeSpecException e, Instant now) {
        long generation = profile.getMetadata().getGeneration();
        RdmaStorageProfileStatus status = new RdmaStorageProfileStatus();
        status.setObservedGeneration(generation);
        status.setNodes(profile.getStatus() == null ? null : profile.getStatus().getNodes());
        status.setConditions(Conditions.merge(profile.getStatus() == null ? null : profile.getStatus().getConditions(),
                List.of(Conditions.of(CheckTypes.READY, Conditions.FALSE, REASON,
                        "spec." + e.getMessage() + "; fix the profile, nothing is probed until then", generation, now)),
                now, generation));
        return status;
    }
}
