package io.rdmastorage.operator.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.operator.api.CheckSections;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.Sha256;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** Enum values by their JSON names ({@code @JsonProperty}), as the CRD has them. */
    private static final ObjectMapper JSON = new ObjectMapper();

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
            doc.put(type.section(), project(CheckSections.section(p, type), ProbeSpec.sectionType(type.section())));
        }
        return doc;
    }

    /** The fields of {@code record} read from the same-named properties of {@code bean}, nulls left out. */
    private static Map<String, Object> project(Object bean, Class<?> record) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (RecordComponent c : record.getRecordComponents()) {
            Object value = CheckSections.get(CheckSections.getter(bean.getClass(), c.getName()), bean);
            if (value != null) {
                fields.put(c.getName(), value(value, c.getGenericType()));
            }
        }
        return fields;
    }

    /** A property value as node-probe's JSON writer takes it: whole numbers as longs, enums by their JSON name. */
    private static Object value(Object value, Type type) {
        if (value instanceof List<?> list && type instanceof ParameterizedType listType) {
            Type item = listType.getActualTypeArguments()[0];
            boolean records = item instanceof Class<?> c && c.isRecord();
            List<Object> items = new ArrayList<>(list.size());
            for (Object v : list) {
                // a null entry of a list of objects becomes an empty object, which node-probe refuses naming its fields
                items.add(v == null ? (records ? new LinkedHashMap<>() : null) : value(v, item));
            }
            return items;
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            return project(value, c);
        }
        if (value instanceof Enum<?> e) {
            return JSON.convertValue(e, String.class);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            return ((Number) value).longValue();
        }
        return value;
    }
}
