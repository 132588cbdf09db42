package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Simulated kubelets complete probe pods with node-probe's real report, and misbehave on demand. */
class SimulatedClusterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String NS = "simulated-cluster-test";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path hostRoots;

    private static KubernetesClient client;
    private static SimulatedCluster cluster;

    @BeforeAll
    static void start() {
        client = LocalControlPlane.shared().adminClient();
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName(NS)
                .endMetadata().build()).serverSideApply();
        ProbePods.specConfigMap(client, NS, "probe-spec", "{\"ceph\":{}}");
        cluster = SimulatedCluster.builder(client).start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static SimulatedNode node(String name) {
        return SimulatedNode.named(name).withHostRoot(ProbePods.cephRdmaHostRoot(hostRoots, name));
    }

    private static Pod create(String podName, String nodeName) {
        return client.pods().inNamespace(NS).resource(ProbePods.probePod(podName, nodeName, "probe-spec", "spec.json")).create();
    }

    private static Pod awaitPod(String name, java.util.function.Predicate<Pod> done, String what) {
        return Await.until(TIMEOUT, () -> client.pods().inNamespace(NS).withName(name).get(), done, name + " " + what);
    }

    private static Pod awaitTerminal(String name) {
        return awaitPod(name, p -> p.getStatus() != null && Set.of("Succeeded", "Failed").contains(p.getStatus().getPhase()),
                "to finish");
    }

    private static ContainerState state(Pod pod) {
        return pod.getStatus().getContainerStatuses().get(0).getState();
    }

    @Test
    void registersNodesAsAKubeletWould() {
        cluster.addNode(node("sim-labels").withLabel("nvidia.com/gpu.present", "true")
                .withTaint("nvidia.com/gpu", "present", "NoSchedule").cordoned());
        cluster.addNode(node("sim-down").notReady());

        Node labelled = client.nodes().withName("sim-labels").get();
        assertThat(labelled.getMetadata().getLabels()).containsEntry("nvidia.com/gpu.present", "true")
                .containsEntry("kubernetes.io/hostname", "sim-labels");
        assertThat(labelled.getSpec().getUnschedulable()).isTrue();
        assertThat(labelled.getSpec().getTaints()).extracting(t -> t.getKey())
                .contains("nvidia.com/gpu", "node.kubernetes.io/unschedulable");
        assertThat(labelled.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        assertThat(labelled.getStatus().getNodeInfo().getKubeletVersion()).startsWith("v1.");
        assertThat(client.nodes().withName("sim-down").get().getStatus().getConditions().get(0).getStatus()).isEqualTo("False");
    }

    @Test
    void probePodCompletesWithTheProbesReportAsTerminationMessage() throws Exception {
        cluster.addNode(node("sim-ok"));
        create("probe-ok", "sim-ok");

        Pod pod = awaitTerminal("probe-ok");

        var terminated = state(pod).getTerminated();
        JsonNode report = JSON.readTree(terminated.getMessage());
        assertThat(report.path("node").asText()).isEqualTo("sim-ok");
        assertThat(report.path("checks").isArray()).isTrue();
        assertThat(terminated.getExitCode()).isIn(0, 1);
        assertThat(pod.getStatus().getPhase()).isEqualTo(terminated.getExitCode() == 0 ? "Succeeded" : "Failed");
        assertThat(terminated.getReason()).isEqualTo(terminated.getExitCode() == 0 ? "Completed" : "Error");
        assertThat(pod.getStatus().getHostIP()).isEqualTo(cluster.hostIp("sim-ok"));
        assertThat(terminated.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(TerminationMessage.MAX_FILE_BYTES);
    }

    @Test
    void benchmarkModeRunsTheProbeOncePerHostRootAndWritesOnlyTheFinalStatus() throws Exception {
        java.util.concurrent.atomic.AtomicInteger launches = new java.util.concurrent.atomic.AtomicInteger();
        ProbeLauncher inProcess = new InProcessProbeLauncher();
        Path shared = ProbePods.cephRdmaHostRoot(hostRoots, "recorded-shared");
        java.util.List<String> names = java.util.List.of("sim-rec-a", "sim-rec-b", "sim-rec-c");
        try (SimulatedCluster recorded = SimulatedCluster.builder(client)
                .probeLauncher((args, env) -> {
                    launches.incrementAndGet();
                    return inProcess.launch(args, env);
                })
                .recordedProbes(true).finalStatusOnly(true).start()) {
            // a watch from the start sees every status the pods go through
            java.util.List<String> phases = new java.util.concurrent.CopyOnWriteArrayList<>();
            try (var watch = client.pods().inNamespace(NS).watch(new io.fabric8.kubernetes.client.Watcher<Pod>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    if (pod.getMetadata().getName().startsWith("probe-rec-") && pod.getStatus() != null) {
                        phases.add(pod.getMetadata().getName() + " " + pod.getStatus().getPhase());
                    }
                }

                @Override
                public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                }
            })) {
                for (String name : names) {
                    recorded.addNode(SimulatedNode.named(name).withHostRoot(shared));
                    create("probe-rec-" + name.substring("sim-rec-".length()), name);
                }
                for (String name : names) {
                    Pod pod = awaitTerminal("probe-rec-" + name.substring("sim-rec-".length()));
                    JsonNode report = JSON.readTree(state(pod).getTerminated().getMessage());
                    assertThat(report.path("node").asText()).isEqualTo(name);
                    assertThat(report.path("checks").isArray()).isTrue();
                }
                Thread.sleep(500);
            }
            assertThat(launches.get()).isEqualTo(1);
            assertThat(phases).noneMatch(p -> p.endsWith(" Running"));
        }
    }

    @Test
    void aProbeThatFailsWithoutReportLeavesItsLogAsMessage() {
        cluster.addNode(node("sim-badspec"));
        client.pods().inNamespace(NS).resource(ProbePods.probePod("probe-badspec", "sim-badspec", "probe-spec", "missing.json")).create();

        Pod pod = awaitTerminal("probe-badspec");

        assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(state(pod).getTerminated().getExitCode()).isEqualTo(2);
        assertThat(state(pod).getTerminated().getMessage()).contains("node-probe");
    }

    @Test
    void podsStayPendingOnANodeThatNeverStartsThem_andRunOnceItRecovers() {
        cluster.addNode(node("sim-pending").withFault(NodeFault.PODS_STAY_PENDING));
        create("probe-pending", "sim-pending");

        Pod pending = awaitPod("probe-pending", p -> p.getStatus().getContainerStatuses() != null
                && !p.getStatus().getContainerStatuses().isEmpty(), "to be seen by its kubelet");
        assertThat(pending.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(state(pending).getWaiting().getReason()).isEqualTo("ContainerCreating");

        cluster.setFault("sim-pending", NodeFault.NONE);
        assertThat(awaitTerminal("probe-pending").getStatus().getContainerStatuses().get(0).getState().getTerminated()).isNotNull();
    }

    @Test
    void imagePullErrorKeepsThePodPending() {
        cluster.addNode(node("sim-pull").withFault(NodeFault.IMAGE_PULL_ERROR));
        create("probe-pull", "sim-pull");

        Pod pod = awaitPod("probe-pull", p -> p.getStatus().getContainerStatuses() != null
                && !p.getStatus().getContainerStatuses().isEmpty()
                && "ImagePullBackOff".equals(state(p).getWaiting() != null ? state(p).getWaiting().getReason() : null),
                "to back off pulling its image");
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(state(pod).getWaiting().getMessage()).contains("node-probe");
    }

    @Test
    void hangingProbeStaysRunning_andDeletionIsConfirmedByTheKubelet() throws Exception {
        cluster.addNode(node("sim-hang").withFault(NodeFault.PROBE_HANGS));
        create("probe-hang", "sim-hang");

        awaitPod("probe-hang", p -> "Running".equals(p.getStatus().getPhase()), "to run");
        Thread.sleep(500);
        assertThat(client.pods().inNamespace(NS).withName("probe-hang").get().getStatus().getPhase()).isEqualTo("Running");

        client.pods().inNamespace(NS).withName("probe-hang").delete();
        Await.until(TIMEOUT, () -> client.pods().inNamespace(NS).withName("probe-hang").get() == null, gone -> gone,
                "probe-hang to be deleted (not stuck Terminating)");
    }

    @Test
    void nodeThatDisappearsMidProbeLeavesItsPodRunning() {
        cluster.addNode(node("sim-vanish").withFault(NodeFault.DISAPPEARS_MID_PROBE));
        create("probe-vanish", "sim-vanish");

        Await.until(TIMEOUT, () -> client.nodes().withName("sim-vanish").get() == null, gone -> gone, "node sim-vanish to go");
        assertThat(client.pods().inNamespace(NS).withName("probe-vanish").get().getStatus().getPhase()).isEqualTo("Running");
        assertThat(cluster.node("sim-vanish")).isEmpty();
    }

    @Test
    void notReadyNodeDoesNothingUntilReady() throws Exception {
        cluster.addNode(node("sim-notready").notReady());
        create("probe-notready", "sim-notready");
        Thread.sleep(1000);
        Pod untouched = client.pods().inNamespace(NS).withName("probe-notready").get();
        assertThat(untouched.getStatus().getContainerStatuses()).isNullOrEmpty();

        cluster.setReady("sim-notready", true);
        assertThat(client.nodes().withName("sim-notready").get().getSpec().getTaints()).isNullOrEmpty();
        awaitTerminal("probe-notready");
    }

    @Test
    void theRealJarRunsAsTheProbeContainer() throws Exception {
        Path jar = Path.of(System.getProperty("rdmastorage.probe.jar", "../node-probe/target/node-probe.jar"));
        Assumptions.assumeTrue(Files.isRegularFile(jar), "build node-probe first (mvn package): no " + jar);
        try (SimulatedCluster withJar = SimulatedCluster.builder(client)
                .probeLauncher(new JarProbeLauncher(jar, Duration.ofSeconds(60))).start()) {
            withJar.addNode(node("sim-jar"));
            create("probe-jar", "sim-jar");

            Pod pod = awaitTerminal("probe-jar");

            JsonNode report = JSON.readTree(state(pod).getTerminated().getMessage());
            assertThat(report.path("node").asText()).isEqualTo("sim-jar");
            assertThat(report.path("checks").isArray()).isTrue();
        }
    }
}
