package io.rdmastorage.operator.acceptance;

import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.SpecDocument;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.probe.SpecProjection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * An acceptance run's spec as node-probe reads it: the contract's record of its target
 * ({@link AcceptanceSpec} for the {@code acceptance} command, {@link VerbsAcceptanceSpec} for the
 * verbs commands), derived from the run's spec and validated by the contract's rules here too, so a
 * value the CRD schema let through by mistake never reaches the privileged pod. Also what the run
 * takes: its deadline, and what it measures in words. Its target ({@link AcceptanceTarget#document})
 * makes it.
 *
 * @param target   the target it was derived for
 * @param contract the document as node-probe reads it, defaults applied
 * @param json     the document for the run's spec ConfigMap
 * @param deadline how long the whole run may take
 * @param what     what the run measures, for its conditions
 */
public record AcceptanceSpecDocument(AcceptanceTarget target, Record contract, String json, Duration deadline, String what) {

    /** Per transport: connecting, the namespace scan, fio's start and exit for three workloads. */
    static final Duration PER_TRANSPORT_OVERHEAD = Duration.ofSeconds(60);
    /** Once per run: pulling the image, starting the pod and the JVM. */
    static final Duration START_OVERHEAD = Duration.ofSeconds(120);
    /** The contract's component for the admin's bounds ({@link AcceptanceSpec#bounds}). */
    static final String BOUNDS = "bounds";

    /** How node-probe reads a document: strictly, then by the contract's rules ({@code SpecReader}). */
    @FunctionalInterface
    interface Reader<T extends Record> {
        T read(String json) throws InvalidSpecException;
    }

    public static AcceptanceSpecDocument of(RdmaStorageAcceptanceSpec spec) throws InvalidSpecException {
        return of(spec, null);
    }

    /** @param runName the run's name, which names a path run's file (null: no path target allowed) */
    public static AcceptanceSpecDocument of(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException {
        AcceptanceTarget target = AcceptanceTarget.of(spec).orElseThrow(
                () -> new InvalidSpecException("nvmeof", "is required: the target to measure (or path: a directory)"));
        return target.document(spec, runName);
    }

    /**
     * The contract's {@code record} of {@code spec}: its components projected from the spec's
     * same-named properties ({@link SpecProjection}; {@code derived}: those the operator works out),
     * then read as node-probe reads it, so both agree on every rule and default.
     */
    static <T extends Record> T derive(RdmaStorageAcceptanceSpec spec, Class<T> record, Map<String, ?> derived,
                                       Reader<T> reader) throws InvalidSpecException {
        Map<String, Object> operators = new HashMap<>(derived);
        if (record == AcceptanceSpec.class) {
            // the admin's bounds are the operator's configuration, not the run's: bounded() adds them
            operators.putIfAbsent(BOUNDS, null);
        }
        return reader.read(Json.write(SpecProjection.project(spec, record, operators)));
    }

    /** The document of {@code contract}: written from the validated record, so node-probe reads back the same record. */
    static AcceptanceSpecDocument of(AcceptanceTarget target, Record contract, RdmaStorageAcceptanceSpec spec,
                                     Duration estimate, String what) {
        Duration deadline = spec.getTimeoutSeconds() != null ? Duration.ofSeconds(spec.getTimeoutSeconds()) : estimate;
        return new AcceptanceSpecDocument(target, contract, Json.write(SpecDocument.of(contract)), deadline, what);
    }

    /** The three fio workloads' durations, one after the other, on one transport. */
    static Duration workloads(AcceptanceSpec spec) {
        return Duration.ofSeconds(spec.workloadSeconds());
    }

    /**
     * The document the pod reads: this one with the admin's bounds in it, which node-probe checks
     * again on the node ({@link AcceptanceSpec.Bounds}); the verbs commands' document is unchanged.
     */
    AcceptanceSpecDocument bounded(AcceptanceSpec.Bounds bounds) {
        AcceptanceSpec spec = spec();
        if (spec == null) {
            return this;
        }
        AcceptanceSpec within = spec.withBounds(bounds);
        return new AcceptanceSpecDocument(target, within, Json.write(SpecDocument.of(within)), deadline, what);
    }

    /** The {@code acceptance} command's document (an NVMe-oF or a path target's); null for the verbs target's. */
    public AcceptanceSpec spec() {
        return contract instanceof AcceptanceSpec spec ? spec : null;
    }

    /** The verbs commands' document; null for the other targets'. */
    public VerbsAcceptanceSpec verbs() {
        return contract instanceof VerbsAcceptanceSpec verbs ? verbs : null;
    }

    /** Whether node-probe's verbs commands read this document (the verbs target's two pods). */
    public boolean isVerbs() {
        return verbs() != null;
    }
}
