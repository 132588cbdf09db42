package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an acceptance run measures, one type per target (the spec's {@code nvmeof}, {@code path} or
 * {@code verbs} section), and everything about a run that depends on it: its name (metrics, one
 * place), its TARGET column, the nodes it measures on, its spec document, its pods, how its rows
 * are judged and its record. The planner ({@link AcceptancePlanner}) asks the target and never
 * which target it is. The defaults are those of a target measured on the run's node alone.
 * Adding a target is one implementation here, its CRD section and node-probe's side:
 * docs/adding-an-acceptance-target.md.
 */
sealed interface AcceptanceTarget permits NvmeofSubsystem, PathDirectory, VerbsPeer {

    /** Every target's name, in the order the interface permits them: the metrics' {@code target} label values. */
    List<String> NAMES = Arrays.stream(AcceptanceTarget.class.getPermittedSubclasses()).map(AcceptanceTarget::nameOf).toList();

    /** The spec's target; empty when it names none (the CRD requires exactly one). */
    static Optional<AcceptanceTarget> of(RdmaStorageAcceptanceSpec spec) {
        if (spec == null) {
            return Optional.empty();
        }
        if (spec.getPath() != null) {
            return Optional.of(new PathDirectory(spec.getPath()));
        }
        if (spec.getNvmeof() != null) {
            return Optional.of(new NvmeofSubsystem(spec.getNvmeof()));
        }
        return spec.getVerbs() == null ? Optional.empty() : Optional.of(new VerbsPeer(spec.getVerbs()));
    }

    /** The spec's target as metrics name it; {@code none} without one. */
    static String name(RdmaStorageAcceptanceSpec spec) {
        return of(spec).map(AcceptanceTarget::name).orElse("none");
    }

    /** The section's name in the spec, and the target's in metrics: nvmeof, path, verbs. */
    String name();

    /** What kubectl's TARGET column shows: the subsystem, the directory, or the verbs device and the peer. */
    String column();

    /** The nodes a run with this target measures on, besides its own node. */
    default Set<String> otherNodes() {
        return Set.of();
    }

    /**
     * The run's spec as node-probe reads it for this target ({@link AcceptanceSpecDocument#derive}),
     * its deadline and what it measures.
     *
     * @param runName the run's name (null where a target needs it: a path run's file is named by it)
     */
    AcceptanceSpecDocument document(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException;

    /** Why a node the run needs besides its own cannot be measured on; empty when {@code nodes} hold all it needs. */
    default Optional<String> missingNode(Map<String, Node> nodes) {
        return Optional.empty();
    }

    /** Why the run cannot measure what its spec asks, checked once its nodes are free; empty when it can. */
    default Optional<String> refusal(AcceptanceSnapshot snapshot) {
        return Optional.empty();
    }

    /**
     * What a run with this target changes on its node, recorded in {@code status.pendingCleanup}
     * before its pod exists (the record's node is set by the caller); empty when it changes nothing
     * there. The run's journal, its cleanup pod and the node hold follow from it.
     */
    default Optional<AcceptancePendingCleanup> changes(AcceptanceSpecDocument document) {
        return Optional.empty();
    }

    /** The one host directory the run's pods (and its cleanup pod) may write, besides the journal; empty for none. */
    default Optional<String> writableDirectory(AcceptanceSpecDocument document) {
        return Optional.empty();
    }

    /**
     * Why the document is outside what the admin's bounds let node-probe do (the directory's prefix,
     * the file's size, the NVMe-oF target, the workloads' time), as node-probe checks again on the
     * node; empty when it is inside, or the target's commands have no such bounds.
     */
    default Optional<String> outside(AcceptanceSpec.Bounds bounds, AcceptanceSpecDocument document) {
        return Optional.empty();
    }

    /** Whether a run with this target may connect to the storage the profiles name: its snapshot then reads their targets. */
    default boolean connectsToProfileTargets() {
        return false;
    }

    /** The pods that measure, created together ({@link AcceptancePods#pod}: node-probe's acceptance command on the run's node). */
    List<Pod> pods(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes, OperatorConfig config);

    /** What the Running condition says is measured, and where. */
    default String measuring(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes) {
        return document.what() + " on " + run.getSpec().getNodeName();
    }

    /** Every pod of a run by name, to delete: the run's pod ({@link AcceptancePods#podName}). */
    default List<String> podNames(RdmaStorageAcceptance run) {
        return List.of(AcceptancePods.podName(run));
    }

    /** While the run's pod measures: why the run must end now because of another of its pods; empty when nothing has failed. */
    default Optional<String> failure(Set<Pod> pods, RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                     Instant now, Duration deadline) {
        return Optional.empty();
    }

    /** The rows the record and the status show, and RdmaEffective on them, from the rows the pod reported. */
    Table judge(AcceptanceSnapshot snapshot, List<AcceptanceTransportResult> reported, double minLatencyRatio);

    /** The rows shown (those reported, and any an earlier run adds) and the verdict on them. */
    record Table(List<AcceptanceTransportResult> rows, RdmaEffectiveness.Ruling ruling) {
    }

    /** The Complete condition's message when the run measured all it should: each transport and what measured it. */
    default String measured(AcceptanceResult result) {
        // the verbs target has no controller: its device (rxe0/1, TCP to 10.0.0.2) says what was measured
        List<String> transports = result.transports().stream().map(t -> t.getTransport() + " ("
                + (t.getController() == null || t.getController().isEmpty() ? t.getDevice() : t.getController()) + ")").toList();
        return "every transport measured by itself: " + String.join(", ", transports)
                + (result.disconnected().isEmpty() ? "" : "; connected and disconnected again: "
                + String.join(", ", result.disconnected()));
    }

    /** The run's Markdown record ({@link AcceptanceMarkdown#KEY}). */
    String markdown(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                    RdmaEffectiveness.Ruling ruling);

    private static String nameOf(Class<?> target) {
        try {
            return (String) target.getField("NAME").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(target.getSimpleName() + " needs a public static NAME", e);
        }
    }
}
