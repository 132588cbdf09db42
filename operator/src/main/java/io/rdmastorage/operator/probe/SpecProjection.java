package io.rdmastorage.operator.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.operator.api.CheckSections;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spec document derived from a CRD bean: the components of one of the contract's spec records,
 * in their order, read from the bean's same-named properties, nulls left out. The bean's other
 * properties (the operator's own, such as a latency section's pairing or an acceptance run's node)
 * stay out because the record has no component for them. There is no field-by-field copy to keep
 * in step with the contract: a component the bean lacks fails here, naming it.
 */
public final class SpecProjection {

    /** Enum values by their JSON names ({@code @JsonProperty}), as the CRD has them. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private SpecProjection() {
    }

    /** The fields of {@code record} read from the same-named properties of {@code bean}. */
    public static Map<String, Object> project(Object bean, Class<?> record) {
        return project(bean, record, Map.of());
    }

    /**
     * As {@link #project(Object, Class)}, with the components that no property holds because the
     * operator works them out (a path run's file name, from the run's name) given in
     * {@code derived}, by their path in the document ({@code path.fileName}).
     */
    public static Map<String, Object> project(Object bean, Class<?> record, Map<String, ?> derived) {
        return project(bean, record, derived, "");
    }

    private static Map<String, Object> project(Object bean, Class<?> record, Map<String, ?> derived, String prefix) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (RecordComponent c : record.getRecordComponents()) {
            String path = prefix + c.getName();
            Object value = derived.containsKey(path) ? derived.get(path)
                    : CheckSections.get(CheckSections.getter(bean.getClass(), c.getName()), bean);
            if (value != null) {
                fields.put(c.getName(), value(value, c.getGenericType(), derived, path + "."));
            }
        }
        return fields;
    }

    /** A property value as node-probe's JSON writer takes it: whole numbers as longs, enums by their JSON name. */
    private static Object value(Object value, Type type, Map<String, ?> derived, String prefix) {
        if (value instanceof List<?> list && type instanceof ParameterizedType listType) {
            Type item = listType.getActualTypeArguments()[0];
            boolean records = item instanceof Class<?> c && c.isRecord();
            List<Object> items = new ArrayList<>(list.size());
            for (Object v : list) {
                // a null entry of a list of objects becomes an empty object, which node-probe refuses naming its fields
                items.add(v == null ? (records ? new LinkedHashMap<>() : null) : value(v, item, derived, prefix));
            }
            return items;
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            return project(value, c, derived, prefix);
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
