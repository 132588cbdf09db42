package io.rdmastorage.demo;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.RdmaStorageOperator;
import io.rdmastorage.operator.acceptance.AcceptancePods;
import io.rdmastorage.operator.acceptance.AcceptanceMarkdown;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.cli.NodeProbe;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.FixtureIdentity;
import io.rdmastorage.probe.testing.LatencyFabric;
import io.rdmastorage.probe.testing.LustreFixtures;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.RoceFixtures;
import io.rdmastorage.probe.testing.TrafficFixtures;
import io.rdmastorage.testing.ControlPlaneBinaries;
import io.rdmastorage.testing.ImageFioLauncher;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.OperatorRbac;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.SimulatedNode;
import io.rdmastorage.testing.TempDirs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The one-command demo: a real kube-apiserver and etcd on this machine, seven simulated GPU nodes
 * whose hosts show a healthy node and the classic silent failures (one on an older HCA firmware, one
 * whose storage bytes go over TCP although every configuration check passes, one Lustre client whose
 * o2ib network is down; they measure verbs
 * latency to each other through a simulated fabric and sample their storage counters over a traffic
 * window), a RoCE node with PFC on the wrong priorities, the operator running under the RBAC the
 * chart ships, the DESIGN example profile and a RoCE profile — then the verdicts, as {@code kubectl}
 * shows them, an acceptance run's report on one node (from recorded fio outputs), node-probe's own
 * report on two hosts where it cannot tell (Unknown), and a kubeconfig to explore with. Runs until
 * Ctrl-C ({@code --exit} stops after the verdicts).
 */
public final class LocalDemo {

    static final String NAMESPACE = "rdma-storage-system";
    static final String PROFILE = "gpfs-gds-training";
    static final String ROCE_PROFILE = "roce-storage";
    /** The repository's root: where crds/ and the chart are, from the root or a module folder. */
    private static final Path ROOT = repositoryRoot();
    private static final Duration VERDICT_WAIT = Duration.ofMinutes(3);

    /** Node → the failure its host shows (null = healthy), in the order they are listed. */
    static final Map<String, String> NODES = new LinkedHashMap<>();

    static {
        NODES.put("gpu-01", null);
        NODES.put("gpu-02", "gpfs-tcp-fallback");
        NODES.put("gpu-03", "nvmeof-on-tcp");
        NODES.put("gpu-04", "gds-iommu-enabled");
        NODES.put("gpu-05", "rdma-no-subnet-manager");
        NODES.put("gpu-06", null);
        NODES.put("gpu-11", "lustre-o2ib-down");
    }

    /** The node whose configuration passes every check while its storage bytes go over NVMe/TCP. */
    static final String DATA_ON_TCP_NODE = "gpu-06";
    /**
     * The Lustre client whose o2ib network is down (one o2ib NI down, a server reached over its tcp
     * NID): LustreLnet False. Every other node of the profile mounts /mnt/lustre over o2ib.
     */
    static final String LUSTRE_NODE = "gpu-11";
    /** The RoCE node (profile {@value #ROCE_PROFILE}): PFC on priorities 6 and 7, the storage DSCP on 3. */
    static final String ROCE_NODE = "gpu-07";
    static final String ROCE_LABEL = "example.com/fabric";
    /**
     * A node being commissioned, in no profile yet, that an acceptance run measures before it joins
     * the pool (its own fixture host: the NVMe-oF target over rdma, a stub nvme and fio); the run's name.
     */
    static final String ACCEPTANCE_NODE = "gpu-10";
    static final String ACCEPTANCE = "gpu-10-nvmeof";
    /** How many times slower the constructed tcp fio outputs are than the recorded one. */
    private static final int TCP_SLOWER = 4;

    /** The node whose HCAs run an older firmware than the others: the fleet comparison names it. */
    static final String OLDER_FIRMWARE_NODE = "gpu-04";
    static final String OLDER_FIRMWARE = "28.35.2000";

    /**
     * Two more fixture hosts, probed with node-probe directly rather than joined to the cluster: one
     * example of each Unknown reason a probe gives when it cannot tell (issue 13).
     */
    static final Map<String, String> CANNOT_TELL = new LinkedHashMap<>();

