package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.metrics.VerdictCounts;
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
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Real kubelets on the real RDMA kernel: the VM node (soft-RoCE rxe0 on veth0 and rxe1 on veth1, an
 * nvmet target over rdma and tcp, an NFS server with an rdma listener) runs two nodes, vm-a
 * (192.0.2.1) and vm-b (192.0.2.2), each with containerd, runc and a kubelet from the same cached
 * binaries as the host's RealNode, joined to the test's control plane through qemu's guestfwd
 * only. The operator (its jar, under the chart's RBAC from {@code helm install}) writes every pod;
 * the kubelets run them from the probe image, and the verdicts are the kernel's:
 * <ol>
 * <li>a healthy round on vm-a: the NVMe-oF target and NFS over rdma, storage reads during the
 * traffic window; beside it an acceptance path run on vm-b's NFS mount;
 * <li>a latency pair (vm-b the client of vm-a); then an acceptance nvmeof run on vm-a (connecting both
 * transports itself), alone: its tcp transport must move no RDMA packet.
 * </ol>
 * The nodes' image store is imported on the host and handed to the VM as a disk.
 * Under TCG a pod takes about a minute to start and run, so each pod here answers what only a real
 * kubelet on a real kernel can: the node-probe VM tests keep the many kernel states (the node
 * fallen back to tcp among them), the real-node tier the pod's way into the node's network
 * namespace, node-probe-vm's VerbsAcceptanceVmIT the verbs target's perftest and fio, and the
 * simulated tier what the operator does with each verdict (a startup taint put back, a verbs run's
 * two pods).
 */
class RealKubeletVmIT {

    private static final String NODE_A = "vm-a";
    private static final String NODE_B = "vm-b";
    private static final String NAMESPACE = "rdma-storage-system";
    private static final String RELEASE = "rso";
    private static final String FULLNAME = RELEASE + "-rdma-storage-operator";
    private static final String STORAGE = "vm-storage";
    private static final String LATENCY = "vm-latency";
    private static final String NQN = "nqn.2014-08.org.example:vm-target";
    private static final Path JAR = Path.of(System.getProperty("operator.jar", "target/operator.jar"));
    /** The taint vm-a's kubelet registers with, which the storage profile's verdict lifts (issue 39's readiness gate). */
    private static final String STARTUP_TAINT = "storage.example.com/unverified";
    private static final String STORAGE_CHECKS = """
              interval: 30m
              probeTimeout: 10m
              startupTaint: {key: %s, mode: Continuous}
              rdma:
                devices: ["rxe0/1", "rxe1/1"]
                userspaceVerbs: true
              nvmeof:
                targets:
                - nqn: %s
                  address: 192.0.2.1
                  port: 4420
              nfs:
                mounts: ["/mnt/nfs"]
              traffic:
                window: 5s
            """.formatted(STARTUP_TAINT, NQN);
    /**
     * Short workloads, and a deadline for TCG: the default (the workloads, 60 s per transport, 120 s
     * for the pod's start) fits a real node; here the pod's start alone takes one to two minutes and
     * a loaded host once took the path run 215 s.
     */
    private static final String WORKLOADS = """
              latency: {durationSeconds: 5}
              iops: {durationSeconds: 5, jobs: 2, iodepth: 8}
              bandwidth: {durationSeconds: 5}
              # a pod's start under TCG takes 1–2 min on a quiet host and has taken 10 on a loaded one
              timeoutSeconds: 1200
            """;

    private final long started = System.nanoTime();
    /** The latency profile of the latest measurement attempt. */
    private String latencyProfile = LATENCY;
    private VmNode vm;
    private LocalControlPlane plane;
    private KubernetesClient admin;

    @Test
    void theVmsKubeletsRunEveryPodKindAndTheKernelAnswers() throws Exception {
        Path repository = NodeRuntime.repository();
        String tag = HelmChart.appVersion();
        Path probeImage = ProjectImages.build("node-probe", tag);
        NodeRuntime runtime = NodeRuntime.ensure();
        Path target = Path.of("target", "vm-kubelet").toAbsolutePath();
        Files.createDirectories(target);
        // the nodes' image store, imported here: under TCG the guest took about 100 s to hash and unpack it
        Path store = target.resolve("image-store.ext4");
        Commands.run(Duration.ofMinutes(3), List.of("bash", repository.resolve("vm-node/kubelet-node.sh").toString(), "store",
                runtime.folder().toString(), store.toString(), probeImage.toString(), "ghcr.io/rdma-storage-operator/node-probe"))
                .orThrow("kubelet-node.sh store");
        log("image store made");
        try (LocalControlPlane plane = LocalControlPlane.startWithControllers(NODE_A, NODE_B);
             VmNode vm = VmNode.bootWithScripts(repository, repository.resolve("node-probe/target/node-probe.jar"), target,
                     Stream.concat(VmNode.apiServerLink(runtime.rsoNode() + " stdio tcp:127.0.0.1:" + plane.port()).stream(),
                             VmNode.disk(store).stream()).toList())) {
            this.vm = vm;
            this.plane = plane;
            this.admin = plane.adminClient();
            // the guest copies the image store to its tmpfs (about 30 s under TCG) while the host fills the share
            vm.run("setsid bash /mnt/share/kubelet-node.sh copy_store > /run/rso-store-copy.log 2>&1 < /dev/null 3>&- &",
                    Duration.ofSeconds(30)).requireSuccess("start the image store's copy");
            Path share = target.resolve("vm-share");
            Commands.run(Duration.ofMinutes(2), List.of("cp", "-a", runtime.folder().toString(), share.resolve("runtime").toString()))
                    .orThrow("copy the node runtime into the share");
            Files.copy(runtime.kubelet(), share.resolve("kubelet"));
            for (String node : List.of(NODE_A, NODE_B)) {
                plane.writeNodeKubeconfig(node, share.resolve(node + ".kubeconfig"), "https://10.0.0.1:443");
            }
            scenario("reset");
            log("the share filled, the node reset");
            try {
                // one after the other: both kubelets bind the same hard-coded device-plugin socket, and two at once
                // race for it ("bind: address already in use", the second never Ready); start returns once its
                // kubelet has bound it (a start that only launched the kubelet let the two race under TCG)
                // vm-a joins as a new storage node does: with the startup taint the storage profile lifts once proven
                VmNode.Result started = vm.run("bash /mnt/share/kubelet-node.sh start 0 " + NODE_A + " 192.0.2.1 " + STARTUP_TAINT
                        + "=true:NoSchedule && bash /mnt/share/kubelet-node.sh start 1 " + NODE_B + " 192.0.2.2",
                        Duration.ofMinutes(6)).requireSuccess("kubelet-node.sh start");
                log("both kubelets started");
                System.err.print(vm.run("cat /run/rso-store-copy.log", Duration.ofSeconds(30)).stdout() + started.stderr());
                for (String node : List.of(NODE_A, NODE_B)) {
                    Await.until(Duration.ofMinutes(3), Duration.ofSeconds(2), () -> plane.isNodeReady(node) ? Boolean.TRUE : null,
                            ready -> ready, node + "'s kubelet Ready");
                    log(node + "'s kubelet Ready");
                }
                assertThat(startupTaint()).as("vm-a registered with the startup taint").hasValue("true");
                admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                        .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
                // the chart's RBAC and service account; the operator itself runs as a jar here (a JVM under TCG would
                // take minutes to start), with that account's token
                HelmChart.helm().install().withName(RELEASE).withNamespace(NAMESPACE).set("replicaCount", 0)
                        .withKubeConfig(plane.kubeconfig()).call();
                log("the chart's RBAC installed");
                Process operator = startOperator(tag);
                try {
                    // the latency pair alone: beside the healthy round perftest printed inf three times running
                    // under TCG, and beside the nvmeof run its RDMA packets spoiled that run's tcp transport
                    healthyRound();
                    RealNodeProfile.label(plane, NODE_A, "storage.example.com/server");
                    applyLatencyProfile();
                    latencyPair();
                    scenario("reset");
                    nvmeofRun();
                    String table = plane.kubectl().run("get", "rdmastorage").orThrow("kubectl get rdmastorage");
                    System.err.println(table);
                    // where a pod's minute under TCG goes: the kubelets' events in order
                    System.err.println(plane.kubectl().run("get", "events", "-n", NAMESPACE, "--sort-by=.lastTimestamp",
                            "-o", "custom-columns=TIME:.lastTimestamp,OBJECT:.involvedObject.name,REASON:.reason").stdout());
                    assertThat(table).contains(STORAGE + "." + NODE_A).contains(latencyProfile + "." + NODE_B);
                } catch (AssertionError | RuntimeException e) {
                    System.err.println(plane.kubectl().run("get", "pods", "-A", "-o", "wide").stdout());
                    throw e;
                } finally {
                    operator.destroy();
                    operator.waitFor();
                }
                Helm.uninstall(RELEASE).withNamespace(NAMESPACE).withKubeConfig(plane.kubeconfig()).call();
            } catch (AssertionError | RuntimeException e) {
                // what the nodes said: the kubelets' and containerds' last lines
                System.err.println(vm.run("tail -n 25 /run/rso-node-*/kubelet.log /run/rso-node-*/containerd.log; free -m; "
                        + "dmesg | grep -i -E 'oom|killed process|hung task' | tail -20", Duration.ofSeconds(30)).stdout());
                throw e;
            } finally {
                vm.run("bash /mnt/share/kubelet-node.sh stop", Duration.ofMinutes(1));
            }
        } finally {
            // the store's disk: about 700 MB written
            Files.deleteIfExists(store);
        }
    }

    /** vm-a's storage over rdma while it reads; vm-b measures its verbs latency against vm-a. */
    private void healthyRound() {
        scenario("connect", "rdma");
        scenario("nfs-mount", "rdma");
        scenario("storage-read");
        log("vm-a's storage over rdma");
        RealNodeProfile.apply(plane, NODE_A, "storage.example.com/client", STORAGE, STORAGE_CHECKS);
        RdmaStorageNode storage = verdict(STORAGE, NODE_A, n -> RealNodeProfile.condition(n, "NfsRdma")
                .filter(c -> !"AwaitingProbe".equals(c.getReason())).isPresent());
        log("vm-a's healthy verdict");
        assertThat(conditions(storage)).as(messages(storage))
                .containsEntry("RdmaDevices", "True/PortsActive")
                .containsEntry("NvmeofRdma", "True/ConnectedOverRdma")
                .containsEntry("NfsRdma", "True/MountsOverRdma")
                .containsEntry("RdmaTraffic", "True/DataOverRdma")
                .containsEntry("Ready", "True/AllChecksPassed");
        assertThat(storage.getStatus().getInventory()).containsEntry("kernel", vm.kernelVersion());
        // proven: the startup taint the kubelet registered vm-a with is lifted, and only that
        Await.until(Duration.ofMinutes(1), Duration.ofSeconds(1), () -> startupTaint().isEmpty() ? Boolean.TRUE : null,
                lifted -> lifted, "vm-a's startup taint lifted");
        assertThat(RealNodeProfile.condition(storage, "RdmaDevices").orElseThrow().getMessage())
                .startsWith("rxe0/1, rxe1/1 ACTIVE with the link up")
                .contains("libibverbs opened rxe0, rxe1 and registered 1Mi on each");
        assertThat(RealNodeProfile.condition(storage, "NfsRdma").orElseThrow().getMessage())
                .contains("/mnt/nfs (192.0.2.1:/srv/nfs, nfs4 vers=4.2, proto=rdma port=20049", "rdma transport(s)", "rpcrdma loaded");
        // the bytes behind the verdict, as the traffic gauges sum them: rxe's real counters
        assertThat(VerdictCounts.storageTraffic(List.of(storage.getStatus())).rdmaPacketsPerSecond()).isGreaterThan(100);
        assertThat(RealNodeProfile.condition(storage, "NvmeofRdma").orElseThrow().getMessage())
                .contains(NQN + " at 192.0.2.1:4420 via nvme");
        assertThat(RealNodeProfile.condition(storage, "RdmaTraffic").orElseThrow().getMessage())
                .contains("rxe0/1 carried ").contains(" packets/s; storage TCP ");
        assertThat(storage.getStatus().getDetails().get("RdmaTraffic").path("tcpBytesPerSecond").asLong()).isLessThan(1024 * 1024);
        assertThat(storage.getStatus().getDetails().get("RdmaTraffic").path("windowSeconds").asDouble()).isGreaterThanOrEqualTo(5.0);

        // then an acceptance path run on vm-b's NFS mount (over rdma: the only TCP here is none); not beside
        // vm-a's probe pod: two pods starting at once in the TCG guest of a loaded host left containerd unable
        // to delete a finished task for minutes ("context deadline exceeded"), and the run timed out
        plane.kubectl().applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: vm-b-path
                spec:
                  nodeName: %s
                  path:
                    directory: /mnt/nfs/
                    fileSizeMiB: 16
                %s""".formatted(NODE_B, WORKLOADS)).orThrow("create the path run");

        RdmaStorageAcceptance path = finished("vm-b-path");
        log("path run");
        assertThat(path.getStatus().getPhase()).as(describe(path)).isEqualTo("Succeeded");
        assertThat(path.getStatus().getTransports()).singleElement().satisfies(t -> {
            assertThat(t.getTransport()).isEqualTo("rdma");
            assertThat(t.getDevice()).isEqualTo("/mnt/nfs/rdmastorage-acceptance-vm-b-path.fio");
            assertMeasured(t);
            assertThat(t.getTraffic()).contains("storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) 0 bytes");
        });
        assertThat(vm.run("ls -A /mnt/nfs", Duration.ofSeconds(30)).stdout().strip())
                .as("the run's file is gone, the export's own file untouched").isEqualTo("file");
        assertThat(report(path)).contains("fio-3.");
    }

    /**
     * vm-b's verbs latency against vm-a (a reference node, the profile applied before): a latency-server
     * pod and a latency-client pod.
     */
    private void latencyPair() {
        // perftest times with the CPU's cycle counter; when its frequency sample is too noisy (a loaded
        // TCG host) it prints inf for every statistic, rows that are no measurement: Unknown
        // OutputUnparseable ("a latency table header without result rows"). As node-probe's
        // VM test does, a measurement is tried up to three times (a profile of its own each time)
        RdmaStorageNode latency = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            if (attempt > 1) {
                admin.resources(RdmaStorageProfile.class).withName(latencyProfile).delete();
                latencyProfile = LATENCY + "-" + attempt;
                applyLatencyProfile();
            }
            latency = verdict(latencyProfile, NODE_B, n -> RealNodeProfile.condition(n, "VerbsLatency")
                    .filter(c -> !"AwaitingMeasurement".equals(c.getReason())).isPresent());
            Condition measured = RealNodeProfile.condition(latency, "VerbsLatency").orElseThrow();
            if (!"OutputUnparseable".equals(measured.getReason())) {
                break;
            }
            System.err.println("vm-kubelet: perftest could not time attempt " + attempt + ": " + measured.getMessage());
        }
        log("vm-b's latency verdict");
        assertThat(conditions(latency)).as(messages(latency)).containsEntry("VerbsLatency", "True/WithinThreshold");
        assertThat(latency.getStatus().getLatency().getPeer()).isEqualTo(NODE_A);
        assertThat(latency.getStatus().getLatency().getPeerAddress()).isEqualTo("192.0.2.1");
        assertThat(latency.getStatus().getLatency().getTypicalMicros()).isPositive();
        assertThat(latency.getStatus().getLatency().getTcpTypicalMicros()).as(messages(latency)).isPositive();
    }

    /** The value of vm-a's startup taint; empty when it has none. */
    private java.util.Optional<String> startupTaint() {
        var taints = admin.nodes().withName(NODE_A).get().getSpec().getTaints();
        return taints == null ? java.util.Optional.empty() : taints.stream().filter(t -> STARTUP_TAINT.equals(t.getKey()))
                .map(t -> t.getValue() == null ? "" : t.getValue()).findFirst();
    }

    /**
     * An nvmeof run on vm-a, connecting rdma and tcp itself (and disconnecting after): real fio figures per
     * transport from the pod the kubelet ran, and nothing left on the node.
     */
    private void nvmeofRun() {
        plane.kubectl().applyYaml("""
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: vm-a-nvmeof
                spec:
                  nodeName: %s
                  nvmeof:
                    nqn: %s
                    address: 192.0.2.1
                    port: 4420
                    transports: [rdma, tcp]
                    connect: true
                %s""".formatted(NODE_A, NQN, WORKLOADS)).orThrow("create the nvmeof run");
        RdmaStorageAcceptance nvmeof = finished("vm-a-nvmeof");
        log("nvmeof run");
        assertThat(nvmeof.getStatus().getPhase()).as(describe(nvmeof)).isEqualTo("Succeeded");
        assertThat(nvmeof.getStatus().getTransports()).extracting(AcceptanceTransportResult::getTransport).containsExactly("rdma", "tcp");
        assertThat(nvmeof.getStatus().getTransports()).allSatisfy(t -> {
            assertThat(t.getConnectedByProbe()).isTrue();
            assertThat(t.getDevice()).startsWith("/dev/nvme");
            assertMeasured(t);
        });
        // the data-path counters around each transport's workloads: rxe's packets for rdma, the NVMe/TCP socket's bytes for tcp
        assertThat(nvmeof.getStatus().getTransports().get(0).getTraffic())
                .containsPattern("RDMA ports .*rxe0/1.* [1-9][0-9]* packets").contains("NVMe/TCP to 192.0.2.1:4420 0 bytes");
        assertThat(nvmeof.getStatus().getTransports().get(1).getTraffic())
                .containsPattern("NVMe/TCP to 192\\.0\\.2\\.1:4420 [1-9][0-9]* bytes");
        assertThat(vm.nvmeControllers()).as("what the probe connected is disconnected").isBlank();
        assertThat(report(nvmeof)).contains("fio-3.");
    }

    /** Profile {@link #latencyProfile}: vm-b measures its verbs latency against vm-a, the reference node. */
    private void applyLatencyProfile() {
        RealNodeProfile.apply(plane, NODE_B, "storage.example.com/gpu", latencyProfile, """
                  interval: 30m
                  probeTimeout: 10m
                  maxConcurrentProbes: 3
                  latency:
                    device: rxe0
                    iterations: 200
                    maxTypicalMicros: 100000
                    transportComparison: true
                    referenceNodeSelector:
                      matchLabels:
                        storage.example.com/server: "true"
                """);
    }

    /** A transport's fio workloads measured: real figures and real CPU from the node's /proc/stat. */
    private static void assertMeasured(AcceptanceTransportResult t) {
        assertThat(t.getIops()).as("%s", t).isPositive();
        assertThat(t.getLatencyP50Micros()).isPositive();
        assertThat(t.getLatencyP99Micros()).isGreaterThanOrEqualTo(t.getLatencyP50Micros());
        assertThat(t.getBandwidthGBps()).isPositive();
        assertThat(t.getIopsCoresBusy()).isPositive().isLessThanOrEqualTo(2.0);
        assertThat(t.getIopsSysPercent()).isBetween(0.0, 100.0);
    }

    /** What a run says: its conditions and each transport's problem, for a failure to show. */
    private static String describe(RdmaStorageAcceptance run) {
        return run.getStatus().getConditions().stream().map(c -> c.getType() + " " + c.getStatus() + "/" + c.getReason() + ": "
                + c.getMessage()).collect(Collectors.joining("\n")) + "\n" + run.getStatus().getTransports().stream()
                .map(t -> t.getTransport() + ": " + t.getProblem()).collect(Collectors.joining("\n"));
    }

    /** The run's Markdown record, from the ConfigMap its status names. */
    private String report(RdmaStorageAcceptance run) {
        return admin.configMaps().inNamespace(NAMESPACE).withName(run.getStatus().getReport()).get().getData().get("report.md");
    }

    private void scenario(String... args) {
        String command = "bash /mnt/share/scenario.sh " + String.join(" ", args);
        vm.run(command, Duration.ofMinutes(2)).requireSuccess(command);
    }

    private RdmaStorageNode verdict(String profile, String node, Predicate<RdmaStorageNode> done) {
        return Await.until(Duration.ofMinutes(12), Duration.ofSeconds(2),
                () -> admin.resources(RdmaStorageNode.class).withName(profile + "." + node).get(), done, profile + "'s verdict of " + node);
    }

    private RdmaStorageAcceptance finished(String run) {
        return Await.until(Duration.ofMinutes(21), Duration.ofSeconds(3),
                () -> admin.resources(RdmaStorageAcceptance.class).withName(run).get(),
                a -> a != null && a.getStatus() != null && List.of("Succeeded", "Failed").contains(a.getStatus().getPhase()),
                "acceptance run " + run + " finished");
    }

    private static Map<String, String> conditions(RdmaStorageNode node) {
        return node.getStatus().getConditions().stream()
                .collect(Collectors.toMap(Condition::getType, c -> c.getStatus() + "/" + c.getReason()));
    }

    /** Every condition with its message, for a failure to show what the probe said. */
    private static String messages(RdmaStorageNode node) {
        return node.getStatus().getConditions().stream()
                .map(c -> c.getType() + " " + c.getStatus() + "/" + c.getReason() + ": " + c.getMessage())
                .collect(Collectors.joining("\n"));
    }

    private void log(String what) {
        System.err.printf("vm-kubelet: %s after %.0f s%n", what, (System.nanoTime() - started) / 1e9);
    }

    private Process startOperator(String tag) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "vm-kubelet-operator.log").toFile()));
        builder.environment().put("KUBECONFIG", plane.kubeconfigFor(NAMESPACE, FULLNAME).toString());
        builder.environment().put("RSO_NAMESPACE", NAMESPACE);
        builder.environment().put("RSO_PROBE_IMAGE", "ghcr.io/rdma-storage-operator/node-probe:" + tag);
        // the admin's acceptance bounds, as the chart's acceptance values would set them: the real kubelets' nodes, the path run on
        // the NFS mount, the nvmeof run to the VM host's target (which the profile names too)
        builder.environment().put("RSO_ACCEPTANCE_NODE_SELECTOR", "kubernetes.io/os=linux");
        builder.environment().put("RSO_ACCEPTANCE_PATH_PREFIXES", "/mnt/nfs/");
        builder.environment().put("RSO_ACCEPTANCE_NVMEOF_ADDRESSES", "192.0.2.1");
        builder.environment().put("RSO_METRICS_PORT", Integer.toString(LoopbackPorts.free()));
        return builder.start();
    }
}
