package io.rdmastorage.operator.probe;

import io.rdmastorage.operator.api.GdsCheckSpec;
import io.rdmastorage.operator.api.GdsFilesystem;
import io.rdmastorage.operator.api.GpfsCheckSpec;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.NvmeofCheckSpec;
import io.rdmastorage.operator.api.NvmeofTarget;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.Sha256;
import io.rdmastorage.probe.json.Json;
import io.rdmastorage.probe.spec.InvalidSpecException;
import io.rdmastorage.probe.spec.ProbeSpec;
import io.rdmastorage.probe.spec.SpecReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node-probe {@code --spec} document of a profile: its check sections {@code rdma}, {@code gpfs},
 * {@code nvmeof}, {@code gds}, {@code latency} and {@code ceph}, with node-probe's field names (the
 * profile's own), nulls left out, in a fixed order, so the same spec always gives the same bytes
 * and hash. The node's own probe ignores {@code latency} (its check needs a peer); the latency pods
 * read it. The operator's own latency fields (referenceNodeSelector, addressType) stay out: they
 * are about pairing, not about the measurement.
 *
 * <p>The document is read back with node-probe's own {@link SpecReader} before it is used, so the
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

    private static Map<String, Object> sections(RdmaStorageProfileSpec p) {
        Map<String, Object> doc = new LinkedHashMap<>();
        if (p.getRdma() != null) {
            RdmaCheckSpec rdma = p.getRdma();
            Map<String, Object> s = new LinkedHashMap<>();
            put(s, "devices", rdma.getDevices());
            put(s, "userspaceVerbs", rdma.getUserspaceVerbs());
            doc.put("rdma", s);
        }
        if (p.getGpfs() != null) {
            GpfsCheckSpec gpfs = p.getGpfs();
            Map<String, Object> s = new LinkedHashMap<>();
            put(s, "verbsPorts", gpfs.getVerbsPorts());
            put(s, "requiredPeers", gpfs.getRequiredPeers());
            put(s, "requireVerbsRdmaSend", gpfs.getRequireVerbsRdmaSend());
            put(s, "minPagepool", gpfs.getMinPagepool());
            doc.put("gpfs", s);
        }
        if (p.getNvmeof() != null) {
            NvmeofCheckSpec nvmeof = p.getNvmeof();
            Map<String, Object> s = new LinkedHashMap<>();
            if (nvmeof.getTargets() != null) {
                List<Object> targets = new ArrayList<>();
                for (NvmeofTarget t : nvmeof.getTargets()) {
                    Map<String, Object> target = new LinkedHashMap<>();
                    if (t != null) {
                        put(target, "nqn", t.getNqn());
                        put(target, "address", t.getAddress());
                        put(target, "port", t.getPort() == null ? null : t.getPort().longValue());
                    }
                    targets.add(target);
                }
                s.put("targets", targets);
            }
            doc.put("nvmeof", s);
        }
        if (p.getGds() != null) {
            GdsCheckSpec gds = p.getGds();
            Map<String, Object> s = new LinkedHashMap<>();
            if (gds.getFilesystems() != null) {
                List<Object> filesystems = new ArrayList<>();
                for (GdsFilesystem fs : gds.getFilesystems()) {
                    filesystems.add(fs == null ? null : fs.value());
                }
                s.put("filesystems", filesystems);
            }
            put(s, "requireIommuDisabled", gds.getRequireIommuDisabled());
            put(s, "requireNicGpuSameSwitch", gds.getRequireNicGpuSameSwitch());
            put(s, "forbidCompatMode", gds.getForbidCompatMode());
            doc.put("gds", s);
        }
        if (p.getLatency() != null) {
            LatencyCheckSpec latency = p.getLatency();
            Map<String, Object> s = new LinkedHashMap<>();
            put(s, "device", latency.getDevice());
            put(s, "port", latency.getPort() == null ? null : latency.getPort().longValue());
            put(s, "size", latency.getSize() == null ? null : latency.getSize().longValue());
            put(s, "iterations", latency.getIterations() == null ? null : latency.getIterations().longValue());
            put(s, "maxTypicalMicros", latency.getMaxTypicalMicros());
            put(s, "transportComparison", latency.getTransportComparison());
            doc.put("latency", s);
        }
        if (p.getCeph() != null) {
            doc.put("ceph", new LinkedHashMap<>());
        }
        return doc;
    }

    private static void put(Map<String, Object> section, String field, Object value) {
        if (value != null) {
            section.put(field, value);
        }
    }
}
