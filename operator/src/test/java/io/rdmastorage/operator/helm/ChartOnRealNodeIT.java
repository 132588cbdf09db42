package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.testing.Await;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.ProjectImages;
import io.rdmastorage.testing.RealNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The product as users run it: both images built without Docker and imported into a real node's
 * containerd, the chart installed with Helm, the operator's Deployment scheduled and started by the
 * kubelet (two replicas: leader election, metrics and readiness as shipped, RBAC from the chart), a
 * profile applied, and its probe pod run by the kubelet from the probe image, exactly as the
 * operator writes it. The node has no RDMA hardware, so the verdicts are the real ones of a node
 * without it; the stand-in NVMe/TCP stream in the node's network namespace is seen by the probe pod
 * only if node-probe really reaches the node's network from its own pod namespace.
 */
class ChartOnRealNodeIT {

    private static final String NODE = "rso-real-0";
    private static final String NAMESPACE = "rdma-storage-system";
    private static final String RELEASE = "rso";
    private static final String FULLNAME = RELEASE + "-rdma-storage-operator";
    private static final String PROFILE = "real-node";
    private static final Duration STARTUP = Duration.ofMinutes(4);

    private static LocalControlPlane plane;
    private static RealNode node;
    private static KubernetesClient admin;

    @BeforeAll
    static void nodeWithImages() throws Exception {
        String tag = HelmChart.appVersion();
        Path probeImage = ProjectImages.build("node-probe", tag);
        Path operatorImage = ProjectImages.build("operator", tag);
        plane = LocalControlPlane.startWithControllers(NODE);
        admin = plane.adminClient();
        node = RealNode.start(plane, NODE);
        node.importImage(probeImage, "ghcr.io/rdma-storage-operator/node-probe");
        node.importImage(operatorImage, "ghcr.io/rdma-storage-operator/rdma-storage-operator");
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
            assertThat(node.leftovers()).as("what the node left on the machine").isEmpty();
        }
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void theChartRunsOnARealKubeletAndItsProbePodsReachVerdicts() throws Exception {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
        HelmChart.helm().install().withName(RELEASE).withNamespace(NAMESPACE).withKubeConfig(plane.kubeconfig()).call();

        // the Deployment as shipped: two replicas, both Ready through the kubelet's readiness probe on /readyz
        Deployment deployment = await(STARTUP, () -> admin.apps().deployments().inNamespace(NAMESPACE).withName(FULLNAME).get(),
                d -> d.getStatus() != null && Objects.equals(d.getStatus().getReadyReplicas(), 2), "both operator replicas Ready");
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo("ghcr.io/rdma-storage-operator/rdma-storage-operator:" + HelmChart.appVersion());
        List<Pod> operators = admin.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/component", "operator").list().getItems();
        assertThat(operators).hasSize(2).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo(NODE));

        // leader election: one Lease, held by one of the two pods
        Lease lease = await(STARTUP, () -> admin.leases().inNamespace(NAMESPACE).list().getItems().stream().findFirst().orElse(null),
                l -> l.getSpec().getHolderIdentity() != null, "the leader's Lease");
        Pod leader = operators.stream().filter(p -> lease.getSpec().getHolderIdentity().contains(p.getMetadata().getName()))
                .findFirst().orElseThrow(() -> new AssertionError("no operator pod holds " + lease.getSpec().getHolderIdentity()));

        // a stand-in NVMe/TCP read stream in the node's network namespace: 4 MB/s from 10.99.0.1:4420
        String target = RealNode.NODE_IP + ":4420";
        node.startInNode("nvme-tcp-target", List.of(node.rsoNode().toString(), "serve", "tcp:" + target, "4000000"), "listening on");
        node.startInNode("nvme-tcp-initiator", List.of(node.rsoNode().toString(), "read", "tcp:" + target), "connected to");

