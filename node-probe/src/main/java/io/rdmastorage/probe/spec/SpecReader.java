package io.rdmastorage.probe.spec;

import io.rdmastorage.probe.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a spec document strictly into a validated {@link ProbeSpec}: unknown fields, wrong types
 * and broken rules are errors that name the field ("gpfs.verbsPorts[1]"). Defaults are not applied
 * here but in {@link ProbeSpec}'s records, so absent and null fields stay null until then.
 */
public final class SpecReader {

    private SpecReader() {
    }

    public static ProbeSpec read(String json) throws InvalidSpecException {
        if (json.isBlank()) {
            throw new InvalidSpecException("spec", "is empty; give a JSON object such as {\"gpfs\":{}}");
        }
        Object root;
        try {
            root = Json.parse(json);
        } catch (Json.JsonSyntaxException e) {
            throw new InvalidSpecException("spec", "is not valid JSON: " + e.getMessage());
        }
        Node spec = Node.object("spec", root, "rdma", "gpfs", "nvmeof", "gds", "latency", "ceph");
        return SpecValidator.validate(new ProbeSpec(
                spec.section("rdma", "devices", "userspaceVerbs")
                        .map(s -> new ProbeSpec.Rdma(s.strings("devices"), s.bool("userspaceVerbs"))),
                spec.section("gpfs", "verbsPorts", "requiredPeers", "requireVerbsRdmaSend", "minPagepool")
                        .map(s -> new ProbeSpec.Gpfs(s.strings("verbsPorts"), s.strings("requiredPeers"),
                                s.bool("requireVerbsRdmaSend"), s.string("minPagepool"))),
                spec.section("nvmeof", "targets").map(s -> new ProbeSpec.Nvmeof(targets(s))),
                spec.section("gds", "filesystems", "requireIommuDisabled", "requireNicGpuSameSwitch", "forbidCompatMode")
                        .map(s -> new ProbeSpec.Gds(s.strings("filesystems"), s.bool("requireIommuDisabled"),
                                s.bool("requireNicGpuSameSwitch"), s.bool("forbidCompatMode"))),
                spec.section("latency", "device", "port", "size", "iterations", "maxTypicalMicros", "transportComparison")
                        .map(s -> new ProbeSpec.Latency(s.string("device"), s.integer("port"), s.integer("size"),
                                s.integer("iterations"), s.number("maxTypicalMicros"), s.bool("transportComparison"))),
                spec.section("ceph").map(s -> new ProbeSpec.Ceph())));
    }

    private static List<ProbeSpec.Target> targets(Node nvmeof) throws InvalidSpecException {
        List<ProbeSpec.Target> targets = new ArrayList<>();
        for (Node t : nvmeof.objects("targets", "nqn", "address", "port")) {
            targets.add(new ProbeSpec.Target(t.string("nqn"), t.string("address"), t.integer("port")));
        }
        return targets;
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
