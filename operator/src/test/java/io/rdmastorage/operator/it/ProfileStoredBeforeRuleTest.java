package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.testing.CommandResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upgrade path of a CRD that gains a rule (issue 27): a profile stored while its CRD lacked the
 * selector validation (an expression without operator, as fabric8's model let through) is still
 * stored when the CRD has it. The operator must say which field breaks which rule instead of
 * failing every reconcile, its status writes and its finalizer removal must be accepted by the API
 * server, and deleting the profile must complete without a hand edit.
 */
class ProfileStoredBeforeRuleTest {

    private static final String PROFILE = "stored-before-rule";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path CRDS = Path.of("../crds");
    private static final Path PROFILE_CRD = CRDS.resolve("rdmastorageprofiles.rdmastorage.io-v1.yml");

    @TempDir
    Path dir;

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("before-rule");
    }

    @AfterEach
    void stop() throws IOException {
        try {
            env.stopOperator();
            if (env.profile(PROFILE) != null) {
                // left Terminating (the defect): only the CRD without the rules lets anyone edit it
                applyCrd(crdWithoutIntervalRules(crdWithoutSelectorRules()));
                env.admin.resources(RdmaStorageProfile.class).withName(PROFILE)
                        .edit(p -> { p.getMetadata().setFinalizers(List.of()); return p; });
                env.admin.resources(RdmaStorageProfile.class).withName(PROFILE).delete();
            }
        } finally {
            env.plane.kubectl().apply(CRDS).orThrow("kubectl apply the CRDs as they are");
            env.close();
        }
    }

    @Test
    void aProfileStoredBeforeItsSelectorRuleSaysWhichRuleItBreaksAndCanBeDeleted() throws IOException {
        env.addNode("n1", null);
        applyCrd(crdWithoutSelectorRules());
        env.startOperator();
        env.plane.kubectl().applyYaml(profileWithoutOperator(PROFILE)).orThrow("kubectl apply profile");
        await("the operator of that time added its finalizer", WAIT, () -> !env.profile(PROFILE).getMetadata()
                .getFinalizers().isEmpty());
        env.stopOperator();

        // the upgrade: the CRD with the rule, then the operator
        env.plane.kubectl().apply(CRDS).orThrow("kubectl apply the CRDs as they are");
        await("the CRD refuses such a profile now", WAIT, () -> env.plane.kubectl().runWithInput(
                profileWithoutOperator(PROFILE + "-new"), "apply", "--dry-run=server", "-f", "-").exitCode() != 0);
        env.startOperator();

        await("Ready names the field and the rule", WAIT, () -> profileReady().getMessage() != null
                && profileReady().getMessage().contains("spec.nodeSelector.matchExpressions[0].operator: Required value"));
        Condition ready = profileReady();
        assertThat(ready.getStatus()).isEqualTo("Unknown");
        assertThat(ready.getReason()).isEqualTo("ReconcileFailing");
        assertThat(ready.getMessage()).contains("In, NotIn, Exists, DoesNotExist").doesNotContain("NullPointerException");
        assertThat(env.verdicts(PROFILE)).as("nothing is probed from a selector that breaks the rule").isEmpty();

        env.admin.resources(RdmaStorageProfile.class).withName(PROFILE).delete();
        await("the profile deleted, its finalizer removed by the operator", WAIT, () -> env.profile(PROFILE) == null);
    }

    @Test
    void aProfileStoredBeforeItsIntervalPatternCanBeWrittenToAndDeleted() throws IOException {
        env.addNode("n1", null);
        applyCrd(crdWithoutIntervalRules(Files.readString(PROFILE_CRD)));
        env.startOperator();
        env.plane.kubectl().applyYaml(GpuPool.profileYaml(PROFILE, env.cluster.id(), "interval: 10 minutes", "rdma: {}"))
                .orThrow("kubectl apply profile");
        await("the operator of that time added its finalizer", WAIT, () -> !env.profile(PROFILE).getMetadata()
                .getFinalizers().isEmpty());
        env.stopOperator();

        env.plane.kubectl().apply(CRDS).orThrow("kubectl apply the CRDs as they are");
        await("the CRD refuses such an interval now", WAIT, () -> env.plane.kubectl().runWithInput(GpuPool.profileYaml(
                PROFILE + "-new", env.cluster.id(), "interval: 10 minutes", "rdma: {}"), "apply", "--dry-run=server", "-f", "-")
                .exitCode() != 0);
        env.startOperator();

        await("Ready names the field and its pattern", WAIT, () -> profileReady().getMessage() != null
                && profileReady().getMessage().contains("spec.interval: Invalid value '10 minutes'"));
        assertThat(profileReady().getReason()).isEqualTo("ReconcileFailing");
        // the rules that parse a duration do not err on it: writes of the unchanged spec are accepted
        CommandResult label = env.plane.kubectl().run("label", "rdmastorageprofile", PROFILE, "team=storage");
        assertThat(label.exitCode()).as(label.toString()).isZero();
        env.admin.resources(RdmaStorageProfile.class).withName(PROFILE).delete();
        await("the profile deleted, its finalizer removed by the operator", WAIT, () -> env.profile(PROFILE) == null);
    }

    /** {@code crd} before the interval had its pattern and rules (and the rule comparing it with probeTimeout). */
    static String crdWithoutIntervalRules(String crdYaml) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode crd = yaml.readTree(crdYaml);
        ObjectNode spec = (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
        assertThat(spec.remove("x-kubernetes-validations")).isNotNull();
        ObjectNode interval = (ObjectNode) spec.at("/properties/interval");
        assertThat(interval.remove("pattern")).isNotNull();
        assertThat(interval.remove("x-kubernetes-validations")).isNotNull();
        return yaml.writeValueAsString(crd);
    }

    private String profileWithoutOperator(String name) {
        return GpuPool.profileYaml(name, env.cluster.id(), "matchExpressions: [{key: rdmastorage.test/rack}]",
                "interval: 10m", "rdma: {}");
    }

    /** The profile CRD as it was before the selector validation: no required key and operator, no values rule. */
    static String crdWithoutSelectorRules() throws IOException {
        String crd = Files.readString(PROFILE_CRD);
        String withoutRule = removeEach(crd,
                "(?m)^ +x-kubernetes-validations:\n +- messageExpression: \"'values must be .*\n +rule: .*\n");
        return removeEach(withoutRule, "(?m)^ +required:\n +- \"key\"\n +- \"operator\"\n");
    }

    /** Removes every match, of which there must be two (the node selector's and the latency reference selector's). */
    private static String removeEach(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.results().count()).as("matches of " + regex).isEqualTo(2);
        return matcher.replaceAll("");
    }

    private void applyCrd(String yaml) throws IOException {
        Path file = Files.writeString(dir.resolve("profile-crd.yml"), yaml);
        CommandResult applied = env.plane.kubectl().apply(file);
        applied.orThrow("kubectl apply the profile CRD without the selector rules");
    }

    private Condition profileReady() {
        return env.profileCondition(PROFILE, "Ready");
    }
}
