package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an acceptance run measures, one type per target (the spec's {@code nvmeof}, {@code path} or
 * {@code verbs} section): its name (metrics, one place), its TARGET column, and the nodes it
 * measures on. Adding a target is one implementation here, its CRD section and node-probe's side:
 * docs/adding-an-acceptance-target.md.
 */
sealed interface AcceptanceTarget permits NvmeofSubsystem, PathDirectory, VerbsPeer {

    /** Every target's name, in the order the interface permits them: the metrics' {@code target} label values. */
    List<String> NAMES = Arrays.stream(AcceptanceTarget.class.getPermittedSubclasses()).map(AcceptanceTarget::nameOf).toList();

    /** The spec's target; empty when it names none (the CRD requires one). */
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

    private static String nameOf(Class<?> target) {
        try {
            return (String) target.getField("NAME").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(target.getSimpleName() + " needs a public static NAME", e);
        }
    }
}
