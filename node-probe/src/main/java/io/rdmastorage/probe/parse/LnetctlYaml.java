package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The YAML that lnetctl prints (Lustre's cYAML writer): nested blocks by indentation, {@code key: value}
 * and {@code key:} lines, sequence items as {@code - key: value}; scalars only, quoted or not. Read
 * into maps ({@code Map<String, Object>}), lists and strings; anything else is not lnetctl's output.
 * lnetctl's own parsers (net, peer, stats) read their documents from this tree.
 */
public final class LnetctlYaml {

    private record Line(int indent, String text) {
    }

    private final List<Line> lines;
    private int next;

    private LnetctlYaml(List<Line> lines) {
        this.lines = lines;
    }

    /** The document's top-level map; empty when the text is not in lnetctl's YAML layout. */
    public static Optional<Map<String, Object>> parse(String text) {
        List<Line> lines = new ArrayList<>();
        for (String raw : text.split("\r\n|\r|\n")) {
            if (raw.isBlank() || raw.stripLeading().startsWith("#")) {
                continue;
            }
            if (raw.indexOf('\t') >= 0) {
                return Optional.empty();
            }
            String body = raw.stripLeading();
            lines.add(new Line(raw.length() - body.length(), body.stripTrailing()));
        }
        if (lines.isEmpty() || lines.get(0).indent() != 0) {
            return Optional.empty();
        }
        LnetctlYaml reader = new LnetctlYaml(lines);
        Optional<Object> root = reader.block(0);
        if (root.isEmpty() || reader.next != lines.size() || !(root.get() instanceof Map)) {
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) root.get();
        return Optional.of(map);
    }

    /** The block at {@code indent}: a list when its first line is an item, a map otherwise. */
    private Optional<Object> block(int indent) {
        return lines.get(next).text().startsWith("- ") ? list(indent) : map(indent, null);
    }

    private Optional<Object> list(int indent) {
        List<Object> items = new ArrayList<>();
        while (next < lines.size() && lines.get(next).indent() == indent && lines.get(next).text().startsWith("- ")) {
            // "- key: value" opens a map whose first line is "key: value", two columns deeper
            Line first = new Line(indent + 2, lines.get(next).text().substring(2).stripLeading());
            Optional<Object> item = map(indent + 2, first);
            if (item.isEmpty()) {
                return Optional.empty();
            }
            items.add(item.get());
        }
        return Optional.of(items);
    }

    private Optional<Object> map(int indent, Line first) {
        Map<String, Object> map = new LinkedHashMap<>();
        Line line = first;
        if (line != null) {
            lines.set(next, line);
        }
        while (next < lines.size() && lines.get(next).indent() == indent && !lines.get(next).text().startsWith("- ")) {
            String text = lines.get(next).text();
            int colon = text.indexOf(": ");
            boolean bare = colon < 0 && text.endsWith(":");
            if (colon < 0 && !bare) {
                return Optional.empty();
            }
            String key = bare ? text.substring(0, text.length() - 1) : text.substring(0, colon);
            next++;
            if (!bare) {
                map.put(key, unquote(text.substring(colon + 2).strip()));
            } else if (next < lines.size() && (lines.get(next).indent() > indent
                    || lines.get(next).indent() == indent && lines.get(next).text().startsWith("- ") && first == null)) {
                Optional<Object> child = block(lines.get(next).indent());
                if (child.isEmpty()) {
                    return Optional.empty();
                }
                map.put(key, child.get());
            } else {
                map.put(key, "");
            }
        }
        return map.isEmpty() ? Optional.empty() : Optional.of(map);
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    /** The map under {@code key}, if it is one. */
    @SuppressWarnings("unchecked")
    static Optional<Map<String, Object>> map(Map<String, Object> in, String key) {
        return in.get(key) instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty();
    }

    /** The maps of the list under {@code key}; empty when absent or not a list. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Map<String, Object> in, String key) {
        if (!(in.get(key) instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().filter(Map.class::isInstance).map(o -> (Map<String, Object>) o).toList();
    }

    /** The scalar under {@code key}. */
    static Optional<String> text(Map<String, Object> in, String key) {
        return in.get(key) instanceof String s ? Optional.of(s) : Optional.empty();
    }
}
