package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.Node;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The consumers of the operator's Node condition and verdicts that the docs give
 * (examples/consumers): NVSentinel's Kubernetes Object Monitor policies, whose CEL predicates and
 * node associations are evaluated here with a CEL engine against the Node and RdmaStorageNode
 * objects the operator wrote, and node-readiness-controller's NodeReadinessRule, whose condition
 * test is applied to the Nodes. A GB200 tray whose storage NIC's firmware logged a fatal error
 * (ReplaceNIC) must match, a healthy one and a NotReady one (Unknown) must not.
 */
class OperatorConditionConsumersTest {

    private static final String NAME = "consumers";
    private static final String EXAMPLE_PROFILE = "gpfs-gds-training";
    private static final Path CONSUMERS = Path.of("..", "examples", "consumers");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theDocumentedPoliciesMatchTheBrokenNodeAndNeitherTheHealthyNorTheUnknownOne() throws Exception {
        try (OperatorEnvironment env = OperatorEnvironment.start(NAME)) {
            String log = Samples.body("kmsg/dev-kmsg_mlx5-dying_cx5-pcie-drop-no-pid-prefix_linux-7.0-report.txt");
            env.addFixtureNode("broken", h -> Gb200Fixtures.tray(h).file("/dev/kmsg", log.replace("0000:c4:00.0", "0016:03:00.0"))
                    .file("/proc/uptime", "2600.00 1.00\n"));
            env.addFixtureNode("healthy", Gb200Fixtures::tray);
            env.addFixtureNode("paused", Gb200Fixtures::tray);
            env.cluster.setReady("paused", false);
            env.startOperator();
            env.applyProfile(NAME, "interval: 1m\nprobeTimeout: 30s\nnodeCondition: true",
                    "rdma: {storageNics: {devices: [mlx5_2, mlx5_6]}, kernelLogWindow: 1440m}");
            await("the three verdicts", Duration.ofSeconds(90), () -> env.verdicts(NAME).size() == 3
                    && env.verdict(NAME, "broken").getStatus() != null && env.verdict(NAME, "healthy").getStatus() != null
                    && condition(env.admin.nodes().withName("broken").get()) != null
                    && condition(env.admin.nodes().withName("healthy").get()) != null);
            assertThat(env.conditions(NAME, "broken")).containsEntry("RdmaDevices", "False/DeviceFatalLogged");
            assertThat(env.conditions(NAME, "healthy")).containsEntry("Ready", "True/AllChecksPassed");
            assertThat(env.conditions(NAME, "paused").get("Ready")).startsWith("Unknown/");

            List<Map<String, Object>> policies = nvsentinelPolicies();
            Map<String, Object> onNode = policies.get(0);
            Map<String, Object> onVerdict = policies.get(1);
            for (String node : List.of("broken", "healthy", "paused")) {
                Node object = env.admin.nodes().withName(node).get();
                RdmaStorageNode verdict = env.verdict(NAME, node);
                boolean broken = node.equals("broken");
                assertThat(cel(predicate(onNode), object)).as("the Node-condition policy on %s", node).isEqualTo(broken);
                assertThat(cel(predicate(onVerdict), verdict)).as("the ReplaceNIC policy on %s", node).isEqualTo(broken);
                assertThat(cel(association(onNode), object)).isEqualTo(node);
                assertThat(cel(association(onVerdict), verdict)).isEqualTo(node);
                assertThat(readinessRuleSatisfied(object)).as("the NodeReadinessRule lifts its taint on %s", node)
                        .isEqualTo(node.equals("healthy"));
            }
        }
    }

    /** The profile's Node condition as the operator wrote it. */
    private static Object condition(Node node) {
        return node.getStatus().getConditions().stream().filter(c -> c.getType().equals("rdmastorage.io/" + NAME))
                .findFirst().orElse(null);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> nvsentinelPolicies() throws Exception {
        Map<String, Object> values = YAML.readValue(Files.readString(CONSUMERS.resolve("nvsentinel-values.yaml")), Map.class);
        return (List<Map<String, Object>>) ((Map<String, Object>) values.get("kubernetes-object-monitor")).get("policies");
    }

    @SuppressWarnings("unchecked")
    private static String predicate(Map<String, Object> policy) {
        return ((String) ((Map<String, Object>) policy.get("predicate")).get("expression")).replace(EXAMPLE_PROFILE, NAME);
    }

    @SuppressWarnings("unchecked")
    private static String association(Map<String, Object> policy) {
        return (String) ((Map<String, Object>) policy.get("nodeAssociation")).get("expression");
    }

    /** The rule's conditions, each of the node's conditions with its required status: all must hold. */
    @SuppressWarnings("unchecked")
    private static boolean readinessRuleSatisfied(Node node) throws Exception {
        Map<String, Object> rule = YAML.readValue(Files.readString(CONSUMERS.resolve("node-readiness-rule.yaml")), Map.class);
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) ((Map<String, Object>) rule.get("spec")).get("conditions");
        assertThat(conditions).isNotEmpty();
        return conditions.stream().allMatch(required -> node.getStatus().getConditions().stream().anyMatch(c ->
                c.getType().equals(((String) required.get("type")).replace(EXAMPLE_PROFILE, NAME))
                        && c.getStatus().equals(required.get("requiredStatus"))));
    }

    /** A CEL expression over {@code resource}, the object as its JSON. */
    private static Object cel(String expression, Object resource) throws Exception {
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)   // has(), exists(), as NVSentinel's cel-go has them
                .addVar("resource", SimpleType.DYN).build();
        CelAbstractSyntaxTree ast = compiler.compile(expression).getAst();
        CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder().build();
        return runtime.createProgram(ast).eval(Map.of("resource", new ObjectMapper().convertValue(resource, Map.class)));
    }
}
