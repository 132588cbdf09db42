package io.rdmastorage.operator.probe;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.operator.api.CheckSections;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.Sha256;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node-probe {@code --spec} document of a profile: its check sections ({@code rdma}, {@code gpfs},
 * ...: the contract's {@link ProbeSpec}), with node-probe's field names (the profile's own), nulls
 * left out, in the contract's order, so the same spec always gives the same bytes
 * and hash. The node's own probe ignores {@code latency} (its check needs a peer); the latency pods
 * read it. The operator's own latency fields (referenceNodeSelector, addressType) stay out: they
 * are about pairing, not about the measurement.
 *
 * <p>The document is read back with the contract's {@link SpecReader} (node-probe's own reader) before it is used, so the
 * operator and the probe agree on every rule, and a value that slipped past the CRD schema is
 * refused here rather than in a privileged pod.
 *
 * @param json   the compact JSON document for the pod's ConfigMap
 * @param spec   the same document as node-probe reads it (validated)
 * @param sha256 hex SHA-256 of {@code json}, to show a spec change on the ConfigMap
 */
public record ProbeSpecDocument(String json, ProbeSpec spec, String sha256) {

    /** Builds and validates the document of a profile's spec. */
    public static ProbeSpecDocument of(RdmaStorageProfileSpec profile) throws InvalidProbeSpecException {
        String json = Json.write(sections(profile));
        try {
            return new ProbeSpecDocument(json, SpecReader.read(json), Sha256.hex(json));
        } catch (InvalidSpecException e) {
            String prefix = e.field() + ": ";
            String rule = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
            throw new InvalidProbeSpecException(e.field(), rule);
        }
    }

    /** No check section at all: node-probe would run no check and report nothing. */
    public boolean checksNothing() {
        return spec.isEmpty();
    }

    /**
     * The document: each check section of the profile, projected onto its record in the contract's
     * spec model: the record's components, in their order, are the fields written; the profile's
     * other fields ({@link io.rdmastorage.operator.api.OperatorOnly}) stay out.
     */
    private static Map<String, Object> sections(RdmaStorageProfileSpec p) {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (CheckType type : CheckSections.present(p)) {
            doc.put(type.section(), SpecProjection.project(CheckSections.section(p, type), ProbeSpec.sectionType(type.section())));
        }
        return doc;
    }
}
