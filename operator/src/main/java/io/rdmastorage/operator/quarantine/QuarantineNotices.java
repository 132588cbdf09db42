package io.rdmastorage.operator.quarantine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.events.EventWriter;
import java.util.Map;

/**
 * What a converge is told as: an Event on the node's RdmaStorageNode per rule written or deleted
 * (naming the rule), a Warning when a faulty device could not be fenced (why, and that the node's
 * own marking applies instead), and counters of both.
 */
public final class QuarantineNotices {

    /** Rules created or brought in line ({@code action=written}) and deleted ({@code action=deleted}). */
    public static final String RULE_WRITES = "rdmastorage.device.taint.rule.writes";
    /** Faulty devices left without a rule, by why: each is a node marked instead of a device. */
    public static final String UNFENCED = "rdmastorage.device.taint.unfenced";
    public static final String TAINTED = "DeviceTainted";
    public static final String UNTAINTED = "DeviceTaintRemoved";
    public static final String UNAVAILABLE = "DeviceTaintUnavailable";

    private final EventWriter events;
    private final MeterRegistry registry;

    public QuarantineNotices(EventWriter events, MeterRegistry registry) {
        this.events = events;
        this.registry = registry;
    }

    /**
     * @param verdictChanged whether the verdict's conditions changed with this write: the Warning
     *                       for an unfenced device is said once per change, not every round
     */
    public void tell(String profile, RdmaStorageNode verdict, DeviceQuarantine.Outcome outcome, boolean verdictChanged) {
        count(profile, "written", outcome.created().size());
        count(profile, "deleted", outcome.deleted().size());
        if (verdict != null) {
            for (String rule : outcome.created()) {
                events.record(verdict, "Warning", TAINTED, "DeviceTaintRule " + rule + " taints " + fencedDevice(outcome, rule)
                        + (outcome.dryRun() ? " (effect None: a dry run, nothing is kept from the device)" : ""));
            }
            for (String rule : outcome.deleted()) {
                events.record(verdict, "Normal", UNTAINTED, "DeviceTaintRule " + rule + " deleted: the device's checks no "
                        + "longer find it faulty");
            }
        }
        outcome.unfenced().forEach((device, why) -> {
            Counter.builder(UNFENCED).description("Faulty RDMA devices left without a DeviceTaintRule, by why")
                    .tag("profile", profile).tag("reason", why.name()).register(registry).increment();
            if (verdict != null && verdictChanged) {
                events.record(verdict, "Warning", UNAVAILABLE, device + " is faulty but not fenced: " + explain(why)
                        + "; the node's own marking (taintNotReady) applies instead");
            }
        });
    }

    private void count(String profile, String action, int n) {
        if (n > 0) {
            Counter.builder(RULE_WRITES).description("DeviceTaintRules the operator wrote or deleted")
                    .tag("profile", profile).tag("action", action).register(registry).increment(n);
        }
    }

    private static String fencedDevice(DeviceQuarantine.Outcome outcome, String rule) {
        return outcome.fenced().entrySet().stream().filter(e -> e.getValue().contains(rule)).map(Map.Entry::getKey)
                .findFirst().orElse("a faulty device");
    }

    static String explain(DeviceQuarantine.Unfenced why) {
        return switch (why) {
            case NoDeviceTaintApi -> "the cluster serves no DeviceTaintRule API (resource.k8s.io v1, v1beta2 or v1alpha3 "
                    + "with the DRADeviceTaints feature gate)";
            case NoneEffectUnsupported -> "effect None (a dry run) needs Kubernetes 1.35 or later";
            case NotPublished -> "no configured DRA driver publishes it in the node's ResourceSlices (deviceTaints.drivers)";
            case NameTaken -> "a DeviceTaintRule of the name the operator would use exists and is not the operator's";
        };
    }
}
