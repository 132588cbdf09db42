package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The control plane is real: versioned binaries, CRD validation, server-side apply, RBAC. */
class ControlPlaneTest {

    private static final ResourceDefinitionContext PROFILES = new ResourceDefinitionContext.Builder()
            .withGroup("rdmastorage.io").withVersion("v1alpha1").withPlural("rdmastorageprofiles")
            .withKind("RdmaStorageProfile").withNamespaced(false).build();

    private static LocalControlPlane plane;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() {
        plane = LocalControlPlane.shared();
        kubectl = plane.kubectl();
    }

    @Test
    void serverAndKubectlReportTheirRealVersion() {
        String expected = "v" + plane.kubernetesVersion();
        assertThat(plane.adminClient().getKubernetesVersion().getGitVersion()).isEqualTo(expected);
        String versions = kubectl.run("version").orThrow("kubectl version");
        assertThat(versions).contains("Client Version: " + expected).contains("Server Version: " + expected);
    }

    @Test
    void crdsFromTheRepositoryAreServedAndValidatedByTheApiServer() {
        Path crds = Path.of(System.getProperty("rdmastorage.crds.dir", "../crds"));
        assertThat(Files.isDirectory(crds)).as("crds directory %s", crds).isTrue();
        kubectl.apply(crds).orThrow("kubectl apply -f crds/");
        kubectl.awaitEstablished(Duration.ofSeconds(60), "crd/rdmastorageprofiles.rdmastorage.io",
                "crd/rdmastoragenodes.rdmastorage.io");

        CommandResult valid = kubectl.applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata: {name: valid-profile}
                spec: {interval: 15m, maxConcurrentProbes: 20}
                """);
        assertThat(valid.exitCode()).as(valid.stderr()).isZero();
        GenericKubernetesResource stored = plane.adminClient().genericKubernetesResources(PROFILES).withName("valid-profile").get();
        // the generated CRD fills in defaults (probeTimeout, nodeLabels, ...) next to what was applied
        assertThat(stored.getAdditionalProperties().get("spec")).asInstanceOf(InstanceOfAssertFactories.MAP)
                .containsAllEntriesOf(Map.of("interval", "15m", "maxConcurrentProbes", 20));
        assertThat(kubectl.run("get", "rdmastorage").orThrow("kubectl get rdmastorage")).contains("valid-profile");

        CommandResult invalid = kubectl.applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata: {name: invalid-profile}
                spec: {interval: 15m, maxConcurrentProbes: lots}
                """);
        assertThat(invalid.exitCode()).isNotZero();
        assertThat(invalid.stderr()).contains("is invalid").contains("spec.maxConcurrentProbes");
        assertThat(plane.adminClient().genericKubernetesResources(PROFILES).withName("invalid-profile").get()).isNull();
    }

    @Test
    void serverSideApplyWorks() {
        KubernetesClient admin = plane.adminClient();
        admin.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("ssa")
                .endMetadata().addToData("a", "1").build()).fieldManager("test").serverSideApply();
        admin.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("ssa")
                .endMetadata().addToData("a", "2").build()).fieldManager("test").serverSideApply();
        var stored = admin.configMaps().inNamespace("default").withName("ssa").get();
        assertThat(stored.getData()).containsEntry("a", "2");
        assertThat(stored.getMetadata().getManagedFields()).anySatisfy(f -> assertThat(f.getManager()).isEqualTo("test"));
    }

    @Test
    void rbacIsEnforcedForServiceAccounts() {
        String ns = "rbac-test";
        KubernetesClient admin = plane.adminClient();
        KubernetesClient narrow = plane.clientFor(ns, "pod-reader");
        admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("pod-reader").endMetadata()
                .addNewRule().withApiGroups("").withResources("pods").withVerbs("get", "list").endRule().build()).serverSideApply();
        admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata().withName("pod-reader")
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "pod-reader")
                .addNewSubject().withKind("ServiceAccount").withName("pod-reader").withNamespace(ns).endSubject()
                .build()).serverSideApply();

        assertThat(narrow.pods().inNamespace(ns).list().getItems()).isEmpty();
        assertThatThrownBy(() -> narrow.secrets().inNamespace(ns).list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        assertThatThrownBy(() -> narrow.pods().inNamespace("default").list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));

        Kubectl asServiceAccount = plane.kubectlFor(ns, "pod-reader");
        assertThat(asServiceAccount.run("get", "pods", "-n", ns).exitCode()).isZero();
        CommandResult denied = asServiceAccount.run("get", "secrets", "-n", ns);
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.stderr()).contains("Forbidden").contains("system:serviceaccount:rbac-test:pod-reader");
        assertThat(asServiceAccount.run("auth", "can-i", "delete", "pods", "-n", ns).stdout().strip()).isEqualTo("no");
    }
}
