package io.rdmastorage.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code's shape, read from the tree: operator main has no package cycle and no class past 450
 * lines, and docs/development.md's package tables and DESIGN's code shape name every package there
 * is (and development.md none that is gone).
 */
class CodeShapeTest {

    private static final Map<String, Path> MODULES = Map.of(
            "probe-contract", Path.of("../probe-contract/src/main/java/io/rdmastorage/contract"),
            "node-probe", Path.of("../node-probe/src/main/java/io/rdmastorage/probe"),
            "operator", Path.of("src/main/java/io/rdmastorage/operator"));
    private static final Pattern REFERENCE = Pattern.compile("io\\.rdmastorage\\.operator\\.(\\w+)\\.[A-Z]");
    private static final int MAX_CLASS_LINES = 450;

    @Test
    void operatorMainHasNoPackageCycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : javaFiles(MODULES.get("operator"))) {
            String from = packageOf(MODULES.get("operator"), file);
            if (from.isEmpty()) {
                continue;
            }
            Matcher m = REFERENCE.matcher(Files.readString(file));
            while (m.find()) {
                if (!m.group(1).equals(from)) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(m.group(1));
                }
            }
        }
        assertThat(uses).as("the operator's packages and what they use").containsKeys("acceptance", "reconciler", "config");
        assertThat(cycles(uses)).as("package cycles in operator main (a package that uses another that uses it back)").isEmpty();
    }

    @Test
    void noClassOfOperatorMainGrowsPast450Lines() throws IOException {
        Map<String, Long> large = new TreeMap<>();
        for (Path file : javaFiles(MODULES.get("operator"))) {
            long lines;
            try (Stream<String> all = Files.lines(file)) {
                lines = all.count();
            }
            if (lines > MAX_CLASS_LINES) {
                large.put(file.getFileName().toString(), lines);
            }
        }
        assertThat(large).as("give the feature a room of its own").isEmpty();
    }

    @Test
    void developmentMdHasOneRowPerPackageOfEachModule() throws IOException {
        String doc = Files.readString(Path.of("../docs/development.md"));
        String section = doc.substring(doc.indexOf("## Packages"), doc.indexOf("\n## ", doc.indexOf("## Packages") + 1));
        for (Map.Entry<String, Path> module : MODULES.entrySet()) {
            int at = section.indexOf("\n" + module.getKey() + " (");
            assertThat(at).as("a table for %s", module.getKey()).isPositive();
            int end = section.indexOf("\n\n", section.indexOf("| package |", at));
            Set<String> rows = new TreeSet<>();
            Matcher row = Pattern.compile("(?m)^\\| `(\\w+)` \\|").matcher(section.substring(at, end < 0 ? section.length() : end));
            while (row.find()) {
                rows.add(row.group(1));
            }
            assertThat(rows).as("docs/development.md's %s packages", module.getKey()).isEqualTo(packages(module.getValue()));
        }
    }

    @Test
    void designsCodeShapeNamesEveryPackageOfNodeProbeAndTheOperator() throws IOException {
        String design = Files.readString(Path.of("../docs/DESIGN.md"));
        String shape = design.substring(design.indexOf("## Code shape"), design.indexOf("## Glossary"));
        for (String module : List.of("node-probe", "operator")) {
            for (String pkg : packages(MODULES.get(module))) {
                assertThat(shape).as("DESIGN's code shape names %s's package %s", module, pkg).contains("`" + pkg + "`");
            }
        }
    }

    private static Set<String> packages(Path root) throws IOException {
        Set<String> packages = new TreeSet<>();
        for (Path file : javaFiles(root)) {
            String pkg = packageOf(root, file);
            if (!pkg.isEmpty()) {
                packages.add(pkg);
            }
        }
        return packages;
    }

    /** The first folder under the module's root: its package in the tables' sense. */
    private static String packageOf(Path root, Path file) {
        Path relative = root.relativize(file);
        return relative.getNameCount() > 1 ? relative.getName(0).toString() : "";
    }

    private static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** Every strongly connected group of more than one package (Tarjan), each sorted. */
    static List<Set<String>> cycles(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new LinkedHashSet<>();
        List<Set<String>> found = new ArrayList<>();
        for (String start : new TreeSet<>(uses.keySet())) {
            if (!index.containsKey(start)) {
                connect(start, uses, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> uses, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, List<Set<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : uses.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, uses, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> group = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                group.add(w);
            } while (!w.equals(v));
            if (group.size() > 1) {
                found.add(group);
            }
        }
    }

    @Test
    void theCycleFinderFindsACycle() {
        assertThat(cycles(Map.of("api", Set.of("config"), "config", Set.of("api", "status"), "status", Set.of())))
                .containsExactly(new TreeSet<>(Set.of("api", "config")));
    }
}
