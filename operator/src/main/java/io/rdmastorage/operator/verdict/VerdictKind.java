package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.measurement.MeasurementKind;
import java.time.Instant;

/**
 * A kind of measurement whose result is a part of a node's verdict ({@link VerdictPart}): the node's
 * own probe and the latency pair. Besides reading its result for the lifecycle, it writes that part
 * as expired, which is what a failed reconcile still does for every kind.
 */
public interface VerdictKind extends MeasurementKind<RdmaStorageNodeStatus> {

    /** The profile's settings, whose interval and expiry every kind of a profile measures by. */
    ProfileSettings settings();

    /** A round every interval of the profile, a result that counts for its expiry. */
    @Override
    default Lifecycle.Schedule schedule() {
        return settings().schedule();
    }

    /** The part of the verdict this kind writes. */
    VerdictPart part();

    /**
     * {@code status} with this kind's part written as Unknown ResultExpired, every other part as it
     * is; pass only a status whose result {@link Lifecycle#toExpire} says is due to expire.
     */
    RdmaStorageNodeStatus expire(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus status, Instant now);
}
