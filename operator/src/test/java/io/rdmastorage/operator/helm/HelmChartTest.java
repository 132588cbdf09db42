package io.rdmastorage.operator.helm;

import static io.rdmastorage.operator.helm.HelmChart.FULLNAME;
import static io.rdmastorage.operator.helm.HelmChart.kinds;
import static io.rdmastorage.operator.helm.HelmChart.objects;
import static io.rdmastorage.operator.helm.HelmChart.only;
import static io.rdmastorage.operator.helm.HelmChart.template;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.events.VerdictEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The chart linted and rendered (helm lint --strict, helm template) with default and non-default values. */
class HelmChartTest {

    private static final String NS = "rdma-storage-system";

    @Test
    void lintsCleanInStrictMode() {
        LintResult lint = HelmChart.helm().lint().strict().call();
        assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @Test
    void defaultValuesRenderTheOperatorWithLeaderElectionAndRestrictedPods() {
        List<HasMetadata> objects = objects(template(NS, Map.of()));
        assertThat(kinds(objects)).containsExactlyInAnyOrder("ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                "ClusterRole", "ClusterRole",
                "Role", "RoleBinding", "Role", "RoleBinding", "Service", "Deployment");
        assertThat(objects).allSatisfy(o -> assertThat(o.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "Helm")
                .containsEntry("app.kubernetes.io/instance", HelmChart.RELEASE));

        Deployment deployment = only(objects, Deployment.class);
        assertThat(deployment.getMetadata().getNamespace()).isEqualTo(NS);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container operator = pod.getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("ghcr.io/rdma-storage-operator/rdma-storage-operator:0.1.0");

        // the environment the chart sets is read by the operator into the configuration we expect
        Map<String, String> env = env(operator);
        assertThat(OperatorConfig.fromEnvironment(env))
                .isEqualTo(new OperatorConfig(NS, OperatorConfig.DEFAULT_PROBE_IMAGE, "IfNotPresent", true, 8080));
        assertThat(env).containsEntry("RSO_LOG_LEVEL", "INFO").containsEntry("RSO_LOG_FORMAT", "text")
                .doesNotContainKey("JAVA_TOOL_OPTIONS");

        assertThat(operator.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("metrics");
            assertThat(p.getContainerPort()).isEqualTo(8080);
        });
        assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(operator.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
        assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(operator.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
        assertThat(operator.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(operator.getResources().getLimits()).containsKey("memory");

        assertThat(pod.getServiceAccountName()).isEqualTo(FULLNAME);
        assertThat(pod.getAutomountServiceAccountToken()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(operator.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(operator.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(operator.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(operator.getVolumeMounts()).singleElement().satisfies(m -> {
            assertThat(m.getMountPath()).isEqualTo("/tmp");
            assertThat(pod.getVolumes()).singleElement().satisfies(v -> {
                assertThat(v.getName()).isEqualTo(m.getName());
                assertThat(v.getEmptyDir()).isNotNull();
            });
        });

        ServiceAccount account = only(objects, ServiceAccount.class);
        assertThat(account.getMetadata().getName()).isEqualTo(FULLNAME);
        assertThat(account.getMetadata().getNamespace()).isEqualTo(NS);
        assertThat(account.getAutomountServiceAccountToken()).as("only the operator's pods mount a token").isFalse();

        Service service = only(objects, Service.class);
        assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("metrics");
            assertThat(p.getPort()).isEqualTo(8080);
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("metrics");
        });

        ClusterRoleBinding clusterBinding = only(objects, ClusterRoleBinding.class);
        assertThat(clusterBinding.getRoleRef().getName()).isEqualTo(operatorClusterRole(objects).getMetadata().getName());
        assertThat(clusterBinding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo(FULLNAME);
            assertThat(s.getNamespace()).isEqualTo(NS);
        });
        for (String namespace : List.of(NS, VerdictEvents.NAMESPACE)) {
            RoleBinding binding = onlyIn(objects, RoleBinding.class, namespace);
            assertThat(binding.getRoleRef().getName()).isEqualTo(onlyIn(objects, Role.class, namespace).getMetadata().getName());
            assertThat(binding.getSubjects()).as(namespace).singleElement().satisfies(s -> {
                assertThat(s.getName()).isEqualTo(FULLNAME);
                assertThat(s.getNamespace()).isEqualTo(NS);
            });
        }
    }

    @Test
    void rbacRulesAreExactlyTheFilesTheLeastPrivilegeTestProves() {
        List<HasMetadata> objects = objects(template(NS, Map.of()));
        assertThat(operatorClusterRole(objects).getRules()).isEqualTo(HelmChart.rulesFile("cluster-rules.yaml"));
        assertThat(onlyIn(objects, Role.class, NS).getRules()).isEqualTo(HelmChart.rulesFile("namespace-rules.yaml"));
        // Events only where the operator writes them: a Role in "default", none in the ClusterRole
        assertThat(onlyIn(objects, Role.class, VerdictEvents.NAMESPACE).getRules())
                .isEqualTo(HelmChart.rulesFile("events-rules.yaml"));
        assertThat(operatorClusterRole(objects).getRules()).noneMatch(r -> r.getResources().contains("events"));
    }

    @Test
    void inTheDefaultNamespaceTheEventsRoleIsOneOfItsOwn() {
        List<HasMetadata> objects = objects(template("default", Map.of()));
        List<Role> roles = objects.stream().filter(Role.class::isInstance).map(Role.class::cast).toList();
        assertThat(roles).extracting(r -> r.getMetadata().getName()).containsExactlyInAnyOrder(FULLNAME, FULLNAME + "-events");
        assertThat(roles).allSatisfy(r -> assertThat(r.getMetadata().getNamespace()).isEqualTo("default"));
    }

    /** The one object of {@code kind} in {@code namespace}. */
    private static <T extends HasMetadata> T onlyIn(List<HasMetadata> objects, Class<T> kind, String namespace) {
        return only(objects.stream().filter(o -> namespace.equals(o.getMetadata().getNamespace())).toList(), kind);
    }

    @Test
    void nonDefaultValuesFile(@TempDir Path dir) throws IOException {
        String digest = "sha256:" + "ab".repeat(32);
        Path values = Files.writeString(dir.resolve("values.yaml"), """
                replicaCount: 1
                image:
                  repository: registry.example/rso/operator
                  tag: "1.2.3"
                  pullPolicy: Always
                probe:
                  image:
                    repository: registry.example/rso/node-probe
                    digest: "%s"
                    pullPolicy: Always
                imagePullSecrets: [{name: regcred}]
                logging:
                  level: DEBUG
                  format: json
                metrics:
                  port: 9090
                  serviceMonitor:
                    enabled: true
                    labels: {release: kube-prometheus-stack}
                    interval: 1m
                namespace:
                  create: true
                  # cannot weaken the Pod Security label the probe pods need
                  labels: {team: storage, pod-security.kubernetes.io/enforce: baseline}
                jvmOptions: "-XX:MaxRAMPercentage=60"
                extraEnv:
                  - {name: HTTPS_PROXY, value: "http://proxy.example:3128"}
                nodeSelector: {node-role.kubernetes.io/control-plane: ""}
                """.formatted(digest));
        List<HasMetadata> objects = objects(template("storage-probes", values, Map.of()));
        assertThat(kinds(objects)).contains("Namespace", "ServiceMonitor");

        Deployment deployment = only(objects, Deployment.class);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        assertThat(deployment.getSpec().getStrategy().getType())
                .as("one unelected operator: never two side by side during an update").isEqualTo("Recreate");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container operator = pod.getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("registry.example/rso/operator:1.2.3");
        assertThat(operator.getImagePullPolicy()).isEqualTo("Always");
        assertThat(pod.getImagePullSecrets()).singleElement().satisfies(s -> assertThat(s.getName()).isEqualTo("regcred"));
        assertThat(pod.getNodeSelector()).containsEntry("node-role.kubernetes.io/control-plane", "");
        Map<String, String> env = env(operator);
        assertThat(env).doesNotContainKey("RSO_LEADER_ELECTION")
                .containsEntry("RSO_LOG_LEVEL", "DEBUG")
                .containsEntry("RSO_LOG_FORMAT", "json")
                .containsEntry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=60")
                .containsEntry("HTTPS_PROXY", "http://proxy.example:3128");
        assertThat(OperatorConfig.fromEnvironment(env)).isEqualTo(new OperatorConfig("storage-probes",
                "registry.example/rso/node-probe@" + digest, "Always", false, 9090));
        assertThat(operator.getPorts().get(0).getContainerPort()).isEqualTo(9090);

        Service service = only(objects, Service.class);
        assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(9090);
        GenericKubernetesResource monitor = only(objects, GenericKubernetesResource.class);
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.getKind()).isEqualTo("ServiceMonitor");
        assertThat(monitor.getMetadata().getNamespace()).isEqualTo("storage-probes");
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
        Map<String, String> monitorSelector = monitor.get("spec", "selector", "matchLabels");
        assertThat(service.getMetadata().getLabels()).as("the ServiceMonitor selects the metrics Service")
                .containsAllEntriesOf(monitorSelector);
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertThat(endpoints).singleElement().satisfies(e -> assertThat(e)
                .containsEntry("port", "metrics").containsEntry("path", "/metrics").containsEntry("interval", "1m"));

        Namespace namespace = only(objects, Namespace.class);
        assertThat(namespace.getMetadata().getName()).isEqualTo("storage-probes");
        assertThat(namespace.getMetadata().getLabels())
                .containsEntry("pod-security.kubernetes.io/enforce", "privileged")
                .containsEntry("team", "storage");
    }

    /**
     * openshift.enabled: the probe pods' account (the namespace's default) may use the privileged SCC,
     * in the release namespace only; no Pod Security label on the rendered namespace; the operator's
     * pod leaves its user and group to the SCC's range and stays restricted otherwise.
     */
    @Test
    void openShiftGrantsThePrivilegedSccToTheProbePodsAccountOnly() {
        List<HasMetadata> plain = objects(template(NS, Map.of()));
        assertThat(plain).noneMatch(o -> o.getMetadata().getName().endsWith("-probe-scc"));

        List<HasMetadata> objects = objects(template(NS, Map.of("openshift.enabled", true, "namespace.create", true)));
        Role scc = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> r.getMetadata().getName().equals(FULLNAME + "-probe-scc")).findFirst().orElseThrow();
        assertThat(scc.getMetadata().getNamespace()).isEqualTo(NS);
        assertThat(scc.getRules()).isEqualTo(HelmChart.rulesFile("probe-scc-rules.yaml")).singleElement().satisfies(r -> {
            assertThat(r.getApiGroups()).containsExactly("security.openshift.io");
            assertThat(r.getResources()).containsExactly("securitycontextconstraints");
            assertThat(r.getResourceNames()).containsExactly("privileged");
            assertThat(r.getVerbs()).containsExactly("use");
        });
        RoleBinding binding = objects.stream().filter(RoleBinding.class::isInstance).map(RoleBinding.class::cast)
                .filter(b -> b.getMetadata().getName().equals(FULLNAME + "-probe-scc")).findFirst().orElseThrow();
        assertThat(binding.getRoleRef().getName()).isEqualTo(FULLNAME + "-probe-scc");
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo("default");
            assertThat(subject.getNamespace()).isEqualTo(NS);
        });
        assertThat(only(objects, Namespace.class).getMetadata().getLabels()).doesNotContainKey("pod-security.kubernetes.io/enforce");
        var podSecurity = only(objects, Deployment.class).getSpec().getTemplate().getSpec().getSecurityContext();
        assertThat(podSecurity.getRunAsUser()).as("assigned by the SCC").isNull();
        assertThat(podSecurity.getRunAsGroup()).isNull();
        assertThat(podSecurity.getRunAsNonRoot()).isTrue();
        assertThat(podSecurity.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    @Test
    void serviceMonitorIsOffByDefaultAndOnWhenAsked() {
        assertThat(kinds(objects(template(NS, Map.of())))).doesNotContain("ServiceMonitor", "Namespace");
        assertThat(kinds(objects(template(NS, Map.of("metrics.serviceMonitor.enabled", true))))).contains("ServiceMonitor");
    }

    /** values.schema.json refuses bad values when the chart is rendered, naming the value. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "replicaCount|two|replicaCount",
            "replicaCount|-1|replicaCount",
            "logging.format|xml|format",
            "logging.level|verbose|level",
            "metrics.port|80|port",
            "image.pullPolicy|Sometimes|pullPolicy",
            "probe.image.digest|sha256:abc|digest",
            "podSecurityContext.runAsUser|0|runAsUser",
            "metrics.serviceMonitor.interval|soon|interval",
            "replicas|2|replicas",
            "openshift.enabled|yes|enabled",
            "acceptance.pathPrefixes[0]|/proc/sys|pathPrefixes/0",
            "acceptance.pathPrefixes[0]|relative/dir|pathPrefixes/0",
            "acceptance.nvmeofAddresses[0]|storage.example|nvmeofAddresses/0",
            "acceptance.maxFileSizeMiB|100000|maxFileSizeMiB",
            "acceptance.maxDurationSeconds|86400|maxDurationSeconds",
            "acceptance.allowControlPlane|yes|allowControlPlane",
    })
    void schemaRefusesBadValues(String key, String value, String named) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put(key, value);
        assertThatThrownBy(() -> template(NS, values))
                .hasMessageContaining("schema")
                .hasMessageContaining(named);
    }

    /** Security round 4 (3): the chart's default takes no runs on any node, and its NOTES say so. */
    @Test
    void theNotesSayThatNoNodeTakesAcceptanceRunsUntilTheAdminNamesThem() {
        assertThat(notes(Map.of())).contains("Acceptance runs (RdmaStorageAcceptance) are off on every node",
                "acceptance.nodeSelector");
        assertThat(notes(Map.of("acceptance.nodeSelector.rdmastorage\\.io/acceptance", "yes")))
                .contains("Acceptance runs may go to nodes labelled rdmastorage.io/acceptance=yes (never the control plane)")
                .doesNotContain("are off on every node");
    }

    private static String notes(Map<String, Object> values) {
        var install = HelmChart.helm().install().withName(HelmChart.RELEASE).withNamespace("rdma-storage-system").dryRun()
                .clientOnly();
        Map<String, Object> all = new java.util.LinkedHashMap<>(HelmChart.OFFLINE);
        all.putAll(values);
        for (Map.Entry<String, Object> value : all.entrySet()) {
            install = install.set(value.getKey(), value.getValue());
        }
        String output = install.call().getOutput();
        return output.substring(output.indexOf("NOTES:"));
    }

    @Test
    void acceptanceValuesReachTheOperatorAsItsBounds() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("acceptance.nodeSelector.rdmastorage\\.io/acceptance", "yes");
        values.put("acceptance.allowControlPlane", true);
        values.put("acceptance.pathPrefixes[0]", "/gpfs/fs1/acceptance/");
        values.put("acceptance.pathPrefixes[1]", "/mnt/nfs/");
        values.put("acceptance.nvmeofAddresses[0]", "10.68.20.0/24");
        values.put("acceptance.nvmeofAddresses[1]", "fd00::7");
        values.put("acceptance.nvmeofAddresses[2]", "10.68.21.0/24:4420");
        values.put("acceptance.nvmeofAddresses[3]", "[fd00::8]:4420");
        values.put("acceptance.maxFileSizeMiB", 8192);
        values.put("acceptance.maxDurationSeconds", 1800);
        Container operator = only(objects(template(NS, values)), Deployment.class).getSpec().getTemplate().getSpec()
                .getContainers().get(0);

        assertThat(OperatorConfig.fromEnvironment(env(operator)).acceptance()).isEqualTo(new AcceptanceBounds(
                Map.of("rdmastorage.io/acceptance", "yes"), true, List.of("/gpfs/fs1/acceptance/", "/mnt/nfs/"),
                List.of("10.68.20.0/24", "fd00::7", "10.68.21.0/24:4420", "[fd00::8]:4420"), 8192, 1800));
    }

    @Test
    void byDefaultRunsGoToNoControlPlaneNodeAndThePathTargetIsOff() {
        Container operator = only(objects(template(NS, Map.of())), Deployment.class).getSpec().getTemplate().getSpec()
                .getContainers().get(0);

        AcceptanceBounds bounds = OperatorConfig.fromEnvironment(env(operator)).acceptance();
        assertThat(bounds).isEqualTo(AcceptanceBounds.DEFAULT);
        assertThat(bounds.allowControlPlane()).isFalse();
        assertThat(bounds.pathPrefixes()).isEmpty();
        assertThat(bounds.nvmeofAddresses()).isEmpty();
    }

    /** Creating runs is a node-level privilege: in no aggregated role; reading them is in view. */
    @Test
    void creatingRunsIsOnlyInTheAcceptanceAdminRoleAndReadingThemIsAggregatedIntoView() {
        List<ClusterRole> roles = objects(template(NS, Map.of())).stream().filter(ClusterRole.class::isInstance)
                .map(ClusterRole.class::cast).toList();
        ClusterRole admin = roles.stream().filter(r -> r.getMetadata().getName().equals(FULLNAME + "-acceptance-admin"))
                .findFirst().orElseThrow();
        ClusterRole viewer = roles.stream().filter(r -> r.getMetadata().getName().equals(FULLNAME + "-acceptance-viewer"))
                .findFirst().orElseThrow();

        assertThat(admin.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getApiGroups()).containsExactly("rdmastorage.io");
            assertThat(r.getResources()).containsExactly("rdmastorageacceptances");
            assertThat(r.getVerbs()).contains("create", "delete");
        });
        assertThat(viewer.getMetadata().getLabels()).containsEntry("rbac.authorization.k8s.io/aggregate-to-view", "true");
        assertThat(viewer.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getResources()).containsExactly("rdmastorageacceptances");
            assertThat(r.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        });
        // no role the chart ships that can create runs is aggregated anywhere (view, edit, admin)
        assertThat(roles).filteredOn(r -> r.getRules().stream().anyMatch(rule -> rule.getVerbs().contains("create")
                        && rule.getResources().contains("rdmastorageacceptances")))
                .allSatisfy(r -> assertThat(r.getMetadata().getLabels().keySet())
                        .noneMatch(l -> l.startsWith("rbac.authorization.k8s.io/aggregate-to-")));
        assertThat(roles).allSatisfy(r -> assertThat(r.getMetadata().getLabels().keySet())
                .doesNotContain("rbac.authorization.k8s.io/aggregate-to-edit", "rbac.authorization.k8s.io/aggregate-to-admin"));
    }

    /** The operator's own ClusterRole, beside the acceptance roles the chart ships for users. */
    private static ClusterRole operatorClusterRole(List<HasMetadata> objects) {
        return objects.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
                .filter(r -> r.getMetadata().getName().equals(FULLNAME)).findFirst().orElseThrow();
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e.getValue() == null ? "" : e.getValue(),
                (a, b) -> { throw new AssertionError("duplicate env var " + a); }, LinkedHashMap::new));
    }
}