    static {
        CANNOT_TELL.put("gpu-08", "host-sys-not-mounted");
        CANNOT_TELL.put("gpu-09", "gds-iommu-disputed");
    }

    private LocalDemo() {
    }

    public static void main(String[] args) throws Exception {
        // the demo's own output tells the story; the operator's INFO logs would drown it
        // (logback reads system properties before the environment; set before any logger exists)
        if (System.getenv("RSO_LOG_LEVEL") == null) {
            System.setProperty("RSO_LOG_LEVEL", "WARN");
        }
        boolean exitAfterVerdicts = args.length > 0 && args[0].equals("--exit");
        CountDownLatch stopped = new CountDownLatch(1);
        AutoCloseable demo = run();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                demo.close();
            } catch (Exception e) {
                System.err.println("demo shutdown: " + e);
            }
            stopped.countDown();
        }, "demo-shutdown"));
        if (exitAfterVerdicts) {
            System.exit(0);   // the operator's and informers' threads would keep the JVM alive
        }
        stopped.await();
    }

    /** Starts everything, prints the verdicts and how to explore; closing stops it all. */
    static AutoCloseable run() throws Exception {
        step("building or finding kube-apiserver, etcd and kubectl (the first build takes several minutes)");
        ControlPlaneBinaries binaries = ControlPlaneBinaries.ensure();
        step("starting etcd and kube-apiserver " + binaries.kubernetesVersion() + " on 127.0.0.1");
        LocalControlPlane plane = LocalControlPlane.start();
        KubernetesClient admin = plane.adminClient();
        // acceptance pods get the probe image's fio: a stub printing recorded fio outputs
        SimulatedCluster cluster = SimulatedCluster.builder(admin).probeLauncher(new ImageFioLauncher()).start();
        RdmaStorageOperator[] operator = new RdmaStorageOperator[1];
        Path hosts = Files.createTempDirectory("rso-demo-hosts-");
        AutoCloseable demo = () -> {
            if (operator[0] != null) {
                operator[0].close();
            }
            cluster.close();
            plane.close();
            TempDirs.delete(hosts);
        };

        step("installing the CRDs from crds/");
        plane.kubectl().apply(ROOT.resolve("crds")).orThrow("kubectl apply -f crds");
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
        OperatorRbac.shipped(ROOT).grant(admin, NAMESPACE, "rdma-storage-operator", "rdma-storage-operator");

        step("registering simulated GPU nodes (their kubelets run the real node-probe on fixture hosts)");
        // every node's ib_write_lat prints recorded perftest tables through one simulated fabric
        LatencyFabric fabric = new LatencyFabric(hosts.resolve("fabric"));
        for (Map.Entry<String, String> node : NODES.entrySet()) {
            FixtureHost host = layOut(hosts.resolve(node.getKey()), node.getKey(), node.getValue());
            cluster.addNode(SimulatedNode.named(node.getKey()).withLabel("nvidia.com/gpu.present", "true")
                    .withHostRoot(host.root()));
            fabric.install(host, cluster.hostIp(node.getKey()));
            System.out.printf("      %-8s %s%s%n", node.getKey(), node.getKey().equals(DATA_ON_TCP_NODE)
                            ? "every configuration check passes; its storage bytes go over NVMe/TCP"
                            : node.getKey().equals(LUSTRE_NODE) ? node.getValue() + " (a Lustre client: an o2ib NI down, "
                            + "a server reached over its tcp NID)"
                            : node.getValue() == null ? "healthy" : node.getValue(),
                    node.getKey().equals(OLDER_FIRMWARE_NODE) ? ", HCA firmware " + OLDER_FIRMWARE + " (the others "
                            + RdmaFixtures.FIRMWARE + ")" : "");
        }
        FixtureHost roce = FixtureHost.at(hosts.resolve(ROCE_NODE), FixtureIdentity.forNodeName(ROCE_NODE));
        TrafficFixtures.lossyRdma(RoceFixtures.pfcOnOtherPriorities(RoceFixtures.healthy(NodeScenarios.healthy(roce))));
        cluster.addNode(SimulatedNode.named(ROCE_NODE).withLabel(ROCE_LABEL, "roce").withHostRoot(roce.root()));
        System.out.printf("      %-8s RoCE (mlx5_0 on eth0), storage DSCP 26 on priority 3 but PFC on 6 and 7 (dcb pfc show)%n",
                ROCE_NODE);
        FixtureHost commissioned = FixtureHost.at(hosts.resolve(ACCEPTANCE_NODE), FixtureIdentity.forNodeName(ACCEPTANCE_NODE));
        acceptanceTools(commissioned);
        cluster.addNode(SimulatedNode.named(ACCEPTANCE_NODE).withHostRoot(commissioned.root()));
        System.out.printf("      %-8s being commissioned (in no profile): NVMe-oF target over rdma, for an acceptance run%n",
                ACCEPTANCE_NODE);

        step("starting the operator (as its service account, with the chart's RBAC)");
        int metricsPort = freePort();
        operator[0] = RdmaStorageOperator.start(plane.clientFor(NAMESPACE, "rdma-storage-operator"),
                new OperatorConfig(NAMESPACE, "registry.example/node-probe:demo", "IfNotPresent", false, metricsPort)
                        // as the chart's acceptance.nodeSelector would say: no node takes runs until the admin names them
                        .withAcceptance(AcceptanceBounds.DEFAULT.withNodeSelector(Map.of("kubernetes.io/os", "linux"))), false);

        step("applying profile " + PROFILE + " (demo/src/main/resources/demo-profile.yaml) and " + ROCE_PROFILE
                + " (demo-roce-profile.yaml)");
        plane.kubectl().applyYaml(resource("/demo-profile.yaml")).orThrow("kubectl apply profile");
        plane.kubectl().applyYaml(resource("/demo-roce-profile.yaml")).orThrow("kubectl apply roce profile");
        awaitVerdicts(admin, PROFILE, NODES.size());
        awaitVerdicts(admin, ROCE_PROFILE, 1);

        Kubectl kubectl = plane.kubectl();
        step("kubectl get rdmastorage");
        System.out.println(kubectl.run("get", "rdmastorage").orThrow("kubectl get rdmastorage"));
        step("kubectl get nodes -L rdmastorage.io/" + PROFILE);
        System.out.println(kubectl.run("get", "nodes", "-L", "rdmastorage.io/" + PROFILE).orThrow("kubectl get nodes"));
        step("the profile's Ready condition");
        System.out.println(kubectl.run("get", "rsp", PROFILE, "-o",
                "jsonpath={range .status.conditions[?(@.type==\"Ready\")]}{.status} {.reason}: {.message}{\"\\n\"}{end}")
                .orThrow("kubectl get rsp"));
        step("the profile's FleetConsistent condition (" + OLDER_FIRMWARE_NODE + " runs an older HCA firmware)");
        System.out.println(kubectl.run("get", "rsp", PROFILE, "-o",
                "jsonpath={range .status.conditions[?(@.type==\"FleetConsistent\")]}{.status} {.reason}: {.message}{\"\\n\"}{end}")
                .orThrow("kubectl get rsp"));
        step("kubectl describe rsn " + PROFILE + ".gpu-02   (GPFS fell back to TCP, and its traffic window shows GPFS's bytes on TCP)");
        System.out.println(kubectl.run("describe", "rsn", PROFILE + ".gpu-02").orThrow("kubectl describe"));
        step(DATA_ON_TCP_NODE + "'s conditions: every configuration check passes, yet its storage bytes went over TCP "
                + "in the traffic window");
        System.out.println(conditions(kubectl, PROFILE + "." + DATA_ON_TCP_NODE));
        step(LUSTRE_NODE + "'s Lustre check: its o2ib network is down, and LNet reaches a server over its tcp NID");
        System.out.println(kubectl.run("get", "rsn", PROFILE + "." + LUSTRE_NODE, "-o",
                "jsonpath={range .status.conditions[?(@.type==\"LustreLnet\")]}{.type} {.status} {.reason}: {.message}{\"\\n\"}{end}")
                .orThrow("kubectl get rsn " + LUSTRE_NODE));
        step(ROCE_NODE + "'s conditions (profile " + ROCE_PROFILE + "): PFC is not on the storage priority, and the "
                + "lossy fabric shows in its counters");
        System.out.println(conditions(kubectl, ROCE_PROFILE + "." + ROCE_NODE));

        step("an acceptance run on " + ACCEPTANCE_NODE + " (RdmaStorageAcceptance " + ACCEPTANCE + "): the same read-only "
                + "fio workloads over rdma and tcp");
        System.out.println("      NOT measured here: the simulated kubelet runs the real node-probe acceptance, but fio is a stub");
        System.out.println("      printing recorded outputs. rdma = the recorded fio 3.14 JSON (4 KiB random read, depth 1);");
        System.out.println("      tcp = constructed from it, latencies x" + TCP_SLOWER + " and IOPS/bandwidth /" + TCP_SLOWER
                + "; host CPU = recorded /proc/stat plus");
        System.out.println("      constructed ticks per workload. On a real kernel, AcceptanceVmIT measures it (docs/testing.md).");
        plane.kubectl().applyYaml(resource("/demo-acceptance.yaml")).orThrow("kubectl apply acceptance");
        awaitAcceptance(admin);
        System.out.println(kubectl.run("get", "rdmastorageacceptance", ACCEPTANCE).orThrow("kubectl get rsa"));
        step("its report (ConfigMap " + AcceptancePods.reportName(ACCEPTANCE) + ", key " + AcceptanceMarkdown.KEY + ")");
        System.out.println(admin.configMaps().inNamespace(NAMESPACE).withName(AcceptancePods.reportName(ACCEPTANCE)).get()
                .getData().get(AcceptanceMarkdown.KEY));

        step("node-probe where it cannot tell: gpu-08's probe cannot see the host's /sys (HostViewMissing), gpu-09's "
                + "gdscheck and kernel disagree on the IOMMU (SourcesDisagree); Unknown fences nothing");
        for (Map.Entry<String, String> node : CANNOT_TELL.entrySet()) {
            FixtureHost host = NodeScenarios.withFailure(
                    FixtureHost.at(hosts.resolve(node.getKey()), FixtureIdentity.forNodeName(node.getKey())), node.getValue());
            System.out.println(probeTable(host, node.getKey()));
        }

        step("the operator's metrics on :" + metricsPort + "/metrics (examples/grafana/rdma-storage.json charts them): "
                + "verdicts, why checks fail, verbs latency per node, storage bytes by transport, the fleet's distinct values");
        operator[0].registry().scrape().lines()
                .filter(l -> l.startsWith("rdmastorage_nodes{") || l.startsWith("rdmastorage_verbs_latency_seconds{")
                        || l.startsWith("rdmastorage_check_reason_nodes{") && l.contains("status=\"false\"")
                        || l.startsWith("rdmastorage_storage_") || l.startsWith("rdmastorage_fleet_distinct_values{"))
                .forEach(l -> System.out.println("      " + l));

        System.out.println();
        System.out.println("The cluster keeps running until Ctrl-C (unless started with --exit). Explore it with:");
        System.out.println("  export KUBECONFIG=" + plane.kubeconfig());
        System.out.println("  alias kubectl=" + binaries.kubectl());
        System.out.println("  kubectl get rdmastorage");
        System.out.println("  kubectl describe rsn " + PROFILE + ".gpu-03");
        System.out.println("  kubectl get events -n default --field-selector involvedObject.kind=RdmaStorageNode");
        System.out.println("  curl http://127.0.0.1:" + metricsPort + "/metrics      # or scrape it with Prometheus");
        return demo;
    }

    /**
     * A profile node's host as the demo lays it out: the scenario (null = healthy), the profile's
     * Lustre client, gpu-04's older firmware and the storage I/O of its traffic window. Each node's
     * tools name that node (its GPFS daemon gpu-0N-ib, its address, its GPFS peer).
     */
    static FixtureHost layOut(Path root, String node, String failure) {
        FixtureHost host = FixtureHost.at(root, FixtureIdentity.forNodeName(node));
        if (failure == null) {
            NodeScenarios.healthy(host);
        } else {
            NodeScenarios.withFailure(host, failure);
        }
        // the profile's lustre section: /mnt/lustre over o2ib, except where the scenario lays out a broken Lustre client
        if (failure == null || !failure.startsWith("lustre-")) {
            LustreFixtures.healthy(host);
        }
        if (node.equals(OLDER_FIRMWARE_NODE)) {
            RdmaFixtures.firmware(host, OLDER_FIRMWARE);
        }
        // storage I/O during the traffic window, as the node's own sources have it: over RDMA, over NVMe/TCP to an
        // unlisted target on gpu-06, none where the ports are down, and beside RDMA what a scenario put on TCP
        if (node.equals(DATA_ON_TCP_NODE)) {
            TrafficFixtures.overTcp(host);
        } else if (failure == null) {
            TrafficFixtures.overRdma(host);
        } else {
            switch (failure) {
                case "gpfs-tcp-fallback" -> TrafficFixtures.gpfsPeerOnTcp(host);
                case "nvmeof-on-tcp" -> TrafficFixtures.nvmeofTargetOnTcp(host);
                case "lustre-o2ib-down" -> TrafficFixtures.lustrePeerOnTcp(host);
                default -> TrafficFixtures.overRdma(host);
            }
        }
        return host;
    }

    /** node-probe's text report of a fixture host against the profile's checks: its header and table. */
    private static String probeTable(FixtureHost host, String node) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NodeProbe.run(List.of("--host-root", host.root().toString(), "--exec-mode", "direct", "--node", node,
                        "--spec", "-", "--format", "text"),
                new ByteArrayInputStream(NodeScenarios.HEALTHY_SPEC.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(OutputStream.nullOutputStream()));
        String text = out.toString(StandardCharsets.UTF_8);
        int details = text.indexOf("\n\n", text.indexOf("CHECK "));
        return details < 0 ? text : text.substring(0, details + 1);
    }

    /**
     * The acceptance node's NVMe-oF fixture with a stub nvme (connects the missing tcp controller for
     * the run, disconnects it after) and, outside its host root, the image's stub fio printing the
     * recorded outputs.
     */
    private static void acceptanceTools(FixtureHost host) {
        Path logs = host.root().resolveSibling(host.root().getFileName() + "-acceptance-logs");
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        AcceptanceFixtures.node(host, logs);
        AcceptanceFixtures.fio(ImageFioLauncher.fioOf(host.root()), host, logs, TCP_SLOWER);
    }

    /** A verdict's conditions, one per line: type, status, reason and message. */
    private static String conditions(Kubectl kubectl, String verdict) {
        return kubectl.run("get", "rsn", verdict, "-o", "jsonpath={range .status.conditions[*]}{.type} {.status} {.reason}: "
                + "{.message}{\"\\n\"}{end}").orThrow("kubectl get rsn " + verdict);
    }

    private static void awaitVerdicts(KubernetesClient admin, String profile, int nodes) throws InterruptedException {
        long deadline = System.nanoTime() + VERDICT_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            RdmaStorageProfile p = admin.resources(RdmaStorageProfile.class).withName(profile).get();
            if (p != null && p.getStatus() != null && p.getStatus().getNodes() != null
                    && p.getStatus().getNodes().getMatched() == nodes && p.getStatus().getNodes().getUnknown() == 0) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("no verdict for every node of " + profile + " within " + VERDICT_WAIT.toMinutes()
                + " minutes");
    }

    private static void awaitAcceptance(KubernetesClient admin) throws InterruptedException {
        long deadline = System.nanoTime() + VERDICT_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            RdmaStorageAcceptance run = admin.resources(RdmaStorageAcceptance.class).withName(ACCEPTANCE).get();
            String phase = run == null || run.getStatus() == null ? null : run.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("acceptance run " + ACCEPTANCE + " not finished within " + VERDICT_WAIT.toMinutes()
                + " minutes");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("crds")) && Files.isDirectory(dir.resolve("helm"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run the demo from the repository (crds/ and helm/ not found above "
                + Path.of("").toAbsolutePath() + ")");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = LocalDemo.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void step(String what) {
        System.out.println();
        System.out.println("==> " + what);
    }
}
