package io.rdmastorage.operator.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.SimulatedNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe pod as built by {@link ProbePodFactory}, against a real kube-apiserver: accepted in a
 * namespace at Pod Security level privileged (and refused at baseline: the posture is real), run
 * by a simulated kubelet with the real node-probe on a healthy fixture node, and harvested by
 * {@link ProbeOutcomeReader}.
 */
class ProbePodApiServerTest {

    private static final String ID = UUID.randomUUID().toString().substring(0, 6);
    private static final String NAMESPACE = "rso-probe-" + ID;
    private static final String NODE = "probe-it-gpu-" + ID;
    private static final String PROFILE = "probe-it-" + ID;

    private static KubernetesClient admin;
    private static SimulatedCluster cluster;
    private static final List<String> namespaces = new ArrayList<>();

    @TempDir
    static Path hostRoot;

    @BeforeAll
    static void startCluster() {
        LocalControlPlane plane = LocalControlPlane.shared();
        admin = plane.adminClient();
        plane.kubectl().apply(Path.of("../crds")).orThrow("kubectl apply crds");
        plane.kubectl().awaitEstablished(Duration.ofSeconds(30), "crd/rdmastorageprofiles.rdmastorage.io");
        namespace(NAMESPACE, "privileged");
        NodeScenarios.healthy(FixtureHost.at(hostRoot));
        cluster = SimulatedCluster.builder(admin).start();
        cluster.addNode(SimulatedNode.named(NODE).withHostRoot(hostRoot));
    }

    @AfterAll
    static void stopCluster() {
        if (admin == null) {
            return;
        }
        admin.resources(RdmaStorageProfile.class).withName(PROFILE).delete();
        // no controller-manager: owned objects are not collected, namespaces stay Terminating
        for (String ns : namespaces) {
            admin.pods().inNamespace(ns).delete();
            admin.configMaps().inNamespace(ns).delete();
            admin.namespaces().withName(ns).delete();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static void namespace(String name, String podSecurityLevel) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of("pod-security.kubernetes.io/enforce", podSecurityLevel)).endMetadata().build()).create();
        namespaces.add(name);
    }

    private static OperatorConfig config(String namespace) {
        return new OperatorConfig(namespace, OperatorConfig.DEFAULT_PROBE_IMAGE, "IfNotPresent", false, 0);
    }

    /**
     * The DESIGN example less latency and rdma.userspaceVerbs, applied with kubectl as a user would,
     * and read back: uid, generation and the CRD's defaults are the server's.
     */
    private static RdmaStorageProfile createProfile() {
        String yaml = TestProfiles.DESIGN_EXAMPLE
                .replace("metadata: {name: gpfs-gds-training}", "metadata: {name: " + PROFILE + "}")
                .replace("    userspaceVerbs: true\n", "")
                .replaceAll("(?s)  latency:.*?  ceph:", "  ceph:");
        assertThat(yaml).doesNotContain("latency", "userspaceVerbs").contains("name: " + PROFILE);
        LocalControlPlane.shared().kubectl().applyYaml(yaml).orThrow("kubectl apply the profile");
        return admin.resources(RdmaStorageProfile.class).withName(PROFILE).get();
    }

    @Test
    void aProbePodRunsOnItsNodeAndFinishesWithTheHealthyReport() throws Exception {
        RdmaStorageProfile profile = createProfile();
        assertThat(profile.getMetadata().getUid()).isNotEmpty();
        OperatorConfig config = config(NAMESPACE);

        ProbeSpecDocument document = ProbeSpecDocument.of(profile.getSpec());
        ConfigMap specMap = admin.configMaps().resource(ProbeSpecConfigMap.build(profile, document, config)).create();
        assertThat(specMap.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(profile.getMetadata().getUid()));
        Pod built = ProbePodFactory.build(profile, NODE, 1, config);
        Pod created = admin.pods().resource(built).create();

        // what the API server kept is what was built: nothing dropped, nothing loosened
        assertThat(created.getSpec().getContainers().get(0).getSecurityContext())
                .isEqualTo(built.getSpec().getContainers().get(0).getSecurityContext());
        assertThat(created.getSpec().getVolumes()).hasSize(3);
        assertThat(created.getSpec().getAutomountServiceAccountToken()).isFalse();

        // a restarted operator creating the same round again gets AlreadyExists, not a second pod
        assertThatThrownBy(() -> admin.pods().resource(ProbePodFactory.build(profile, NODE, 1, config)).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

        ProbeOutcome outcome = awaitOutcome(built.getMetadata().getName(), Duration.ofSeconds(60));

        assertThat(outcome).isInstanceOfSatisfying(ProbeOutcome.Finished.class, finished -> {
            assertThat(finished.exitCode()).isZero();
            JsonNode report = json(finished.terminationMessage());
            assertThat(report.path("kind").asText()).isEqualTo("NodeProbeReport");
            assertThat(report.path("node").asText()).isEqualTo(NODE);
            assertThat(report.path("status").asText()).isEqualTo("True");
            List<String> types = new ArrayList<>();
            report.path("checks").forEach(c -> types.add(c.path("type").asText() + "=" + c.path("status").asText()));
            assertThat(types).containsExactly("RdmaDevices=True", "GpfsVerbs=True", "NvmeofRdma=True",
                    "GdsReady=True", "CephMessenger=True");
        });
    }

    @Test
    void theBaselinePodSecurityLevelRefusesTheProbePod() throws Exception {
        String baseline = NAMESPACE + "-baseline";
        namespace(baseline, "baseline");
        RdmaStorageProfile profile = createProfile();
        Pod pod = ProbePodFactory.build(profile, NODE, 2, config(baseline));

        assertThatThrownBy(() -> admin.pods().resource(pod).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getMessage()).contains("violates PodSecurity \"baseline:latest\"",
                            "privileged", "hostPath volumes");
                });
    }

    private static ProbeOutcome awaitOutcome(String podName, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        ProbeOutcome outcome = null;
        while (Instant.now().isBefore(deadline)) {
            Pod pod = admin.pods().inNamespace(NAMESPACE).withName(podName).get();
            outcome = ProbeOutcomeReader.of(pod, Instant.now(), Duration.ofMinutes(3));
            if (!(outcome instanceof ProbeOutcome.InProgress)) {
                return outcome;
            }
            Thread.sleep(100);
        }
        return outcome;
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("termination message is not JSON: " + text, e);
        }
    }
}
