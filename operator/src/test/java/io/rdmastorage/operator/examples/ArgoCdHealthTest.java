package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rdmastorage.operator.examples.ArgoCdLua.Health;
import io.rdmastorage.operator.examples.ArgoCdLua.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Argo CD health checks of examples/argocd/ in real Lua, case by case, the way Argo CD's own
 * {@code resource_customizations/<group>/<kind>/health_test.yaml} cases run: each test names an
 * object in {@code testdata/} and the {@code {status, message}} the script must return for it.
 * Each kind runs in the sandbox argocd-cm-health.yaml configures for it (open libraries for the
 * profile, Argo CD's default for the node); every case also runs in Argo CD's default sandbox, so a
 * forgotten useOpenLibs setting degrades gracefully instead of breaking the health check.
 */
class ArgoCdHealthTest {

    static final Path ARGOCD = Path.of("../examples/argocd");
    static final Path HEALTH = ARGOCD.resolve("health/rdmastorage.io");
    static final List<String> KINDS = List.of("RdmaStorageProfile", "RdmaStorageNode", "RdmaStorageAcceptance");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    record TestCase(String inputPath, Health expected) {
    }

    static String script(String kind) {
        return read(HEALTH.resolve(kind).resolve("health.lua"));
    }

    static List<TestCase> cases(String kind) {
        Map<String, List<Map<String, Object>>> doc = yaml(HEALTH.resolve(kind).resolve("health_test.yaml"));
        List<TestCase> cases = new ArrayList<>();
        for (Map<String, Object> test : doc.get("tests")) {
            @SuppressWarnings("unchecked")
            Map<String, String> health = (Map<String, String>) test.get("healthStatus");
            cases.add(new TestCase((String) test.get("inputPath"), new Health(health.get("status"), health.get("message"))));
        }
        return cases;
    }

    static Map<String, Object> object(String kind, String inputPath) {
        return yaml(HEALTH.resolve(kind).resolve(inputPath));
    }

    static Map<String, String> argocdCmData() {
        Map<String, Object> cm = yaml(ARGOCD.resolve("argocd-cm-health.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, String> data = (Map<String, String>) cm.get("data");
        return data;
    }

    /** The sandbox Argo CD gives this kind's script with the settings of argocd-cm-health.yaml. */
    static Sandbox configuredSandbox(String kind) {
        return "true".equals(argocdCmData().get("resource.customizations.useOpenLibs.rdmastorage.io_" + kind))
                ? Sandbox.OPEN_LIBS : Sandbox.ARGO_CD_DEFAULT;
    }

    static Stream<Arguments> allCases() {
        return KINDS.stream().flatMap(kind -> cases(kind).stream().map(c -> Arguments.of(kind, c.inputPath(), c.expected())));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allCases")
    void healthTestCasesPass(String kind, String inputPath, Health expected) {
        Health actual = ArgoCdLua.run(script(kind), object(kind, inputPath), configuredSandbox(kind));
        assertThat(actual).isEqualTo(expected);
        assertThat(ArgoCdLua.HEALTH_CODES).contains(actual.status());
    }

    /**
     * Without open libraries (argocd-cm lacks the useOpenLibs line) nothing fails: the only
     * difference is that a profile's NodesUnknown cannot be read, and is Progressing.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allCases")
    void argoCdDefaultSandboxGivesTheSameHealthExceptUnreadableNodesUnknown(String kind, String inputPath, Health expected) {
        Map<String, Object> obj = object(kind, inputPath);
        Health actual = ArgoCdLua.run(script(kind), obj, Sandbox.ARGO_CD_DEFAULT);
        if (kind.equals("RdmaStorageProfile") && "NodesUnknown".equals(readyReason(obj))) {
            assertThat(actual).isEqualTo(new Health("Progressing", expected.message()));
        } else {
            assertThat(actual).isEqualTo(expected);
        }
    }

    @Test
    void everyHealthStatusAndKeyUnknownReasonIsCovered() {
        for (String kind : List.of("RdmaStorageProfile", "RdmaStorageNode")) {
            Set<String> statuses = new TreeSet<>();
            Set<String> reasons = new TreeSet<>();
            for (TestCase c : cases(kind)) {
                statuses.add(c.expected().status());
                String reason = readyReason(object(kind, c.inputPath()));
                if (reason != null) {
                    reasons.add(reason);
                }
            }
            assertThat(statuses).as(kind).containsExactlyInAnyOrder("Healthy", "Progressing", "Degraded", "Suspended");
            assertThat(reasons).as(kind).contains(kind.equals("RdmaStorageProfile")
                    ? new String[] {"AllNodesReady", "NodesNotReady", "NodesUnknown", "NoMatchingNodes", "InvalidSpec", "NoChecksConfigured"}
                    : new String[] {"AllChecksPassed", "ChecksFailed", "AwaitingProbe", "ProbeTimedOut", "ProbeFailedToStart",
                                    "ResultExpired", "NodeNotReady", "NodeUnschedulable", "ChecksUnknown"});
        }
    }

    /** An acceptance run is a one-shot, like a Job: it never waits for the cluster, so it is never Suspended. */
    @Test
    void everyPhaseAndOutcomeOfAnAcceptanceRunIsCovered() {
        Set<String> statuses = new TreeSet<>();
        Set<String> outcomes = new TreeSet<>();
        for (TestCase c : cases("RdmaStorageAcceptance")) {
            statuses.add(c.expected().status());
            Map<String, Object> obj = object("RdmaStorageAcceptance", c.inputPath());
            outcomes.add(conditionReason(obj, "Complete") + "/" + conditionReason(obj, "RdmaEffective"));
        }
        assertThat(statuses).containsExactlyInAnyOrder("Healthy", "Progressing", "Degraded");
        assertThat(outcomes).contains("WaitingForNode/NoComparison", "Running/NoComparison", "Measured/Effective",
                "Measured/NotEffective", "Incomplete/NoComparison", "TimedOut/NoComparison");
    }

    @Test
    void everyTestdataFileIsACaseOfItsKind() throws IOException {
        for (String kind : KINDS) {
            Set<String> listed = new TreeSet<>();
            for (TestCase c : cases(kind)) {
                listed.add(c.inputPath());
                assertThat(object(kind, c.inputPath())).containsEntry("kind", kind).containsEntry("apiVersion", "rdmastorage.io/v1alpha1");
            }
            Set<String> files = new TreeSet<>();
            try (Stream<Path> s = Files.list(HEALTH.resolve(kind).resolve("testdata"))) {
                s.forEach(p -> files.add("testdata/" + p.getFileName()));
            }
            assertThat(listed).as(kind).isEqualTo(files);
        }
    }

    @Test
    void theArgocdCmSnippetEmbedsTheScriptsAsTheyAre() {
        Map<String, String> data = argocdCmData();
        for (String kind : KINDS) {
            assertThat(data.get("resource.customizations.health.rdmastorage.io_" + kind)).as(kind).isEqualTo(script(kind));
        }
        assertThat(data).containsEntry("resource.customizations.useOpenLibs.rdmastorage.io_RdmaStorageProfile", "true");
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
