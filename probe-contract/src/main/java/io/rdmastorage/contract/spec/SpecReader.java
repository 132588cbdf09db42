package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.json.Json;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a spec document strictly into a validated {@link ProbeSpec}: unknown fields, wrong types
 * and broken rules are errors that name the field ("gpfs.verbsPorts[1]"). Defaults are not applied
 * here but in {@link ProbeSpec}'s records, so absent and null fields stay null until then. The
 * fields of each section are the components of its record in the contract: a new section or field
 * needs nothing here.
 */
public final class SpecReader {

    private SpecReader() {
    }

    public static ProbeSpec read(String json) throws InvalidSpecException {
        return SpecValidator.validate(readSections(ProbeSpec.class, json, "{\"gpfs\":{}}"));
    }

    /** The acceptance command's spec: the same rules of reading, the acceptance run's sections. */
    public static AcceptanceSpec readAcceptance(String json) throws InvalidSpecException {
        return readSections(AcceptanceSpec.class, json,
                "{\"nvmeof\":{\"nqn\":\"nqn.2014-08.org.example:target1\",\"address\":\"192.0.2.1\"}}").validate();
    }

    /** The verbs target's spec, for {@code acceptance-server} and {@code acceptance-client}. */
    public static VerbsAcceptanceSpec readVerbsAcceptance(String json) throws InvalidSpecException {
        return readSections(VerbsAcceptanceSpec.class, json, "{\"verbs\":{\"device\":\"mlx5_0\",\"port\":1}}").validate();
    }

    private static <T> T readSections(Class<T> type, String json, String example) throws InvalidSpecException {
        if (json.isBlank()) {
            throw new InvalidSpecException("spec", "is empty; give a JSON object such as " + example);
        }
        Object root;
        try {
            root = Json.parse(json);
        } catch (Json.JsonSyntaxException e) {
            throw new InvalidSpecException("spec", "is not valid JSON: " + e.getMessage());
        }
        return bind(type, Node.object("spec", root, fieldNames(type)), true);
    }

