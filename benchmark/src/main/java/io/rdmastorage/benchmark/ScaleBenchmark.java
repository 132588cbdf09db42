package io.rdmastorage.benchmark;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.ControlPlaneBinaries;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.OperatorRbac;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.SimulatedNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * The operator at scale (issue 7, DESIGN "Numbers we hold ourselves to"): a real kube-apiserver
 * and etcd, N simulated nodes whose kubelets answer at once (the real node-probe, in-process, on a
 * healthy fixture host), the operator jar as a process of its own under the chart's RBAC, and one
 * profile matching every node. Measured:
 * <ul>
 * <li>time from {@code kubectl apply} to a verdict for every node (profile status: matched = N,
 * unknown = 0), and for a second round (a spec change re-probes every node);</li>
 * <li>the operator's API requests by verb and resource, from the API server's audit log;</li>
 * <li>peak heap (its /metrics), peak RSS (/proc VmHWM), CPU time of the operator, kube-apiserver,
 * etcd and this JVM (the simulated kubelets and probes);</li>
 * <li>the largest objects written (the profile, the biggest RdmaStorageNode);</li>
 * <li>the API server's floor: the same number of plain writes (server-side apply of small
 * ConfigMaps), one at a time as the reconciler writes.</li>
 * </ul>
 * Usage: {@code ScaleBenchmark --nodes 1000[,5000] [--operator-jar PATH] [--heap 256m]
 * [--kubelet-workers 16] [--one-round | --rounds N] [--node-labels] [--timeout-minutes 15] [--out FILE.md]
 * [--real-probes] [--all-pod-statuses] [--jfr FILE.jfr] [--failing PERCENT] [--odd-firmware PERCENT] [--device-taints]
 * [--heap-histogram] [--bare-nodes]}.
 *
 * <p>The Nodes carry what a real GPU node's kubelet, cloud and add-ons report (images, pressure
 * conditions, capacity, labels, annotations: {@link SimulatedCluster.Builder#realisticNodes}), so
 * the operator's Node cache costs what it would on a real cluster; {@code --bare-nodes} registers
 * them with only what the simulation needs, as before.
 *
 * <p>{@code --device-taints}: a control plane serving DRA device taints, a ResourceSlice per node with its
 * two HCAs as dranet publishes them, the failing nodes' mlx5_1 port down instead of GPFS on TCP, and
 * the profile with {@code deviceTaints} ({@link DeviceTaintScale}).
 *
 * <p>{@code --failing P}: P % of the nodes (every (100 / P)th) share a second fixture host whose GPFS
 * falls back to TCP, so their verdicts are False and the table's Events per round show what a
 * failing node costs (one Warning for its first verdict).
 *
 * <p>{@code --odd-firmware 2} puts 2% of the nodes (every 50th) on a host whose HCAs run an older
 * firmware, and prints the time from {@code kubectl apply} to the profile's correct
 * FleetConsistent: False, naming the older firmware with exactly that many nodes.
 *
 * <p>By default the simulated kubelets answer at once and cheaply, so that the machine's CPU goes
 * to the operator and the API server rather than to the harness: a probe report recorded once on
 * the shared fixture host is replayed per node with its name and time
 * ({@link SimulatedCluster.Builder#recordedProbes}), and a probe pod gets one status write, its
 * terminal one ({@link SimulatedCluster.Builder#finalStatusOnly}). {@code --real-probes} runs
 * node-probe for every pod; {@code --all-pod-statuses} writes Pending, Running and the end, as
 * the tests' kubelets do.
 */
public final class ScaleBenchmark {

    static final String NAMESPACE = "rdma-storage-system";
    static final String SERVICE_ACCOUNT = "rdma-storage-operator";
    static final String PROFILE = "scale";
    static final String NODE_LABEL = "rdmastorage.io/benchmark";
    static final String PROBE_IMAGE = "registry.example/node-probe:benchmark";
    private static final Duration SETTLE = Duration.ofSeconds(3);
    /** JOSDK's count of reconciles started (its Micrometer metrics, on the operator's /metrics). */
    private static final String RECONCILES = "operator_sdk_reconciliations_started_total";

    private final Path root;
    private final Options options;

    record Options(List<Integer> nodes, Path operatorJar, String heap, int kubeletWorkers, int rounds,
                   boolean nodeLabels, Duration timeout, Path out, boolean realProbes, boolean finalStatusOnly, Path jfr,
                   int failingPercent, int oddFirmwarePercent, boolean heapHistogram, boolean bareNodes,
                   boolean deviceTaints) {
        static final String USAGE = "--nodes 1000[,5000] [--operator-jar PATH] [--heap 256m] [--kubelet-workers 16]"
                + " [--one-round | --rounds N] [--node-labels] [--timeout-minutes 15] [--out FILE.md] [--real-probes]"
                + " [--all-pod-statuses] [--jfr FILE.jfr] [--failing PERCENT] [--odd-firmware PERCENT] [--heap-histogram]"
                + " [--bare-nodes] [--device-taints]";

        static Options parse(String[] args, Path root) {
            List<Integer> nodes = List.of(1000);
            Path jar = root.resolve("operator/target/operator.jar");
            String heap = "256m";
            int workers = 16;
            int rounds = 2;
            boolean labels = false;
            Duration timeout = Duration.ofMinutes(15);
            Path out = null;
            boolean realProbes = false;
            boolean finalStatusOnly = true;
            Path jfr = null;
            int failing = 0;
            int oddFirmware = 0;
            boolean histogram = false;
            boolean bareNodes = false;
            boolean deviceTaints = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--nodes" -> nodes = Arrays.stream(args[++i].split(",")).map(String::trim).map(Integer::parseInt).toList();
                    case "--operator-jar" -> jar = Path.of(args[++i]);
                    case "--heap" -> heap = args[++i];
                    case "--kubelet-workers" -> workers = Integer.parseInt(args[++i]);
                    case "--one-round" -> rounds = 1;
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--node-labels" -> labels = true;
                    case "--timeout-minutes" -> timeout = Duration.ofMinutes(Long.parseLong(args[++i]));
                    case "--out" -> out = Path.of(args[++i]);
                    case "--real-probes" -> realProbes = true;
                    case "--all-pod-statuses" -> finalStatusOnly = false;
                    case "--jfr" -> jfr = Path.of(args[++i]).toAbsolutePath();
                    case "--failing" -> failing = Integer.parseInt(args[++i]);
                    case "--odd-firmware" -> oddFirmware = Integer.parseInt(args[++i]);
                    case "--heap-histogram" -> histogram = true;
                    case "--bare-nodes" -> bareNodes = true;
                    case "--device-taints" -> deviceTaints = true;
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: " + USAGE);
                }
            }
            if (failing < 0 || failing > 100) {
                throw new IllegalArgumentException("--failing is a percentage, 0 to 100: " + failing);
            }
            if (oddFirmware < 0 || oddFirmware > 49) {
                throw new IllegalArgumentException("--odd-firmware is a percentage of nodes below 50 (a minority)");
            }
            if (rounds < 1) {
                throw new IllegalArgumentException("--rounds is at least 1: " + rounds);
            }
            return new Options(nodes, jar, heap, workers, rounds, labels, timeout, out, realProbes, finalStatusOnly, jfr,
                    failing, oddFirmware, histogram, bareNodes, deviceTaints);
        }
    }

    /** One round's figures. */
    record Round(String name, Duration wall, List<AuditLog.Request> requests, long peakHeap, Duration operatorCpu,
                 Duration apiServerCpu, Duration etcdCpu, Duration harnessCpu, Duration firstPodAfter, Duration lastPodAfter,
                 double reconciles, long liveAfterFullGc, Duration operatorJitCpu, Duration operatorGcCpu) {
        long writes() {
            return requests.stream().filter(AuditLog.Request::write).count();
        }
    }

    /** One node count's figures. */
    record Result(int nodes, Duration registerNodes, List<Round> rounds, long peakRss, long profileBytes,
                  long largestVerdictBytes, int verdicts, int ready, Duration floor, long floorWrites,
                  String loadBefore, String loadAfter, FleetWatch fleet) {
    }

    /** The older firmware of the odd nodes (--odd-firmware); the others run the healthy fixture's. */
    static final String OLD_FIRMWARE = "28.35.2000";

    /**
     * When the profile first shows the correct FleetConsistent: False, its status counting {@code odd}
     * nodes on {@link #OLD_FIRMWARE} and the rest on the fixture's firmware. Read on every poll of
     * round 1 (one GET of the profile, as the round's own check does).
     */
    static final class FleetWatch {
        final int odd;
        final int nodes;
        long startNanos;
        Duration correctAfter;

        FleetWatch(int odd, int nodes) {
            this.odd = odd;
            this.nodes = nodes;
        }

        boolean done(RdmaStorageProfile p) {
            if (correctAfter == null && correct(p)) {
                correctAfter = Duration.ofNanos(System.nanoTime() - startNanos);
            }
            return correctAfter != null;
        }

        private boolean correct(RdmaStorageProfile p) {
            if (p == null || p.getStatus() == null || p.getStatus().getFleet() == null) {
                return false;
            }
            boolean diverges = p.getStatus().getConditions().stream().anyMatch(c -> "FleetConsistent".equals(c.getType())
                    && "False".equals(c.getStatus()) && c.getMessage() != null && c.getMessage().contains(OLD_FIRMWARE));
            List<String> firmware = p.getStatus().getFleet().stream().filter(f -> "hcaFirmware".equals(f.getFact()))
                    .flatMap(f -> f.getValues().stream()).map(v -> v.getValue() + "=" + v.getNodes()).toList();
            return diverges && firmware.equals(List.of(RdmaFixtures.FIRMWARE + "=" + (nodes - odd), OLD_FIRMWARE + "=" + odd));
        }
    }

    private ScaleBenchmark(Path root, Options options) {
        this.root = root;
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Path root = repositoryRoot();
        ScaleBenchmark benchmark = new ScaleBenchmark(root, Options.parse(args, root));
        int status = 0;
        try {
            benchmark.runAll();
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);   // informer and kubelet threads would keep the JVM alive
    }

    private void runAll() throws Exception {
        if (!Files.isRegularFile(options.operatorJar())) {
            throw new IllegalStateException("no operator jar at " + options.operatorJar() + " (mvn -pl operator package)");
        }
        System.out.printf("machine: %d CPUs, load average %s; operator jar %s, JVM options %s (the image's, %s)%n",
                Runtime.getRuntime().availableProcessors(), loadAverage(), options.operatorJar(),
                String.join(" ", operatorJvmOptions()), root.relativize(dockerfile()));
        System.out.printf("kubelets: %s, %s; Nodes %s%n", options.realProbes() ? "node-probe run for every pod"
                : "node-probe run once, its report replayed per node",
                options.finalStatusOnly() ? "one status write per probe pod (terminal)" : "three status writes per probe pod",
                options.bareNodes() ? "bare (what the simulation needs)" : "as real GPU nodes report them (images, conditions, labels)");
        List<Result> results = new ArrayList<>();
        for (int n : options.nodes()) {
            Result result = run(n);
            results.add(result);
            System.out.println();
            System.out.println(table(List.of(result)));
        }
        String table = table(results);
        System.out.println();
        System.out.println("==> all node counts");
        System.out.println(table);
        if (options.out() != null) {
            Files.writeString(options.out(), table);
            System.out.println("written to " + options.out());
        }
    }

    private Result run(int n) throws Exception {
        step(n + " nodes: starting kube-apiserver and etcd with the operator's requests audited");
        String loadBefore = loadAverage();
        Path work = Files.createTempDirectory("rso-scale-" + n + "-");
        String user = "system:serviceaccount:" + NAMESPACE + ":" + SERVICE_ACCOUNT;
        Path policy = Files.writeString(work.resolve("audit-policy.yaml"), AuditLog.policyFor(user));
        Path auditFile = work.resolve("audit.log");
        AuditLog audit = new AuditLog(auditFile, user);
        String[] auditFlags = {"--audit-policy-file=" + policy, "--audit-log-path=" + auditFile, "--audit-log-maxsize=0"};
        // --device-taints: DRA device taints served, and the scheduler and eviction controller beside
        try (LocalControlPlane plane = options.deviceTaints()
                ? LocalControlPlane.startWithDeviceTaints(ControlPlaneBinaries.ensure(), auditFlags)
                : LocalControlPlane.start(auditFlags)) {
            KubernetesClient admin = plane.adminClient();
            plane.kubectl().apply(root.resolve("crds")).orThrow("kubectl apply -f crds");
            Path kubeconfig = plane.kubeconfigFor(NAMESPACE, SERVICE_ACCOUNT);
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                    .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
            OperatorRbac.shipped(root).grant(admin, NAMESPACE, SERVICE_ACCOUNT, SERVICE_ACCOUNT);

            FixtureHost host = FixtureHost.at(work.resolve("host"));
            NodeScenarios.healthy(host);
            FixtureHost failingHost = NodeScenarios.withFailure(FixtureHost.at(work.resolve("host-failing")),
                    options.deviceTaints() ? DeviceTaintScale.FAILING_SCENARIO : "gpfs-tcp-fallback");
            int failingEvery = options.failingPercent() == 0 ? 0 : Math.max(1, 100 / options.failingPercent());
            // --odd-firmware: every (100 / PERCENT)th node on a host with an older HCA firmware
            int every = options.oddFirmwarePercent() == 0 ? 0 : 100 / options.oddFirmwarePercent();
            FixtureHost oddHost = every == 0 ? null
                    : RdmaFixtures.firmware(NodeScenarios.healthy(FixtureHost.at(work.resolve("host-old-firmware"))), OLD_FIRMWARE);
            FleetWatch fleet = every == 0 ? null : new FleetWatch((n + every - 1) / every, n);
            try (SimulatedCluster cluster = SimulatedCluster.builder(admin).workers(options.kubeletWorkers())
                    .recordedProbes(!options.realProbes()).finalStatusOnly(options.finalStatusOnly())
                    .realisticNodes(!options.bareNodes()).start()) {
                step("registering " + n + " simulated nodes (one healthy fixture host shared by all"
                        + (failingEvery == 0 ? ")" : ", every " + failingEvery + "th one whose "
                        + (options.deviceTaints() ? "mlx5_1 port is down)" : "GPFS falls back to TCP)")));
                List<SimulatedNode> nodes = IntStream.range(0, n).mapToObj(i -> SimulatedNode.named("node-%05d".formatted(i))
                        .withLabel(NODE_LABEL, "true").withHostRoot(every > 0 && i % every == 0 ? oddHost.root()
                                : failingEvery > 0 && i % failingEvery == 0 ? failingHost.root() : host.root()))
                        .toList();
                if (fleet != null) {
                    System.out.printf("      %d of them on HCA firmware %s (--odd-firmware %d)%n", fleet.odd, OLD_FIRMWARE,
                            options.oddFirmwarePercent());
                }
                long registerStart = System.nanoTime();
                cluster.addNodes(nodes);
                Duration register = Duration.ofNanos(System.nanoTime() - registerStart);
                System.out.printf("      registered in %.1f s%n", register.toMillis() / 1000.0);
                if (options.deviceTaints()) {
                    long publishStart = System.nanoTime();
                    DeviceTaintScale.publish(admin, nodes.stream().map(SimulatedNode::name).toList());
                    System.out.printf("      %d ResourceSlices (two NICs each, as dranet publishes them) in %.1f s%n", n,
                            (System.nanoTime() - publishStart) / 1e9);
                }

                List<String> jvmOptions = operatorJvmOptions();
                step("starting the operator: java " + String.join(" ", jvmOptions) + " -jar " + options.operatorJar()
                        + " (as its service account)");
                Path jfr = options.jfr() == null ? null : options.nodes().size() == 1 ? options.jfr()
                        : options.jfr().resolveSibling(n + "-" + options.jfr().getFileName());
                try (SharedIndexInformer<RdmaStorageNode> verdictCache = admin.resources(RdmaStorageNode.class)
                        .withLabel(Labels.PROFILE, PROFILE).inform();
                     OperatorProcess operator = OperatorProcess.start(options.operatorJar(), jvmOptions, kubeconfig,
                        NAMESPACE, PROBE_IMAGE, work.resolve("operator.log"), jfr, Map.of())) {
                    operator.awaitReady(Duration.ofMinutes(3));
                    operator.startPolling();
                    Thread.sleep(SETTLE.toMillis());   // informers listed the nodes; start-up requests end here

                    step("round 1: kubectl apply of profile " + PROFILE + " (maxConcurrentProbes 1000, interval 15m)");
                    Round first = round("first (apply)", operator, audit, () -> {
                        if (fleet != null) {
                            fleet.startNanos = System.nanoTime();
                        }
                        plane.kubectl().applyYaml(profileYaml()).orThrow("kubectl apply profile");
                    }, () -> {
                        // polled on its own: the fleet may be right before the last verdict lands
                        boolean fleetDone = fleet == null
                                || fleet.done(admin.resources(RdmaStorageProfile.class).withName(PROFILE).get());
                        return allVerdicts(admin, verdictCache, n, 1) && fleetDone;
                    });
                    histogram(operator, n, 1);
                    if (fleet != null) {
                        System.out.printf("      the correct FleetConsistent (%d nodes on %s named) after %.1f s%n", fleet.odd,
                                OLD_FIRMWARE, fleet.correctAfter.toMillis() / 1000.0);
                    }
                    List<Round> rounds = new ArrayList<>(List.of(first));
                    for (int k = 2; k <= options.rounds(); k++) {
                        // the probe timeout goes 3m → 2m → 3m ...: each a spec change that re-probes every node
                        String timeout = k % 2 == 0 ? "2m" : "3m";
                        step("round " + k + ": a spec change (probeTimeout → " + timeout + ") re-probes every node");
                        operator.resetPeakHeap();
                        final int round = k;
                        rounds.add(round("round " + k + " (spec change)", operator, audit, () -> ContendedEdits.edit(
                                admin.resources(RdmaStorageProfile.class).withName(PROFILE),
                                p -> p.getSpec().setProbeTimeout(timeout)), () -> allVerdicts(admin, verdictCache, n, round)));
                        histogram(operator, n, k);
                    }
                    if (options.deviceTaints()) {
                        for (Round r : rounds) {
                            System.out.printf("      %s: the operator's DRA requests %s%n", r.name(), DeviceTaintScale.requests(r.requests()));
                        }
                        System.out.printf("      DeviceTaintRules now: %d (failing nodes: %d)%n", DeviceTaintScale.rules(admin, PROFILE),
                                failingEvery == 0 ? 0 : (n + failingEvery - 1) / failingEvery);
                    }
                    long[] rss = operator.rss();
                    String jvmScrape = operator.lastScrape();

                    RdmaStorageProfile profile = admin.resources(RdmaStorageProfile.class).withName(PROFILE).get();
                    List<RdmaStorageNode> verdicts = admin.resources(RdmaStorageNode.class)
                            .withLabel(Labels.PROFILE, PROFILE).list().getItems();
                    long largestVerdict = verdicts.stream().mapToLong(ScaleBenchmark::jsonBytes).max().orElse(0);
                    System.out.printf("      process_cpu_time in the scrape: %s; jvm_gc_pause_seconds_sum %.2f s%n",
                            Prometheus.sum(jvmScrape, "process_cpu_time_ns_total", "") > 0
                                    ? "%.1f s".formatted(Prometheus.sum(jvmScrape, "process_cpu_time_ns_total", "") / 1e9) : "absent",
                            Prometheus.sum(jvmScrape, "jvm_gc_pause_seconds_sum", ""));

                    step("the API server's floor: " + first.writes() + " server-side applies of small ConfigMaps, one at a time");
                    operator.close();
                    Duration floor = floor(admin, (int) first.writes());
                    return new Result(n, register, rounds, rss[0], jsonBytes(profile), largestVerdict, verdicts.size(),
                            profile.getStatus().getNodes().getReady(), floor, first.writes(), loadBefore, loadAverage(), fleet);
                }
            } finally {
                // no namespace controller or garbage collector: the control plane and its data go together
                deleteQuietly(work);
            }
        }
    }

    private Path dockerfile() {
        return root.resolve("operator/Dockerfile");
    }

    /** The image's JVM options with {@code --heap} as the heap (the chart's memory limit gives the image 256 MiB). */
    private List<String> operatorJvmOptions() throws IOException, InterruptedException {
        return OperatorImage.jvmOptions(root, dockerfile(), options.heap());
    }

    /**
     * With {@code --heap-histogram}: the operator's class histogram at the end of a round (after the
     * round's figures; {@code GC.class_histogram} collects first, so it counts live objects only),
     * written next to {@code --out}, or to the working directory, as {@code heap-histogram-N-roundK.txt}.
     */
    private void histogram(OperatorProcess operator, int n, int round) throws IOException, InterruptedException {
        if (!options.heapHistogram()) {
            return;
        }
        String name = "heap-histogram-%d-round%d.txt".formatted(n, round);
        Path file = options.out() == null ? Path.of(name).toAbsolutePath() : options.out().toAbsolutePath().resolveSibling(name);
        Files.writeString(file, operator.classHistogram());
        System.out.println("      class histogram written to " + file);
    }

    /** Runs {@code action}, waits for {@code done}, and reads what the round cost. */
    private Round round(String name, OperatorProcess operator, AuditLog audit, ThrowingRunnable action,
                        BooleanSupplier done) throws Exception {
        Duration operatorCpu0 = operator.cpuTime();
        Map<String, Duration> jvm0 = operator.jvmThreadCpu();
        Map<String, Duration> cpu0 = childCpu();
        Duration harness0 = harnessCpu();
        double reconciles0 = operator.metricNow(RECONCILES);
        Instant start = Instant.now();
        long started = System.nanoTime();
        action.run();
        long deadline = started + options.timeout().toNanos();
        int polls = 0;
        while (!done.getAsBoolean()) {
            if (!operator.alive()) {
                throw new IllegalStateException("the operator died; log:\n" + operator.logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no verdict for every node within " + options.timeout());
            }
            if (++polls % 40 == 0) {
                System.out.printf("      %.0f s ...%n", (System.nanoTime() - started) / 1e9);
            }
            Thread.sleep(250);
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - started);
        Instant end = Instant.now();
        // writes that trail the verdicts (e.g. follow-up reconciles) belong to the round too
        Thread.sleep(SETTLE.toMillis());
        Map<String, Duration> cpu1 = childCpu();
        Duration operatorCpu = operator.cpuTime().minus(operatorCpu0);
        Map<String, Duration> jvm1 = operator.jvmThreadCpu();
        Duration harnessCpu = harnessCpu().minus(harness0);   // before reading the audit log, which is the benchmark's work
        double reconciles = operator.metricNow(RECONCILES) - reconciles0;
        List<AuditLog.Request> requests = audit.requests(start, end.plus(SETTLE));
        Instant firstPod = null;
        Instant lastPod = null;
        for (AuditLog.Request r : requests) {
            if (r.key().equals("create pods")) {
                firstPod = firstPod == null || r.received().isBefore(firstPod) ? r.received() : firstPod;
                lastPod = lastPod == null || r.received().isAfter(lastPod) ? r.received() : lastPod;
            }
        }
        long live = operator.liveHeapAfterFullGc();   // after the CPU figures: a full GC is the benchmark's, not the round's
        System.out.printf("      all verdicts after %.1f s; %d operator requests (%d writes)%n", wall.toMillis() / 1000.0,
                requests.size(), requests.stream().filter(AuditLog.Request::write).count());
        return new Round(name, wall, requests, operator.peakHeapBytes(), operatorCpu,
                cpu1.getOrDefault("kube-apiserver", Duration.ZERO).minus(cpu0.getOrDefault("kube-apiserver", Duration.ZERO)),
                cpu1.getOrDefault("etcd", Duration.ZERO).minus(cpu0.getOrDefault("etcd", Duration.ZERO)),
                harnessCpu,
                firstPod == null ? null : Duration.between(start, firstPod), lastPod == null ? null : Duration.between(start, lastPod),
                reconciles, live, jvm1.get("JIT").minus(jvm0.get("JIT")), jvm1.get("GC").minus(jvm0.get("GC")));
    }

    /**
     * Round 1 is done when the profile counts every node and none is Unknown, and there is a
     * verdict per node; round 2 when every verdict comes from the second probe round. Verdicts are
     * read from a watch, not listed: a list of N RdmaStorageNodes four times a second would cost
     * the API server more the longer a round takes (N × polls, so N² over a round).
     */
    private static boolean allVerdicts(KubernetesClient admin, SharedIndexInformer<RdmaStorageNode> verdictCache, int n,
                                       long round) {
        RdmaStorageProfile p = admin.resources(RdmaStorageProfile.class).withName(PROFILE).get();
        if (p == null || p.getStatus() == null || p.getStatus().getNodes() == null
                || p.getStatus().getNodes().getMatched() != n || p.getStatus().getNodes().getUnknown() != 0
                || !p.getMetadata().getGeneration().equals(p.getStatus().getObservedGeneration())) {
            return false;
        }
        List<RdmaStorageNode> verdicts = verdictCache.getStore().list();
        return verdicts.size() == n && verdicts.stream().allMatch(v -> v.getStatus() != null
                && v.getStatus().getProbeRound() != null && v.getStatus().getProbeRound() >= round);
    }

    /** How long the same API server takes to accept {@code writes} small server-side applies, one at a time. */
    private static Duration floor(KubernetesClient admin, int writes) {
        String ns = "floor";
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).serverSideApply();
        for (int i = 0; i < 50; i++) {   // warm the client's connection and the server's paths
            apply(admin, ns, "warm-" + i);
        }
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            apply(admin, ns, "floor-%05d".formatted(i));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static void apply(KubernetesClient admin, String ns, String name) {
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .addToLabels("app.kubernetes.io/managed-by", "scale-benchmark").endMetadata()
                .addToData("round", "1").build()).fieldManager(OperatorConfig.FIELD_MANAGER).forceConflicts().serverSideApply();
    }

    /** The DESIGN example's checks (as on the healthy fixture node), every node, no probe-slot bound. */
    private String profileYaml() {
        return BenchmarkProfile.yaml(PROFILE, NODE_LABEL, """
                  interval: 15m
                  probeTimeout: 3m
                  maxConcurrentProbes: 1000
                  nodeLabels: %s
                """.formatted(options.nodeLabels()) + (options.deviceTaints() ? "  deviceTaints: {}\n" : ""));
    }

    // ---- the table

    static String table(List<Result> results) {
        StringBuilder out = new StringBuilder();
        out.append("| measurement |");
        results.forEach(r -> out.append(" %,d nodes |".formatted(r.nodes())));
        out.append(" target |\n|---|");
        results.forEach(r -> out.append("---|"));
        out.append("---|\n");
        row(out, results, "load average before → after", r -> r.loadBefore() + " → " + r.loadAfter(), "—");
        row(out, results, "nodes registered (harness, not operator)", r -> seconds(r.registerNodes()), "—");
        int rounds = results.stream().mapToInt(r -> r.rounds().size()).max().orElse(0);
        for (int i = 0; i < rounds; i++) {
            final int which = i;
            java.util.function.Function<Result, Round> pick = r -> which < r.rounds().size() ? r.rounds().get(which) : null;
            String label = which == 0 ? "round 1 (apply)" : "round " + (which + 1) + " (spec change)";
            row(out, results, label + ": time to every verdict", r -> pick.apply(r) == null ? "—" : seconds(pick.apply(r).wall()),
                    which == 0 ? "≤ 60 s at 1,000" : "—");
            row(out, results, label + ": probe pods created from … to", r -> pick.apply(r) == null || pick.apply(r).firstPodAfter() == null ? "—"
                    : seconds(pick.apply(r).firstPodAfter()) + " … " + seconds(pick.apply(r).lastPodAfter()), "—");
            row(out, results, label + ": operator requests per node", r -> perNode(pick.apply(r), r.nodes(), false), "—");
            row(out, results, label + ": operator writes per node", r -> perNode(pick.apply(r), r.nodes(), true), "≤ 4");
            row(out, results, label + ": writes per node by verb and resource", r -> breakdown(pick.apply(r), r.nodes(), true), "—");
            row(out, results, label + ": reads per node by verb and resource", r -> breakdown(pick.apply(r), r.nodes(), false), "—");
            row(out, results, label + ": Events created", r -> pick.apply(r) == null ? "—"
                    : "%,d".formatted(pick.apply(r).requests().stream()
                            .filter(q -> q.verb().equals("create") && q.resource().equals("events")).count()), "—");
            row(out, results, label + ": CPU s operator / kube-apiserver / etcd / harness (kubelets + probes)",
                    r -> pick.apply(r) == null ? "—" : "%s / %s / %s / %s".formatted(cpu(pick.apply(r).operatorCpu()),
                            cpu(pick.apply(r).apiServerCpu()), cpu(pick.apply(r).etcdCpu()), cpu(pick.apply(r).harnessCpu())), "—");
            row(out, results, label + ": operator CPU per node", r -> pick.apply(r) == null ? "—"
                    : "%.2f ms".formatted(pick.apply(r).operatorCpu().toNanos() / 1e6 / r.nodes()), "—");
            row(out, results, label + ": operator CPU s of which JIT compilers / GC", r -> pick.apply(r) == null ? "—"
                    : "%s / %s".formatted(cpu(pick.apply(r).operatorJitCpu()), cpu(pick.apply(r).operatorGcCpu())), "—");
            row(out, results, label + ": operator CPU per node vs the API server's", r -> pick.apply(r) == null ? "—"
                    : "%.1f vs %.1f ms (%.2f×)".formatted(pick.apply(r).operatorCpu().toNanos() / 1e6 / r.nodes(),
                            pick.apply(r).apiServerCpu().toNanos() / 1e6 / r.nodes(),
                            pick.apply(r).operatorCpu().toNanos() / (double) pick.apply(r).apiServerCpu().toNanos()), "≤ 1×");
            row(out, results, label + ": reconciles", r -> pick.apply(r) == null || Double.isNaN(pick.apply(r).reconciles()) ? "—"
                    : "%,.0f".formatted(pick.apply(r).reconciles()), "—");
            row(out, results, label + ": peak operator heap", r -> pick.apply(r) == null ? "—" : mib(pick.apply(r).peakHeap()), "≤ 256 MiB");
            row(out, results, label + ": live heap at the end (after a full GC)", r -> pick.apply(r) == null
                    || pick.apply(r).liveAfterFullGc() < 0 ? "—" : mib(pick.apply(r).liveAfterFullGc()), "—");
        }
        if (results.stream().anyMatch(r -> r.fleet() != null)) {
            row(out, results, "round 1: time to the correct FleetConsistent (odd firmware nodes)", r -> r.fleet() == null ? "—"
                    : "%s (%,d nodes)".formatted(seconds(r.fleet().correctAfter), r.fleet().odd), "—");
        }
        row(out, results, "peak operator RSS (VmHWM)", r -> mib(r.peakRss()), "—");
        row(out, results, "API server floor: same number of plain writes, one at a time", r -> "%s for %,d".formatted(seconds(r.floor()),
                r.floorWrites()), "—");
        row(out, results, "round 1 time / floor", r -> "%.1f×".formatted(r.rounds().get(0).wall().toNanos() / (double) r.floor().toNanos()), "≤ 2×");
        row(out, results, "RdmaStorageNodes / ready", r -> "%,d / %,d".formatted(r.verdicts(), r.ready()), "N / N");
        row(out, results, "largest object: profile (JSON)", r -> kib(r.profileBytes()), "well under 100 KiB");
        row(out, results, "largest object: an RdmaStorageNode (JSON)", r -> kib(r.largestVerdictBytes()), "—");
        return out.toString();
    }

    private static void row(StringBuilder out, List<Result> results, String name,
                            java.util.function.Function<Result, String> value, String target) {
        out.append("| ").append(name).append(" |");
        results.forEach(r -> out.append(' ').append(value.apply(r)).append(" |"));
        out.append(' ').append(target).append(" |\n");
    }

    private static String perNode(Round round, int n, boolean writes) {
        if (round == null) {
            return "—";
        }
        long count = writes ? round.writes() : round.requests().size();
        return "%.2f (%,d)".formatted(count / (double) n, count);
    }

    private static String breakdown(Round round, int n, boolean writes) {
        if (round == null) {
            return "—";
        }
        Map<String, Integer> counts = AuditLog.byVerbAndResource(round.requests().stream()
                .filter(r -> r.write() == writes).toList());
        List<String> parts = new ArrayList<>();
        counts.forEach((key, count) -> parts.add(count >= n / 2
                ? "%s %.2f".formatted(key, count / (double) n) : "%s ×%d".formatted(key, count)));
        return parts.isEmpty() ? "none" : String.join("; ", parts);
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String cpu(Duration d) {
        return String.format(Locale.ROOT, "%.1f", d.toMillis() / 1000.0);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }

    private static String kib(long bytes) {
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }

    // ---- the machine

    /** CPU time of kube-apiserver and etcd (this JVM's children). */
    private static Map<String, Duration> childCpu() {
        Map<String, Duration> cpu = new LinkedHashMap<>();
        ProcessHandle.current().descendants().forEach(p -> {
            String command = p.info().command().orElse("");
            String name = command.endsWith("kube-apiserver") ? "kube-apiserver" : command.endsWith("/etcd") ? "etcd" : null;
            if (name != null) {
                cpu.merge(name, p.info().totalCpuDuration().orElse(Duration.ZERO), Duration::plus);
            }
        });
        return cpu;
    }

    /** This JVM's CPU time: the simulated kubelets, the in-process probes and the benchmark's own polling. */
    private static Duration harnessCpu() {
        return ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class) == null ? Duration.ZERO
                : Duration.ofNanos(ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime());
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "n/a";
        }
    }

    private static long jsonBytes(Object object) {
        return object == null ? 0 : Serialization.asJson(object).getBytes(StandardCharsets.UTF_8).length;
    }

    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("crds")) && Files.isDirectory(dir.resolve("helm"))) {
                return dir;
            }
        }
        throw new IllegalStateException("run the benchmark from the repository (crds/ and helm/ not found above "
                + Path.of("").toAbsolutePath() + ")");
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temp dir left behind
        }
    }

    private static void step(String what) {
        System.out.println();
        System.out.println("==> " + what);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
