package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.probe.vm.VmNode;
import io.rdmastorage.testing.Await;
import io.rdmastorage.testing.Commands;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.LoopbackPorts;
import io.rdmastorage.testing.NodeRuntime;
import io.rdmastorage.testing.ProjectImages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A real kubelet on the real RDMA kernel: the VM node (soft-RoCE, an nvmet target over rdma) runs
 * containerd, runc and the kubelet from the same cached binaries as the host's RealNode, joined to
 * the test's control plane through qemu's guestfwd only. The operator (its jar, under the chart's
 * RBAC from `helm install`) writes the probe pod; the VM's kubelet runs it from the probe image, and
 * its verdicts are the kernel's. Under TCG a pod takes a minute or two to start: one pod, several
 * checks.
 */
class RealKubeletVmIT {

    private static final String NODE = "vm-kubelet";
    private static final String NAMESPACE = "rdma-storage-system";
    private static final String RELEASE = "rso";
    private static final String FULLNAME = RELEASE + "-rdma-storage-operator";
    private static final String PROFILE = "vm-kubelet";
    private static final Path JAR = Path.of(System.getProperty("operator.jar", "target/operator.jar"));

    @Test
    void theVmsKubeletRunsTheProbePodAndTheKernelAnswers() throws Exception {
        Path repository = NodeRuntime.repository();
        String tag = HelmChart.appVersion();
        Path probeImage = ProjectImages.build("node-probe", tag);
        NodeRuntime runtime = NodeRuntime.ensure();
        Path target = Path.of("target", "vm-kubelet").toAbsolutePath();
        try (LocalControlPlane plane = LocalControlPlane.startWithControllers(NODE);
             VmNode vm = VmNode.bootWithProbe(repository, repository.resolve("node-probe/target/node-probe.jar"), target,
                     VmNode.apiServerLink(runtime.rsoNode() + " stdio tcp:127.0.0.1:" + plane.port()))) {
            KubernetesClient admin = plane.adminClient();
            Path share = target.resolve("vm-share");
            Commands.run(Duration.ofMinutes(2), List.of("cp", "-a", runtime.folder().toString(), share.resolve("runtime").toString()))
                    .orThrow("copy the node runtime into the share");
            Files.copy(runtime.kubelet(), share.resolve("kubelet"));
            Files.copy(probeImage, share.resolve("node-probe-image.oci.tar"));
            plane.writeNodeKubeconfig(NODE, share.resolve("kubelet.kubeconfig"), "https://10.0.0.1:443");

            vm.run("bash /mnt/share/scenario.sh reset", Duration.ofMinutes(2)).requireSuccess("scenario.sh reset");
            vm.run("bash /mnt/share/scenario.sh connect rdma", Duration.ofMinutes(2)).requireSuccess("connect rdma");
            long started = System.nanoTime();
            vm.run("bash /mnt/share/kubelet-node.sh start " + NODE, Duration.ofMinutes(3)).requireSuccess("kubelet-node.sh start");
            try {
                Await.until(Duration.ofMinutes(5), Duration.ofSeconds(2), () -> plane.isNodeReady(NODE) ? Boolean.TRUE : null,
                        ready -> ready, "the VM's kubelet Ready");
                System.err.printf("vm-kubelet: Ready after %.0f s%n", (System.nanoTime() - started) / 1e9);
                vm.run("bash /mnt/share/kubelet-node.sh import /mnt/share/node-probe-image.oci.tar ghcr.io/rdma-storage-operator/node-probe",
                        Duration.ofMinutes(6)).requireSuccess("import the probe image");
                System.err.printf("vm-kubelet: probe image imported after %.0f s%n", (System.nanoTime() - started) / 1e9);

                admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                        .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
                // the chart's RBAC and service account; the operator itself runs as a jar here (a JVM under TCG would
                // take minutes to start), with that account's token
                HelmChart.helm().install().withName(RELEASE).withNamespace(NAMESPACE).set("replicaCount", 0)
                        .withKubeConfig(plane.kubeconfig()).call();
                Process operator = startOperator(plane, tag);
                try {
                    RealNodeProfile.apply(plane, NODE, PROFILE, """
                              interval: 30m
                              probeTimeout: 5m
                              rdma:
                                devices: ["rxe0/1", "rxe1/1"]
                                userspaceVerbs: true
                              nvmeof:
                                targets:
                                - nqn: nqn.2014-08.org.example:vm-target
                                  address: 192.0.2.1
                                  port: 4420
                            """);
                    RdmaStorageNode verdict = Await.until(Duration.ofMinutes(8), Duration.ofSeconds(2),
                            () -> admin.resources(RdmaStorageNode.class).withName(PROFILE + "." + NODE).get(),
                            n -> RealNodeProfile.condition(n, "NvmeofRdma").isPresent(), "the VM node's verdict");
                    System.err.printf("vm-kubelet: verdict after %.0f s%n", (System.nanoTime() - started) / 1e9);
                    Map<String, String> conditions = verdict.getStatus().getConditions().stream()
                            .collect(Collectors.toMap(Condition::getType, c -> c.getStatus() + "/" + c.getReason()));
                    assertThat(conditions).as(verdict.getStatus().getConditions().toString())
                            .containsEntry("RdmaDevices", "True/PortsActive")
                            .containsEntry("NvmeofRdma", "True/ConnectedOverRdma")
                            .containsEntry("Ready", "True/AllChecksPassed");
                    assertThat(verdict.getStatus().getInventory()).containsEntry("kernel", vm.kernelVersion());
                } finally {
                    operator.destroy();
                    operator.waitFor();
                }
                Helm.uninstall(RELEASE).withNamespace(NAMESPACE).withKubeConfig(plane.kubeconfig()).call();
            } finally {
                vm.run("bash /mnt/share/kubelet-node.sh stop", Duration.ofMinutes(1));
            }
        }
    }

    private static Process startOperator(LocalControlPlane plane, String tag) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "vm-kubelet-operator.log").toFile()));
        builder.environment().put("KUBECONFIG", plane.kubeconfigFor(NAMESPACE, FULLNAME).toString());
        builder.environment().put("RSO_NAMESPACE", NAMESPACE);
        builder.environment().put("RSO_PROBE_IMAGE", "ghcr.io/rdma-storage-operator/node-probe:" + tag);
        builder.environment().put("RSO_METRICS_PORT", Integer.toString(LoopbackPorts.free()));
        return builder.start();
    }

}