    /**
     * The record of type {@code type} from the object {@code node}, field by record component: the
     * component names are the allowed fields, their types say how each is read. Sections are
     * optional objects (absent or null = not checked); other fields stay null when absent, for the
     * records' defaults.
     */
    private static <T> T bind(Class<T> type, Node node, boolean sections) throws InvalidSpecException {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            values[i] = sections ? section(node, c) : field(node, c);
        }
        try {
            return type.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getSimpleName() + " from the spec", e);
        }
    }

    private static Object section(Node spec, RecordComponent c) throws InvalidSpecException {
        Class<?> type = c.getType();
        return spec.section(c.getName(), fieldNames(type)).map(s -> bind(type, s, false));
    }

    private static Object field(Node node, RecordComponent c) throws InvalidSpecException {
        String name = c.getName();
        Class<?> type = c.getType();
        if (type == String.class) {
            return node.string(name);
        }
        if (type == Boolean.class) {
            return node.bool(name);
        }
        if (type == Integer.class) {
            return node.integer(name);
        }
        if (type == Double.class) {
            return node.number(name);
        }
        if (type.isRecord()) {
            Section nested = node.section(name, fieldNames(type));
            return nested.map(n -> bind(type, n, false));
        }
        if (type == List.class && c.getGenericType() instanceof ParameterizedType list) {
            Type item = list.getActualTypeArguments()[0];
            if (item == String.class) {
                return node.strings(name);
            }
            if (item == Integer.class) {
                return node.integers(name);
            }
            if (item instanceof Class<?> record && record.isRecord()) {
                List<Object> items = new ArrayList<>();
                for (Node n : node.objects(name, fieldNames(record))) {
                    items.add(bind(record, n, false));
                }
                return items;
            }
        }
        throw new IllegalStateException("the spec model's field " + name + " has a type SpecReader cannot read: "
                + c.getGenericType());
    }

    private static String[] fieldNames(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).toArray(String[]::new);
    }

    /** A JSON object at a path, with typed, path-naming accessors. */
    private record Node(String path, Map<?, ?> fields) {

        static Node object(String path, Object value, String... allowed) throws InvalidSpecException {
            if (!(value instanceof Map<?, ?> map)) {
                throw new InvalidSpecException(path, "must be a JSON object, got " + kind(value));
            }
            Set<String> known = Set.of(allowed);
            for (Object key : map.keySet()) {
                if (!known.contains(key)) {
                    throw new InvalidSpecException(child(path, key.toString()),
                            "unknown field; allowed: " + String.join(", ", allowed));
                }
            }
            return new Node(path, map);
        }

        /** An optional sub-object; absent or null = the section is not checked. */
        Section section(String name, String... allowed) throws InvalidSpecException {
            Object value = fields.get(name);
            return new Section(value == null ? null : object(child(path, name), value, allowed));
        }

        String string(String name) throws InvalidSpecException {
            Object value = fields.get(name);
            if (value == null || value instanceof String) {
                return (String) value;
            }
            throw wrongType(name, "a string", value);
        }

        Boolean bool(String name) throws InvalidSpecException {
            Object value = fields.get(name);
            if (value == null || value instanceof Boolean) {
                return (Boolean) value;
            }
            throw wrongType(name, "true or false", value);
        }

        Integer integer(String name) throws InvalidSpecException {
            Object value = fields.get(name);
            if (value == null) {
                return null;
            }
            if (value instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
                return l.intValue();
            }
            throw wrongType(name, "a whole number", value);
        }

        Double number(String name) throws InvalidSpecException {
            Object value = fields.get(name);
            if (value == null || value instanceof Number) {
                return value == null ? null : ((Number) value).doubleValue();
            }
            throw wrongType(name, "a number", value);
        }

        List<String> strings(String name) throws InvalidSpecException {
            List<String> result = new ArrayList<>();
            List<?> list = list(name);
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof String s)) {
                    throw new InvalidSpecException(child(path, name) + "[" + i + "]", "must be a string, got " + kind(list.get(i)));
                }
                result.add(s);
            }
            return result;
        }

        List<Integer> integers(String name) throws InvalidSpecException {
            List<Integer> result = new ArrayList<>();
            List<?> list = list(name);
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE)) {
                    throw new InvalidSpecException(child(path, name) + "[" + i + "]", "must be a whole number, got " + kind(list.get(i)));
                }
                result.add(l.intValue());
            }
            return result;
        }

        List<Node> objects(String name, String... allowed) throws InvalidSpecException {
            List<Node> result = new ArrayList<>();
            List<?> list = list(name);
            for (int i = 0; i < list.size(); i++) {
                result.add(object(child(path, name) + "[" + i + "]", list.get(i), allowed));
            }
            return result;
        }

        private List<?> list(String name) throws InvalidSpecException {
            Object value = fields.get(name);
            if (value == null) {
                return List.of();
            }
            if (value instanceof List<?> list) {
                if (list.size() > SpecValidator.MAX_LIST) {
                    throw new InvalidSpecException(child(path, name),
                            "has " + list.size() + " entries; at most " + SpecValidator.MAX_LIST + " are allowed");
                }
                return list;
            }
            throw wrongType(name, "a list", value);
        }

        private InvalidSpecException wrongType(String name, String expected, Object value) {
            return new InvalidSpecException(child(path, name), "must be " + expected + ", got " + kind(value));
        }

        private static String child(String path, String name) {
            return path.equals("spec") ? name : path + "." + name;
        }

        private static String kind(Object value) {
            if (value == null) {
                return "null";
            }
            if (value instanceof String s) {
                return "the string " + Rules.show(s);
            }
            if (value instanceof Map) {
                return "an object";
            }
            if (value instanceof List) {
                return "a list";
            }
            return value.toString();
        }
    }

    /** A section that may be absent; maps to its record only when present. */
    private record Section(Node node) {
        <T> T map(Binder<T> binder) throws InvalidSpecException {
            return node == null ? null : binder.bind(node);
        }
    }

    @FunctionalInterface
    private interface Binder<T> {
        T bind(Node node) throws InvalidSpecException;
    }
}
