package io.rdmastorage.operator.probe;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.Optional;

/**
 * What the next probe pod of a node gets to compare its port error counters with: the previous
 * round's reading, which the probe wrote into its RdmaPortErrors details ({@code baseline}) and the
 * verdict keeps. The operator only carries it: the probe judges. A reading the contract's reader
 * refuses is not handed over (the probe then takes a new baseline and says so).
 */
public final class CounterBaselineHandover {

    /** node-probe's option that takes the document. */
    public static final String OPTION = "--counter-baseline";

    private CounterBaselineHandover() {
    }

    /**
     * The baseline document for the node's next probe; empty when the profile has no portErrors
     * section, or the verdict holds no reading (a first round, a failed or edited one).
     *
     * @param status the node's verdict as the plan leaves it; may be null
     */
    public static Optional<String> of(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus status) {
        return spec.getPortErrors() == null ? Optional.empty() : reading(status);
    }

    /**
     * The counter reading the verdict holds, as the contract writes it (one spelling whatever the
     * API server did to its whitespace or numbers); empty when it holds none, or none the reader accepts.
     */
    public static Optional<String> reading(RdmaStorageNodeStatus status) {
        if (status == null || status.getDetails() == null) {
            return Optional.empty();
        }
        JsonNode details = status.getDetails().get(CheckType.RDMA_PORT_ERRORS.conditionType());
        JsonNode baseline = details == null ? null : details.get(RdmaPortErrors.BASELINE_DETAIL);
        if (baseline == null || !baseline.isObject()) {
            return Optional.empty();
        }
        try {
            return Optional.of(CounterBaseline.read(baseline.toString()).json());
        } catch (InvalidSpecException e) {
            return Optional.empty();
        }
    }
}
