package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.GeneratedCrds;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.tools.GeneratedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * bundle/ is what {@link OlmBundle} makes from the chart, the CRDs and the examples now (with
 * {@code -Dbundle.update}, which scripts/generate-bundle.sh passes, this test writes it), and what it
 * makes carries the chart's RBAC, Deployment and images, every CRD and every example.
 * BundleValidateTest runs the operator-framework's validators on it.
 */
class OlmBundleTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final SortedMap<String, String> BUNDLE = OlmBundle.generate();

    @Test
    void committedBundleIsCurrent() {
        GeneratedFiles.assertTreeCurrent(OlmBundle.dir(), BUNDLE, "bundle.update", OlmBundle.REGENERATE);
    }

    @Test
    void theCsvGrantsExactlyTheChartsRulesToTheOperatorsAccount() throws IOException {
        JsonNode strategy = csv().path("spec").path("install").path("spec");
        JsonNode cluster = strategy.path("clusterPermissions");
        JsonNode namespaced = strategy.path("permissions");
        assertThat(cluster).hasSize(1);
        assertThat(namespaced).hasSize(1);
        String account = strategy.path("deployments").get(0).path("spec").path("template").path("spec").path("serviceAccountName").asText();
        assertThat(cluster.get(0).path("serviceAccountName").asText()).isEqualTo(account);
        assertThat(namespaced.get(0).path("serviceAccountName").asText()).isEqualTo(account);

        // the Events Role of "default" joins the cluster rules: OLM grants namespaced rules only where it installs
        List<PolicyRule> clusterRules = new ArrayList<>(HelmChart.rulesFile("cluster-rules.yaml"));
        clusterRules.addAll(HelmChart.rulesFile("events-rules.yaml"));
        assertThat(rules(cluster.get(0))).isEqualTo(clusterRules);
        assertThat(rules(namespaced.get(0))).isEqualTo(HelmChart.rulesFile("namespace-rules.yaml"));
    }

    @Test
    void theCsvDeploymentIsTheChartsWithTheNamespaceFromThePod() throws IOException {
        JsonNode csv = csv();
        JsonNode deployment = csv.path("spec").path("install").path("spec").path("deployments").get(0);
        JsonNode container = deployment.path("spec").path("template").path("spec").path("containers").get(0);
        JsonNode namespace = env(container, "RSO_NAMESPACE");
        assertThat(namespace.has("value")).isFalse();
        assertThat(namespace.path("valueFrom").path("fieldRef").path("fieldPath").asText()).isEqualTo("metadata.namespace");
        // what the operator reads in a pod of namespace "operators" (the namespace from the downward API)
        Map<String, String> environment = new HashMap<>();
        container.path("env").forEach(e -> environment.put(e.path("name").asText(), e.path("value").asText()));
        environment.put("RSO_NAMESPACE", "operators");
        assertThat(OperatorConfig.fromEnvironment(environment))
                .isEqualTo(new OperatorConfig("operators", OperatorConfig.DEFAULT_PROBE_IMAGE, "IfNotPresent", true, 8080));
        // rendered with openshift.enabled: the SCC picks the user, and no Helm label is left
        assertThat(deployment.path("spec").path("template").path("spec").path("securityContext").has("runAsUser")).isFalse();
        assertThat(BUNDLE.values()).noneMatch(file -> file.contains("managed-by: Helm") || file.contains("helm.sh/chart"));

        List<String> related = new ArrayList<>();
        csv.path("spec").path("relatedImages").forEach(i -> related.add(i.path("image").asText()));
        assertThat(related).containsExactly(container.path("image").asText(), OperatorConfig.DEFAULT_PROBE_IMAGE);
        assertThat(csv.path("metadata").path("annotations").path("containerImage").asText()).isEqualTo(container.path("image").asText());
        assertThat(csv.path("spec").path("version").asText()).isEqualTo(HelmChart.appVersion());
    }

    @Test
    void theProbePodsAccountMayUseThePrivilegedSccInTheInstallNamespace() throws IOException {
        JsonNode role = YAML.readTree(BUNDLE.get("manifests/rdma-storage-operator-probe-scc_rbac.authorization.k8s.io_v1_role.yaml"));
        assertThat(role.path("metadata").has("namespace")).as("OLM creates it where it installs").isFalse();
        assertThat(rules(role)).isEqualTo(HelmChart.rulesFile("probe-scc-rules.yaml"));
        JsonNode binding = YAML.readTree(BUNDLE.get("manifests/rdma-storage-operator-probe-scc_rbac.authorization.k8s.io_v1_rolebinding.yaml"));
        assertThat(binding.path("subjects")).hasSize(1);
        assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("default");
        assertThat(binding.path("subjects").get(0).has("namespace")).as("the binding's own namespace").isFalse();
    }

    @Test
    void everyCrdIsOwnedAndShippedAsCommitted() throws IOException {
        JsonNode owned = csv().path("spec").path("customresourcedefinitions").path("owned");
        List<String> names = new ArrayList<>();
        owned.forEach(o -> names.add(o.path("name").asText()));
        List<String> crds = new ArrayList<>();
        for (var resource : GeneratedCrds.RESOURCES) {
            String file = GeneratedCrds.fileName(resource);
            crds.add(CustomResource.getCRDName(resource));
            assertThat(BUNDLE.get("manifests/" + file)).isEqualTo(Files.readString(OlmBundle.CRDS.resolve(file)));
        }
        assertThat(names).containsExactlyElementsOf(crds);
        owned.forEach(o -> {
            assertThat(o.path("description").asText()).isNotBlank();
            assertThat(o.path("specDescriptors")).isNotEmpty();
            assertThat(o.path("statusDescriptors")).anySatisfy(d ->
                    assertThat(d.path("x-descriptors").toString()).contains("urn:alm:descriptor:io.kubernetes.conditions"));
        });
    }

    @Test
    void almExamplesAreTheExamplesOfTheApiGroup() throws IOException {
        JsonNode examples = new ObjectMapper().readTree(csv().path("metadata").path("annotations").path("alm-examples").asText());
        List<String> names = new ArrayList<>();
        examples.forEach(e -> names.add(e.path("kind").asText() + "/" + e.path("metadata").path("name").asText()));
        List<String> expected = new ArrayList<>();
        try (Stream<Path> files = Files.list(OlmBundle.EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (HasMetadata object : HelmChart.objects(Files.readString(file))) {
                    if (object.getApiVersion().startsWith(OlmBundle.API_GROUP + "/")) {
                        expected.add(object.getKind() + "/" + object.getMetadata().getName());
                    }
                }
            }
        }
        assertThat(expected).hasSizeGreaterThanOrEqualTo(2);
        assertThat(names).containsExactlyElementsOf(expected);
    }

    @Test
    void annotationsNameThePackageAndChannel() throws IOException {
        JsonNode annotations = YAML.readTree(BUNDLE.get("metadata/annotations.yaml")).path("annotations");
        assertThat(annotations.path("operators.operatorframework.io.bundle.mediatype.v1").asText()).isEqualTo("registry+v1");
        assertThat(annotations.path("operators.operatorframework.io.bundle.package.v1").asText()).isEqualTo(OlmBundle.PACKAGE);
        // the bundle image carries the same annotations as labels
        annotations.fields().forEachRemaining(a ->
                assertThat(BUNDLE.get("bundle.Dockerfile")).contains("LABEL " + a.getKey() + "=" + a.getValue().asText() + "\n"));
    }

    private static JsonNode csv() throws IOException {
        return YAML.readTree(BUNDLE.get("manifests/" + OlmBundle.PACKAGE + ".clusterserviceversion.yaml"));
    }

    private static List<PolicyRule> rules(JsonNode holder) {
        return Serialization.jsonMapper().convertValue(holder.path("rules"),
                Serialization.jsonMapper().getTypeFactory().constructCollectionType(List.class, PolicyRule.class));
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(name)) {
                return env;
            }
        }
        throw new AssertionError("no env " + name + " in " + container);
    }
}
