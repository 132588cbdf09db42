package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A real kubelet, containerd and runc as a node of the test control plane: registered and Ready,
 * a Deployment scheduled and run by the controllers and the kubelet, the termination message
 * read back, and a teardown that leaves nothing on the machine. Needs root, as the VM tier does.
 */
class RealNodeTest {

    private static final String NODE = "rso-real-test";
    /** The sandbox image holds only rso-node: its containers run rso-node's commands. */
    private static final String IMAGE = "registry.k8s.io/pause:3.10";

    @Test
    void aRealNodeRunsPodsAndLeavesNothingBehind() throws Exception {
        List<String> linksBefore = machineLinks();
        Map<Path, Boolean> pathsBefore = RealNode.HARD_CODED_PATHS.stream()
                .collect(java.util.stream.Collectors.toMap(p -> p, Files::exists));
        RealNode node;
        try (LocalControlPlane plane = LocalControlPlane.startWithControllers(NODE)) {
            node = RealNode.start(plane, NODE);
            try {
                KubernetesClient admin = plane.adminClient();
                Node registered = admin.nodes().withName(NODE).get();
                assertThat(registered.getStatus().getNodeInfo().getKubeletVersion()).isEqualTo("v" + plane.kubernetesVersion());
                assertThat(registered.getStatus().getNodeInfo().getContainerRuntimeVersion()).startsWith("containerd://");
                assertThat(registered.getStatus().getAddresses()).extracting(NodeAddress::getAddress).contains(RealNode.NODE_IP);

                // the node lifecycle controller lifts the not-ready taint the kubelet registered with
                Await.until(Duration.ofMinutes(1), () -> admin.nodes().withName(NODE).get(),
                        n -> n.getSpec().getTaints() == null || n.getSpec().getTaints().isEmpty(), "the node without taints");
                // a Deployment: the controller-manager makes its pod, the scheduler binds it, the kubelet runs it
                admin.apps().deployments().inNamespace("default").resource(new DeploymentBuilder()
                        .withNewMetadata().withName("pause").endMetadata()
                        .withNewSpec().withReplicas(1)
                            .withNewSelector().addToMatchLabels("app", "pause").endSelector()
                            .withNewTemplate().withNewMetadata().addToLabels("app", "pause").endMetadata()
                                .withNewSpec().addNewContainer().withName("pause").withImage(IMAGE)
                                    .withCommand("/rso-node", "pause").endContainer()
                                .endSpec().endTemplate()
                        .endSpec().build()).create();
                Pod running = Await.until(Duration.ofMinutes(2), () -> admin.pods().inNamespace("default")
                                .withLabel("app", "pause").list().getItems().stream().findFirst().orElse(null),
                        p -> "Running".equals(p.getStatus().getPhase()), "the Deployment's pod Running");
                assertThat(running.getSpec().getNodeName()).as("bound by the scheduler").isEqualTo(NODE);
                assertThat(running.getStatus().getPodIP()).as("an address from the node's bridge").startsWith("10.88.0.");
                assertThat(running.getSpec().getVolumes()).as("the ServiceAccount admission plugin's token volume")
                        .anyMatch(v -> v.getName().startsWith("kube-api-access-"));

                // a container that fails: its last log lines come back as the termination message
                admin.pods().inNamespace("default").resource(new PodBuilder()
                        .withNewMetadata().withName("fails").endMetadata()
                        .withNewSpec().withNodeName(NODE).withRestartPolicy("Never")
                            .addNewContainer().withName("fails").withImage(IMAGE).withCommand("/rso-node", "no-such-command")
                                .withTerminationMessagePolicy("FallbackToLogsOnError").endContainer()
                        .endSpec().build()).create();
                Pod failed = Await.until(Duration.ofMinutes(2), () -> admin.pods().inNamespace("default").withName("fails").get(),
                        p -> "Failed".equals(p.getStatus().getPhase()), "the failing pod Failed");
                var terminated = failed.getStatus().getContainerStatuses().get(0).getState().getTerminated();
                assertThat(terminated.getExitCode()).isEqualTo(2);
                assertThat(terminated.getMessage()).contains("usage: rso-node");

                admin.apps().deployments().inNamespace("default").withName("pause").delete();
                admin.pods().inNamespace("default").withName("fails").delete();
                Await.until(Duration.ofMinutes(2), () -> admin.pods().inNamespace("default").list().getItems(), List::isEmpty,
                        "the pods gone (garbage collection of the ReplicaSet and its pod, the kubelet's confirmation)");
            } finally {
                node.close();
            }
        }
        assertThat(node.leftovers()).as("what the closed node left on the machine").isEmpty();
        assertThat(machineLinks()).as("the machine's network devices").isEqualTo(linksBefore);
        RealNode.HARD_CODED_PATHS.forEach(p -> assertThat(Files.exists(p)).as(p + " as before").isEqualTo(pathsBefore.get(p)));
    }

    private static List<String> machineLinks() throws IOException {
        try (Stream<Path> links = Files.list(Path.of("/sys/class/net"))) {
            return links.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
