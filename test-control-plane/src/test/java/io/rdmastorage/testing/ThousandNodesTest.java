package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A thousand simulated nodes in one JVM, each completing a probe pod (what the scale benchmark needs). */
class ThousandNodesTest {

    private static final int NODES = 1000;
    private static final String NS = "thousand-nodes-test";

    @TempDir
    Path hostRoots;

    @Test
    void aThousandNodesEachCompleteAProbe() throws Exception {
        KubernetesClient client = LocalControlPlane.shared().adminClient();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).serverSideApply();
        ProbePods.specConfigMap(client, NS, "probe-spec", "{\"ceph\":{}}");
        Path hostRoot = ProbePods.cephRdmaHostRoot(hostRoots, "shared");
        List<SimulatedNode> nodes = IntStream.range(0, NODES)
                .mapToObj(i -> SimulatedNode.named("scale-%04d".formatted(i)).withHostRoot(hostRoot)).toList();

        try (SimulatedCluster cluster = SimulatedCluster.builder(client).start()) {
            long start = System.nanoTime();
            cluster.addNodes(nodes);
            long registered = System.nanoTime();
            ExecutorService creators = Executors.newFixedThreadPool(16);
            try {
                List<Future<?>> created = new ArrayList<>();
                for (SimulatedNode node : nodes) {
                    created.add(creators.submit(() -> client.pods().inNamespace(NS)
                            .resource(ProbePods.probePod("probe-" + node.name(), node.name(), "probe-spec", "spec.json")).create()));
                }
                for (Future<?> f : created) {
                    f.get();
                }
            } finally {
                creators.shutdown();
            }
            long podsCreated = System.nanoTime();

            List<Pod> finished = Await.until(Duration.ofSeconds(240), Duration.ofSeconds(2),
                    () -> client.pods().inNamespace(NS).list().getItems().stream()
                            .filter(p -> p.getStatus() != null && Set.of("Succeeded", "Failed").contains(p.getStatus().getPhase()))
                            .toList(),
                    list -> list.size() == NODES, NODES + " probe pods to finish");
            long done = System.nanoTime();
            System.out.printf("%d nodes registered in %d ms, pods created in %d ms, all probes finished %d ms later%n",
                    NODES, (registered - start) / 1_000_000, (podsCreated - registered) / 1_000_000, (done - podsCreated) / 1_000_000);
            assertThat(finished).allSatisfy(p -> assertThat(p.getStatus().getContainerStatuses().get(0).getState()
                    .getTerminated().getMessage()).contains("\"node\":\"" + p.getSpec().getNodeName() + "\""));
        } finally {
            // no namespace controller runs, so delete the pods themselves (grace 0: their kubelets are gone)
            client.pods().inNamespace(NS).withGracePeriod(0).delete();
        }
    }
}
