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
 * Who measures a condition type of a node's verdict: the contract's {@link Measurement} of each
 * check, with what the operator does for that kind. Each check type belongs to exactly one kind,
 * and each kind writes only its own part of the verdict (its conditions and the facts behind them),
 * so merging a status never asks which check a condition is: a kind's part is kept as stored while
 * another kind writes.
 * <ul>
 * <li>{@link #NODE_PROBE}: the node's own probe pod, every check node-probe runs on one node;</li>
 * <li>{@link #PAIR_PROBE}: a pair of probe pods on two nodes (verbs latency), see the latency package.</li>
 * </ul>
 */
public enum MeasurementKind {

    NODE_PROBE(Measurement.NODE_PROBE, Reasons.AWAITING_PROBE, "not probed yet: the node's probe pod has not reported"),
    PAIR_PROBE(Measurement.PAIR_PROBE, Reasons.AWAITING_MEASUREMENT,
            "waiting for the first verbs latency measurement against a peer node (a latency-server pod on the peer, "
                    + "then a latency-client pod here)");

    private final List<String> types;
    private final String placeholderReason;
    private final String placeholderMessage;

    MeasurementKind(Measurement measurement, String placeholderReason, String placeholderMessage) {
        this.types = CheckType.measuredBy(measurement).stream().map(CheckType::conditionType).toList();
        this.placeholderReason = placeholderReason;
        this.placeholderMessage = placeholderMessage;
    }

    /** The kind that measures {@code type}: the node's own probe unless another kind claims it. */
    public static MeasurementKind of(String type) {
        for (MeasurementKind kind : values()) {
            if (kind.types.contains(type)) {
                return kind;
            }
        }
        return NODE_PROBE;
    }

    /** The condition types this kind measures, in {@link CheckTypes#ALL} order. */
    public List<String> types() {
        return types;
    }

    public boolean owns(String type) {
        return of(type) == this;
    }

    /** The condition of one of this kind's types before its first measurement: Unknown, never True. */
    public Condition placeholder(String type, long generation, Instant at) {
        return Conditions.of(type, Conditions.UNKNOWN, placeholderReason, placeholderMessage, generation, at);
    }

    /** Whether {@code c} only stands in for a measurement of this kind that has not happened yet. */
    public boolean isPlaceholder(Condition c) {
        return placeholderReason.equals(c.getReason());
    }

    /** Copies the facts behind this kind's conditions from one status to another. */
    public void copyFacts(RdmaStorageNodeStatus from, RdmaStorageNodeStatus to) {
        switch (this) {
            case NODE_PROBE -> {
                to.setLastProbeTime(from.getLastProbeTime());
                to.setProbePod(from.getProbePod());
                to.setProbeRound(from.getProbeRound());
                to.setProbeDurationMillis(from.getProbeDurationMillis());
                to.setProbeVersion(from.getProbeVersion());
                to.setDetails(from.getDetails() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(from.getDetails()));
                to.setInventory(from.getInventory() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(from.getInventory()));
            }
            case PAIR_PROBE -> to.setLatency(from.getLatency());
        }
    }
}
