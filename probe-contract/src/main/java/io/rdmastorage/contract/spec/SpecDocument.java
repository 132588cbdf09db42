package io.rdmastorage.contract.spec;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spec record as the document {@link SpecReader} reads back: each component by its name, in its
 * order, nested records as objects, nulls left out. The document is derived from the record, so a
 * new section or field of a spec needs no writer code (the operator writes acceptance specs this way).
 */
public final class SpecDocument {

    private SpecDocument() {
    }

    /** The record's components as plain JSON values ({@link io.rdmastorage.contract.json.Json#write}). */
    public static Map<String, Object> of(Record record) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = c.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + record.getClass().getSimpleName() + "." + c.getName(), e);
            }
            if (value != null) {
                fields.put(c.getName(), value(value));
            }
        }
        return fields;
    }

    private static Object value(Object value) {
        if (value instanceof Record r) {
            return of(r);
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>(list.size());
            list.forEach(v -> items.add(v == null ? null : value(v)));
            return items;
        }
        return value;
    }
}