        Map<String, Pod> probePods = new ConcurrentHashMap<>();
        try (Watch ignored = admin.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/component", "node-probe")
                .watch(new Recorder(probePods))) {
            RealNodeProfile.apply(plane, NODE, PROFILE, """
                      interval: 30m
                      probeTimeout: 60s
                      nodeLabels: true
                      taintNotReady: true
                      traffic:
                        window: 3s
                        maxTcpBytesPerSecond: 100000
                    """);

            RdmaStorageNode verdict = await(STARTUP, () -> admin.resources(RdmaStorageNode.class).withName(PROFILE + "." + NODE).get(),
                    n -> RealNodeProfile.condition(n, "RdmaTraffic").isPresent(), "the node's verdict");
            Condition traffic = RealNodeProfile.condition(verdict, "RdmaTraffic").orElseThrow();
            // only the node's network namespace has this socket: the probe pod reached it through /proc/1/ns/net
            assertThat(traffic.getReason()).as(traffic.getMessage()).isEqualTo("DataOnTcp");
            assertThat(traffic.getMessage()).contains(target);
            // /host is the node's root: the kernel the probe pod read there is this machine's
            assertThat(verdict.getStatus().getInventory()).containsEntry("kernel", Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
            Condition ready = RealNodeProfile.condition(verdict, "Ready").orElseThrow();
            assertThat(ready.getStatus()).as(ready.getMessage()).isEqualTo("False");
            assertThat(ready.getMessage()).contains("RdmaTraffic: DataOnTcp");
        }

        // the probe pod the kubelet ran: from the probe image, terminated with its report as the termination message
        Pod probe = probePods.values().stream().filter(p -> terminated(p) != null).findFirst()
                .orElseThrow(() -> new AssertionError("no probe pod terminated: " + probePods.keySet()));
        assertThat(probe.getSpec().getContainers().get(0).getImage()).isEqualTo("ghcr.io/rdma-storage-operator/node-probe:" + HelmChart.appVersion());
        assertThat(probe.getSpec().getVolumes()).as("no service-account token").noneMatch(v -> v.getName().startsWith("kube-api-access-"));
        assertThat(terminated(probe).getMessage()).contains("\"checks\"");

        // kubectl as users read it, node labels and Events
        String table = plane.kubectl().run("get", "rdmastorage").orThrow("kubectl get rdmastorage");
        assertThat(table).contains(PROFILE).contains(PROFILE + "." + NODE);
        // the markings follow the verdict's write in the same reconcile, after its Events and pod deletes
        Node marked = await(STARTUP, () -> admin.nodes().withName(NODE).get(),
                n -> "not-ready".equals(n.getMetadata().getLabels().get("rdmastorage.io/" + PROFILE)), "the not-ready label");
        // NoSchedule: the operator's own pods on this node keep running
        assertThat(marked.getSpec().getTaints()).anyMatch(t -> t.getKey().equals("rdmastorage.io/" + PROFILE));
        assertThat(plane.kubectl().run("get", "events", "-n", "default", "--field-selector", "involvedObject.kind=RdmaStorageNode")
                .orThrow("events")).contains(NODE);

        // the metrics endpoint, scraped from the node's network as Prometheus would
        String metrics = node.httpGet("http://" + leader.getStatus().getPodIP() + ":8080/metrics");
        assertThat(metrics).contains("rdmastorage_");

        // delete the profile, uninstall: no pod, label, taint or object of ours stays
        admin.resources(io.rdmastorage.operator.api.RdmaStorageProfile.class).withName(PROFILE).delete();
        await(STARTUP, () -> admin.nodes().withName(NODE).get(),
                n -> n.getMetadata().getLabels().keySet().stream().noneMatch(k -> k.startsWith("rdmastorage.io/"))
                        && (n.getSpec().getTaints() == null || n.getSpec().getTaints().stream().noneMatch(t -> t.getKey().startsWith("rdmastorage.io/"))),
                "the verdict label and taint removed");
        Helm.uninstall(RELEASE).withNamespace(NAMESPACE).withKubeConfig(plane.kubeconfig()).call();
        await(STARTUP, () -> admin.pods().inNamespace(NAMESPACE).list().getItems(), List::isEmpty, "every pod of the release gone");
        Node after = admin.nodes().withName(NODE).get();
        assertThat(after.getSpec().getTaints() == null ? List.of() : after.getSpec().getTaints())
                .noneMatch(t -> t.getKey().startsWith("rdmastorage.io/"));
        assertThat(admin.resources(RdmaStorageNode.class).list().getItems()).isEmpty();
        assertThat(admin.rbac().clusterRoles().withName(FULLNAME).get()).isNull();
    }

    private static io.fabric8.kubernetes.api.model.ContainerStateTerminated terminated(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null || pod.getStatus().getContainerStatuses().isEmpty()) {
            return null;
        }
        return pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
    }

    /** Keeps the last state of every probe pod: the operator deletes them once it has read the report. */
    private record Recorder(Map<String, Pod> pods) implements Watcher<Pod> {
        @Override
        public void eventReceived(Action action, Pod pod) {
            pods.merge(pod.getMetadata().getName(), pod, (old, now) -> terminated(now) != null || terminated(old) == null ? now : old);
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }

    /** {@link Await#until}, with the end of the kubelet's log when it times out. */
    private static <T> T await(Duration timeout, Supplier<T> value, Predicate<T> done, String what) {
        try {
            return Await.until(timeout, Duration.ofMillis(500), value, done, what);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nkubelet log:\n" + node.kubeletLogTail(30), e);
        }
    }
}
