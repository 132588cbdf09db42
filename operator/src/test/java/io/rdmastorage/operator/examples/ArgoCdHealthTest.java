package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rdmastorage.operator.examples.ArgoCdEngine.Health;
import io.rdmastorage.operator.tools.BackgroundBuilds;
import io.rdmastorage.operator.verdict.UnknownCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Argo CD health checks of examples/argocd/ on Argo CD's own health evaluation
 * ({@link ArgoCdEngine}), case by case, the way Argo CD runs its built-in
 * {@code resource_customizations/<group>/<kind>/health_test.yaml}: each test names an object in
 * {@code testdata/} and the {@code {status, message}} Argo CD must show for it.
 *
 * <p>Every {@code health/<group>/<kind>/health.lua} is found by walking the folder, so a new kind
 * brings its cases in by its directory alone. Each case runs with argocd-cm-health.yaml as it is
 * (Argo CD's default sandbox: base, table, package and a safe os library), and again with
 * {@code useOpenLibs} switched on for every kind, as Argo CD's own tests run theirs: the scripts
 * must give the same health either way.
 */
@Tag(BackgroundBuilds.TAG)
class ArgoCdHealthTest {

    static final Path ARGOCD = Path.of("../examples/argocd");
    static final Path HEALTH = ARGOCD.resolve("health");
    static final List<String> HEALTH_CODES = List.of("Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** One health.lua: the kind it is for, where Argo CD keeps its own (health/&lt;group&gt;/&lt;kind&gt;/). */
    record HealthCheck(String group, String kind, Path dir) {
        String script() {
            return read(dir.resolve("health.lua"));
        }

        /** argocd-cm's key for this kind's script. */
        String configMapKey() {
            return "resource.customizations.health." + group + "_" + kind;
        }

        List<TestCase> cases() {
            Map<String, List<Map<String, Object>>> doc = yaml(dir.resolve("health_test.yaml"));
            List<TestCase> cases = new ArrayList<>();
            for (Map<String, Object> test : doc.get("tests")) {
                @SuppressWarnings("unchecked")
                Map<String, String> health = (Map<String, String>) test.get("healthStatus");
                cases.add(new TestCase(this, (String) test.get("inputPath"), new Health(health.get("status"), health.get("message"))));
            }
            return cases;
        }

        Map<String, Object> object(String inputPath) {
            return yaml(dir.resolve(inputPath));
        }

        @Override
        public String toString() {
            return group + "/" + kind;
        }
    }

    record TestCase(HealthCheck check, String inputPath, Health expected) {
    }

    static List<HealthCheck> healthChecks() {
        try (Stream<Path> files = Files.walk(HEALTH)) {
            return files.filter(p -> p.getFileName().toString().equals("health.lua")).sorted()
                    .map(p -> new HealthCheck(p.getParent().getParent().getFileName().toString(),
                            p.getParent().getFileName().toString(), p.getParent()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static HealthCheck healthCheck(String kind) {
        return healthChecks().stream().filter(c -> c.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError("no health.lua for " + kind));
    }

    /** examples/argocd/argocd-cm-health.yaml, the ConfigMap users merge into their argocd-cm. */
    static Map<String, Object> argocdCm() {
        return yaml(ARGOCD.resolve("argocd-cm-health.yaml"));
    }

    static Map<String, String> argocdCmData() {
        @SuppressWarnings("unchecked")
        Map<String, String> data = (Map<String, String>) argocdCm().get("data");
        return data;
    }

    /** argocd-cm-health.yaml with Lua's standard libraries opened for every kind. */
    static Map<String, Object> argocdCmWithOpenLibs() {
        Map<String, Object> cm = argocdCm();
        Map<String, String> data = new LinkedHashMap<>(argocdCmData());
        for (HealthCheck check : healthChecks()) {
            data.put("resource.customizations.useOpenLibs." + check.group() + "_" + check.kind(), "true");
        }
        cm.put("data", data);
        return cm;
    }

    static Stream<Arguments> allCases() {
        return healthChecks().stream().flatMap(check -> check.cases().stream()
                .map(c -> Arguments.of(check, c.inputPath(), c.expected())));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allCases")
    void healthTestCasesPassOnArgoCd(HealthCheck check, String inputPath, Health expected) {
        Health actual = ArgoCdEngine.shared().health(argocdCm(), check.object(inputPath));
        assertThat(actual).isEqualTo(expected);
        assertThat(HEALTH_CODES).contains(actual.status());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allCases")
    void openLibrariesChangeNothing(HealthCheck check, String inputPath, Health expected) {
        assertThat(ArgoCdEngine.shared().health(argocdCmWithOpenLibs(), check.object(inputPath))).isEqualTo(expected);
    }

    @Test
    void theHealthChecksAreFoundWhereArgoCdKeepsItsOwn() {
        assertThat(healthChecks()).extracting(HealthCheck::toString)
                .contains("rdmastorage.io/RdmaStorageProfile", "rdmastorage.io/RdmaStorageNode",
                        "rdmastorage.io/RdmaStorageAcceptance");
    }

    @Test
    void everyHealthCheckHasCasesForTheHealthsItGives() {
        for (HealthCheck check : healthChecks()) {
            Set<String> statuses = new TreeSet<>();
            for (TestCase c : check.cases()) {
                statuses.add(c.expected().status());
            }
            assertThat(statuses).as(check.toString()).contains("Healthy", "Progressing", "Degraded");
        }
    }

    @Test
    void everyReadyReasonOfTheOperatorHasACase() {
        Set<String> profile = readyReasons(healthCheck("RdmaStorageProfile"));
        assertThat(profile).contains("AllNodesReady", "NodesNotReady", "NoMatchingNodes", "InvalidSpec", "NoChecksConfigured",
                "ReconcileFailing");
        for (UnknownCause cause : UnknownCause.values()) {
            assertThat(profile).as("a case for %s", cause).contains(cause.reason());
        }
        assertThat(readyReasons(healthCheck("RdmaStorageNode"))).contains("AllChecksPassed", "ChecksFailed", "AwaitingProbe",
                "AwaitingMeasurement", "ProbeTimedOut", "ProbeFailedToStart", "ResultExpired", "NodeNotReady",
                "NodeUnschedulable", "ChecksUnknown");
    }

    /** An acceptance run is a one-shot, like a Job: each way it ends has a case. */
    @Test
    void everyOutcomeOfAnAcceptanceRunHasACase() {
        HealthCheck check = healthCheck("RdmaStorageAcceptance");
        Set<String> outcomes = new TreeSet<>();
        for (TestCase c : check.cases()) {
            Map<String, Object> obj = check.object(c.inputPath());
            outcomes.add(conditionReason(obj, "Complete") + "/" + conditionReason(obj, "RdmaEffective"));
        }
        assertThat(outcomes).contains("WaitingForNode/NoComparison", "Running/NoComparison", "Measured/Effective",
                "Measured/NotEffective", "Incomplete/NoComparison", "TimedOut/NoComparison");
    }

    @Test
    void everyTestdataFileIsACaseOfItsKind() throws IOException {
        for (HealthCheck check : healthChecks()) {
            Set<String> listed = new TreeSet<>();
            for (TestCase c : check.cases()) {
                listed.add(c.inputPath());
                assertThat(check.object(c.inputPath())).as(c.inputPath()).containsEntry("kind", check.kind());
                assertThat((String) check.object(c.inputPath()).get("apiVersion")).startsWith(check.group() + "/");
            }
            Set<String> files = new TreeSet<>();
            try (Stream<Path> s = Files.list(check.dir().resolve("testdata"))) {
                s.forEach(p -> files.add("testdata/" + p.getFileName()));
            }
            assertThat(listed).as(check.toString()).isEqualTo(files);
        }
    }

    @Test
    void theArgocdCmSnippetEmbedsEveryScriptAsItIs() {
        Map<String, String> data = argocdCmData();
        Set<String> keys = new TreeSet<>();
        for (HealthCheck check : healthChecks()) {
            assertThat(data.get(check.configMapKey())).as(check.configMapKey()).isEqualTo(check.script());
            keys.add(check.configMapKey());
        }
        // nothing else: no script without its tests, and no useOpenLibs, which the scripts do not need
        assertThat(new TreeSet<>(data.keySet())).isEqualTo(keys);
    }

    static Set<String> readyReasons(HealthCheck check) {
        Set<String> reasons = new TreeSet<>();
        for (TestCase c : check.cases()) {
            String reason = readyReason(check.object(c.inputPath()));
            if (reason != null) {
                reasons.add(reason);
            }
        }
        return reasons;
    }

    static String readyReason(Map<String, Object> obj) {
        return conditionReason(obj, "Ready");
    }

    static String conditionReason(Map<String, Object> obj, String type) {
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) obj.get("status");
        if (status == null || !(status.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        for (Object c : conditions) {
            if (c instanceof Map<?, ?> m && type.equals(m.get("type"))) {
                return (String) m.get("reason");
            }
        }
        return null;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T> T yaml(Path file) {
        try {
            return YAML.readValue(file.toFile(), new TypeReference<T>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }
}
