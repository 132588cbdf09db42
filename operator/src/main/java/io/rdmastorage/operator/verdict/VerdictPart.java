package io.rdmastorage.operator.verdict;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A measurement kind's part of a node's verdict: the condition types it measures (the contract's
 * {@link Measurement} of each check) and the facts behind them. Each check type belongs to exactly
 * one part, and each kind writes only its own part, so merging a status never asks which check a
 * condition is: a part is kept as stored while another kind writes. The kind itself (its schedule,
 * how its result reads, how it expires) is {@link VerdictKind}.
 * <ul>
 * <li>{@link #NODE_PROBE}: the node's own probe pod, every check node-probe runs on one node;</li>
 * <li>{@link #PAIR_PROBE}: a pair of probe pods on two nodes (verbs latency), see the latency package.</li>
 * </ul>
 */
public enum VerdictPart {

    NODE_PROBE(Measurement.NODE_PROBE, Reasons.AWAITING_PROBE, "not probed yet: the node's probe pod has not reported") {
        @Override
        public void copyFacts(RdmaStorageNodeStatus from, RdmaStorageNodeStatus to) {
            to.setLastProbeTime(from.getLastProbeTime());
            to.setProbePod(from.getProbePod());
            to.setProbeRound(from.getProbeRound());
            to.setProbeDurationMillis(from.getProbeDurationMillis());
            to.setProbeVersion(from.getProbeVersion());
            to.setDetails(from.getDetails() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(from.getDetails()));
            to.setInventory(from.getInventory() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(from.getInventory()));
        }
    },
    PAIR_PROBE(Measurement.PAIR_PROBE, Reasons.AWAITING_MEASUREMENT,
            "waiting for the first verbs latency measurement against a peer node (a latency-server pod on the peer, "
                    + "then a latency-client pod here)") {
        @Override
        public void copyFacts(RdmaStorageNodeStatus from, RdmaStorageNodeStatus to) {
            to.setLatency(from.getLatency());
        }
    };

    private final List<String> types;
    private final String placeholderReason;
    private final String placeholderMessage;

    VerdictPart(Measurement measurement, String placeholderReason, String placeholderMessage) {
        this.types = CheckType.measuredBy(measurement).stream().map(CheckType::conditionType).toList();
        this.placeholderReason = placeholderReason;
        this.placeholderMessage = placeholderMessage;
    }

    /** The part that holds {@code type}: the node's own probe's unless another part claims it. */
    public static VerdictPart of(String type) {
        for (VerdictPart part : values()) {
            if (part.types.contains(type)) {
                return part;
            }
        }
        return NODE_PROBE;
    }

    /** The condition types of this part, in {@link CheckTypes#ALL} order. */
    public List<String> types() {
        return types;
    }

    public boolean owns(String type) {
        return of(type) == this;
    }

    /** The condition of one of this part's types before its first measurement: Unknown, never True. */
    public Condition placeholder(String type, long generation, Instant at) {
        return Conditions.of(type, Conditions.UNKNOWN, placeholderReason, placeholderMessage, generation, at);
    }

    /** Whether {@code c} only stands in for a measurement of this part that has not happened yet. */
    public boolean isPlaceholder(Condition c) {
        return placeholderReason.equals(c.getReason());
    }

    /** Copies the facts behind this part's conditions from one status to another. */
    public abstract void copyFacts(RdmaStorageNodeStatus from, RdmaStorageNodeStatus to);
}
