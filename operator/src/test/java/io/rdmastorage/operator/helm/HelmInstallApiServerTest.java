package io.rdmastorage.operator.helm;

import static io.rdmastorage.operator.helm.HelmChart.FULLNAME;
import static io.rdmastorage.operator.helm.HelmChart.objects;
import static io.rdmastorage.operator.helm.HelmChart.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chart installed into a real kube-apiserver (the test control plane: RBAC and Pod Security
 * admission on, no scheduler or kubelet for the operator's own pods): with {@code helm install}
 * as an admin runs it, and rendered then applied as Argo CD does. Every object must be accepted
 * by a real Kubernetes, and the installed RBAC and namespace must do what the operator needs.
 */
class HelmInstallApiServerTest {

    private static LocalControlPlane plane;
    private static KubernetesClient admin;

    @BeforeAll
    static void controlPlane() {
        plane = LocalControlPlane.shared();
        admin = plane.adminClient();
    }

    @Test
    void helmInstallIntoALabelledNamespace() {
        String ns = "rso-helm-install";
        createNamespace(ns, "privileged");
        String release = "rso-install";
        String fullname = release + "-rdma-storage-operator";
        Release installed = HelmChart.helm().install().withName(release).withNamespace(ns)
                .withKubeConfig(plane.kubeconfig()).call();
        try {
            assertThat(installed.getStatus()).isEqualTo("deployed");

            // the CRDs from the chart's crds/ folder are served: kubectl get rdmastorage works
            plane.kubectl().awaitEstablished(Duration.ofSeconds(60), "crd/rdmastorageprofiles.rdmastorage.io",
                    "crd/rdmastoragenodes.rdmastorage.io");
            plane.kubectl().run("get", "rdmastorage").orThrow("kubectl get rdmastorage");

            Deployment deployment = admin.apps().deployments().inNamespace(ns).withName(fullname).get();
            assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo(fullname);
            assertThat(admin.serviceAccounts().inNamespace(ns).withName(fullname).get()).isNotNull();
            assertThat(admin.services().inNamespace(ns).withName(fullname + "-metrics").get()).isNotNull();
            assertThat(admin.rbac().clusterRoles().withName(fullname).get().getRules())
                    .isEqualTo(HelmChart.rulesFile("cluster-rules.yaml"));
            assertThat(admin.rbac().roles().inNamespace(ns).withName(fullname).get().getRules())
                    .isEqualTo(HelmChart.rulesFile("namespace-rules.yaml"));
            assertThat(admin.rbac().roles().inNamespace(VerdictEvents.NAMESPACE).withName(fullname + "-events").get().getRules())
                    .isEqualTo(HelmChart.rulesFile("events-rules.yaml"));

            // the bindings give the operator's account what it needs, where it needs it, and no more
            Kubectl asOperator = plane.kubectlFor(ns, fullname);
            assertThat(canI(asOperator, "list", "rdmastorageprofiles.rdmastorage.io")).isTrue();
            assertThat(canI(asOperator, "patch", "rdmastoragenodes.rdmastorage.io/status")).isTrue();
            assertThat(canI(asOperator, "patch", "nodes")).isTrue();
            assertThat(canI(asOperator, "create", "pods", "-n", ns)).isTrue();
            assertThat(canI(asOperator, "update", "leases.coordination.k8s.io", "-n", ns)).isTrue();
            assertThat(canI(asOperator, "create", "pods", "-n", "default")).as("probe pods only in its own namespace").isFalse();
            assertThat(canI(asOperator, "create", "events", "-n", VerdictEvents.NAMESPACE)).as("Events in default").isTrue();
            assertThat(canI(asOperator, "create", "events", "-n", ns)).as("Events in default only").isFalse();
            assertThat(canI(asOperator, "create", "events", "--all-namespaces")).as("no Events cluster-wide").isFalse();
            assertThat(canI(asOperator, "get", "secrets", "-n", ns)).isFalse();
            assertThat(canI(asOperator, "delete", "nodes")).isFalse();
        } finally {
            Helm.uninstall(release).withNamespace(ns).withKubeConfig(plane.kubeconfig()).call();
        }
        assertThat(admin.rbac().clusterRoles().withName(fullname).get()).as("uninstalled").isNull();
        assertThat(admin.rbac().roles().inNamespace(VerdictEvents.NAMESPACE).withName(fullname + "-events").get())
                .as("the events Role uninstalled with the release").isNull();
    }

    @Test
    void helmInstallRefusesANamespaceWithoutThePrivilegedPodSecurityLabel() {
        String ns = "rso-helm-unlabelled";
        createNamespace(ns, null);
        assertThatThrownBy(() -> HelmChart.helm().install().withName("rso-unlabelled").withNamespace(ns)
                .withKubeConfig(plane.kubeconfig()).call())
                .hasMessageContaining("kubectl label namespace " + ns + " pod-security.kubernetes.io/enforce=privileged");
        assertThat(admin.rbac().clusterRoles().withName("rso-unlabelled-rdma-storage-operator").get()).isNull();
    }

    /**
     * OpenShift's way, as far as a Kubernetes API server shows it: no Pod Security label needed or
     * checked, and the probe pods' account (and only it) may use the privileged SCC, in the release
     * namespace only. (No OpenShift cluster here: the SCC admission itself is not exercised.)
     */
    @Test
    void helmInstallWithOpenShiftGrantsTheSccInsteadOfNeedingTheLabel() {
        String ns = "rso-helm-openshift";
        createNamespace(ns, null);
        String release = "rso-openshift";
        String fullname = release + "-rdma-storage-operator";
        HelmChart.helm().install().withName(release).withNamespace(ns).set("openshift.enabled", true)
                .withKubeConfig(plane.kubeconfig()).call();
        try {
            assertThat(mayUsePrivilegedScc(ns, "default", ns)).isTrue();
            assertThat(mayUsePrivilegedScc(ns, "default", "default")).as("in the release namespace only").isFalse();
            assertThat(mayUsePrivilegedScc(ns, fullname, ns)).as("not the operator's own account").isFalse();
        } finally {
            Helm.uninstall(release).withNamespace(ns).withKubeConfig(plane.kubeconfig()).call();
        }
        assertThat(admin.rbac().roles().inNamespace(ns).withName(fullname + "-probe-scc").get()).as("uninstalled").isNull();
    }

    /**
     * Argo CD's way: render (the Namespace object with its Pod Security label, the ServiceMonitor)
     * and apply. The ServiceMonitor needs prometheus-operator's CRD, which is not available
     * offline here: a minimal stand-in (same group, version and kind, schema open) is applied first.
     */
    @Test
    void renderedChartWithNamespaceAndServiceMonitorIsAcceptedByServerSideApply() {
        String ns = "rso-helm-gitops";
        plane.kubectl().applyYaml(SERVICE_MONITOR_CRD).orThrow("apply ServiceMonitor CRD stand-in");
        plane.kubectl().awaitEstablished(Duration.ofSeconds(60), "crd/servicemonitors.monitoring.coreos.com");
        String rendered = HelmChart.template(ns, Map.of("namespace.create", true, "metrics.serviceMonitor.enabled", true,
                "logging.format", "json", "replicaCount", 1));
        List<HasMetadata> objects = objects(rendered);
        try {
            // CRDs first, as Helm and Argo CD do (other tests or a helm install may have applied them already)
            plane.kubectl().apply(HelmChart.DIR.resolve("crds")).orThrow("apply chart CRDs");
            plane.kubectl().runWithInput(rendered, "apply", "--server-side", "--field-manager=argocd-controller", "-f", "-")
                    .orThrow("kubectl apply --server-side of the rendered chart");
            assertThat(admin.namespaces().withName(ns).get().getMetadata().getLabels())
                    .containsEntry("pod-security.kubernetes.io/enforce", "privileged");
            assertThat(admin.genericKubernetesResources("monitoring.coreos.com/v1", "ServiceMonitor").inNamespace(ns)
                    .withName(FULLNAME).get()).isNotNull();
            assertThat(admin.apps().deployments().inNamespace(ns).withName(FULLNAME).get().getSpec().getReplicas()).isEqualTo(1);
            // applying again changes nothing and conflicts with nothing (what a GitOps sync does every few minutes)
            plane.kubectl().runWithInput(rendered, "apply", "--server-side", "--field-manager=argocd-controller", "-f", "-")
                    .orThrow("second apply");
        } finally {
            admin.rbac().clusterRoleBindings().withName(FULLNAME).delete();
            admin.rbac().clusterRoles().withName(FULLNAME).delete();
            admin.rbac().roleBindings().inNamespace(VerdictEvents.NAMESPACE).withName(FULLNAME + "-events").delete();
            admin.rbac().roles().inNamespace(VerdictEvents.NAMESPACE).withName(FULLNAME + "-events").delete();
        }
        assertThat(objects).extracting(HasMetadata::getKind).contains("Namespace", "ServiceMonitor");
    }

    /**
     * The operator's own pod meets Pod Security "restricted" (although its namespace is
     * privileged for the probe pods): the rendered pod template is created, as a server-side dry
     * run, in a namespace that enforces restricted. A control pod without the seccomp profile is refused there.
     */
    @Test
    void operatorPodPassesPodSecurityRestricted() {
        String ns = "rso-helm-restricted";
        createNamespace(ns, "restricted");
        Deployment deployment = only(objects(HelmChart.template(ns, Map.of())), Deployment.class);
        Pod pod = new PodBuilder().withNewMetadata().withName("operator-restricted").withNamespace(ns)
                .withLabels(deployment.getSpec().getTemplate().getMetadata().getLabels()).endMetadata()
                .withSpec(deployment.getSpec().getTemplate().getSpec()).build();
        assertThat(admin.pods().inNamespace(ns).resource(pod).dryRun().create()).isNotNull();

        Pod weakened = new PodBuilder(pod).editSpec().editSecurityContext().withSeccompProfile(null).endSecurityContext()
                .editFirstContainer().editSecurityContext().withSeccompProfile(null).endSecurityContext().endContainer()
                .endSpec().build();
        assertThatThrownBy(() -> admin.pods().inNamespace(ns).resource(weakened).dryRun().create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("restricted");
    }

    private static void createNamespace(String name, String podSecurity) {
        NamespaceBuilder namespace = new NamespaceBuilder().withNewMetadata().withName(name).endMetadata();
        if (podSecurity != null) {
            namespace.editMetadata().addToLabels("pod-security.kubernetes.io/enforce", podSecurity).endMetadata();
        }
        admin.namespaces().resource(namespace.build()).serverSideApply();
    }

    /**
     * What OpenShift's SCC admission asks RBAC: may the service account {@code namespace/account}
     * {@code use} the SCC {@code privileged} in {@code where}? (A SubjectAccessReview: kubectl's
     * {@code auth can-i} would first look the resource type up, and this server has no SCCs.)
     */
    private static boolean mayUsePrivilegedScc(String namespace, String account, String where) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec()
                .withUser("system:serviceaccount:" + namespace + ":" + account)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated")
                .withNewResourceAttributes().withGroup("security.openshift.io").withResource("securitycontextconstraints")
                    .withName("privileged").withVerb("use").withNamespace(where).endResourceAttributes()
                .endSpec().build();
        return admin.authorization().v1().subjectAccessReview().create(review).getStatus().getAllowed();
    }

    private static boolean canI(Kubectl kubectl, String... args) {
        String[] command = new String[args.length + 2];
        command[0] = "auth";
        command[1] = "can-i";
        System.arraycopy(args, 0, command, 2, args.length);
        CommandResult result = kubectl.run(command);
        return result.stdout().strip().equals("yes");
    }

    private static final String SERVICE_MONITOR_CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: servicemonitors.monitoring.coreos.com
            spec:
              group: monitoring.coreos.com
              scope: Namespaced
              names: {kind: ServiceMonitor, listKind: ServiceMonitorList, plural: servicemonitors, singular: servicemonitor}
              versions:
                - name: v1
                  served: true
                  storage: true
                  schema:
                    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
            """;
}
