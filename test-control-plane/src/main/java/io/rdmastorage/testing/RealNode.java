package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes node on this machine: the distribution's containerd and runc, and a kubelet built
 * from the Kubernetes module, registered with a {@link LocalControlPlane} started
 * {@linkplain LocalControlPlane#startWithControllers with its controllers}. Pods on it are started by
 * the real kubelet and runtime from images imported with {@link #importImage}: their mounts, devices,
 * termination messages and security contexts are the runtime's own.
 *
 * <h2>What the node is made of, and why</h2>
 * <ul>
 * <li>Its own mount, network and PID namespaces ({@code real-node-init.sh} is its PID 1, then
 * {@code rso-node pause}). The machine's root stays private and untouched; the node's is shared, as
 * containerd's HostToContainer mounts need. The node's PID 1 is a process of ours, so a pod that
 * enters {@code /proc/1/ns/net} (node-probe's way to the host's network) finds the node's network
 * as on a real node. Killing it ends every process of the node, so nothing outlives a teardown.</li>
 * <li>The node's network has only loopback addresses and the pods' CNI bridge: the API server's
 * service address ({@value #API_VIP}, the first address of the service range: in-cluster clients
 * and the kubelet use it, and the server's certificate names it) is forwarded over a Unix socket to
 * the test's loopback API server by two {@code rso-node forward} processes. No address of the machine
 * is used, nothing leaves it.</li>
 * <li>cgroup v1 hierarchies of the machine under a cgroup root of its own, removed at close.</li>
 * </ul>
 * Needs root. Binaries: {@code build-binaries.sh} (kubelet) and {@code fetch-node-runtime.sh}
 * (containerd, runc, CNI plugins, rso-node and the sandbox image), both cached per version.
 */
public final class RealNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RealNode.class);
    /** The kubernetes Service's address: the first of LocalControlPlane's service range. */
    public static final String API_VIP = "10.0.0.1";
    /** The node's InternalIP, on its loopback device. */
    public static final String NODE_IP = "10.99.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /**
     * Where the kubelet, containerd and libcni write whatever their configuration says: bound to
     * folders of the node inside its mount namespace; the mount points are created when absent
     * and removed again at close.
     */
    static final List<Path> HARD_CODED_PATHS = List.of(Path.of("/var/lib/kubelet"), Path.of("/var/log/containers"),
            Path.of("/var/log/pods"), Path.of("/run/containerd"), Path.of("/var/lib/cni"));
    private static final List<String> CGROUP_V1 = List.of("blkio", "cpu", "cpuacct", "cpuset", "devices", "freezer",
            "hugetlb", "memory", "net_cls", "net_prio", "perf_event", "pids", "systemd");

    private final String name;
    private final Path workDir;
    private final NodeRuntime runtime;
    private final String cgroupRoot;
    private final List<Path> createdMountPoints = new ArrayList<>();
    private final List<Path> createdCgroups = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private Process holder;
    private long initPid = -1;

    private RealNode(String name, Path workDir, NodeRuntime runtime) {
        this.name = name;
        this.workDir = workDir;
        this.runtime = runtime;
        this.cgroupRoot = "/rso-" + workDir.getFileName();
    }

    /**
     * Starts containerd and a kubelet registered as {@code name} with {@code plane} (whose node token
     * for {@code name} it uses), and waits until the Node is Ready.
     */
    public static RealNode start(LocalControlPlane plane, String name) {
        NodeRuntime runtime = NodeRuntime.ensure();
        Path workDir;
        try {
            workDir = Files.createTempDirectory("rso-node-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RealNode node = new RealNode(name, workDir, runtime);
        try {
            node.boot(plane);
            return node;
        } catch (RuntimeException e) {
            LOG.error("node {} did not start; kubelet log:\n{}\ncontainerd log:\n{}", name, node.logTail("kubelet.log", 40),
                    node.logTail("containerd.log", 20));
            node.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    /** The kubelet's {@code cgroupRoot} (with its leading slash): every pod's cgroup is below it. */
    public String cgroupRoot() {
        return cgroupRoot;
    }

    /** The host's view of the node's PID 1, whose namespaces are the node's. */
    public long initPid() {
        return initPid;
    }

    private void boot(LocalControlPlane plane) {
        long started = System.nanoTime();
        try {
            Files.createDirectories(workDir.resolve("log"));
            createMountPoints();
            createCgroupRoot();
            startNamespaces();
            String apiSocket = workDir.resolve("api.sock").toString();
            // machine side first: the node side dials it for every connection
            startProcess("forward-machine", false, List.of(runtime.rsoNode().toString(), "forward",
                    "unix:" + apiSocket, "tcp:127.0.0.1:" + plane.port()), "listening on");
            startProcess("forward-node", true, List.of(runtime.rsoNode().toString(), "forward",
                    "tcp:" + API_VIP + ":443", "unix:" + apiSocket), "listening on");
            NodeConfigFiles configFiles = new NodeConfigFiles(workDir, runtime, cgroupRoot);
            configFiles.writeCni();
            Path containerdConfig = configFiles.writeContainerd();
            startProcess("containerd", true, List.of(runtime.containerd().toString(), "--config", containerdConfig.toString()), "");
            waitFor("containerd's socket", () -> Files.exists(containerdSocket()));
            importImage(runtime.sandboxImage(), "registry.k8s.io/pause");
            Path kubeconfig = plane.writeNodeKubeconfig(name, workDir.resolve("kubelet.kubeconfig"), "https://" + API_VIP + ":443");
            Path kubeletConfig = configFiles.writeKubelet();
            startProcess("kubelet", true, List.of(runtime.kubelet().toString(),
                    "--config=" + kubeletConfig,
                    "--kubeconfig=" + kubeconfig,
                    "--hostname-override=" + name,
                    "--node-ip=" + NODE_IP,
                    "--root-dir=" + workDir.resolve("kubelet"),
                    "--cert-dir=" + workDir.resolve("kubelet-pki"),
                    "--v=1"), "");
            waitFor("node " + name + " Ready", () -> plane.isNodeReady(name));
            LOG.info("real node {} ready in {} ms (work dir {}, PID 1 {})", name, (System.nanoTime() - started) / 1_000_000,
                    workDir, initPid);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Imports an OCI image archive into the node's containerd under {@code baseName} (its tag comes
     * from the archive's reference name), as a registry pull would leave it.
     */
    public void importImage(Path ociArchive, String baseName) {
        long started = System.nanoTime();
        CommandResult result = Commands.run(Duration.ofMinutes(5), List.of("nsenter", "--target", Long.toString(initPid),
                "--mount", "--net", "--", runtime.ctr().toString(), "--address", containerdSocket().toString(),
                "--namespace", "k8s.io", "images", "import", "--base-name", baseName, ociArchive.toString()));
        result.orThrow("ctr images import " + ociArchive);
        LOG.info("imported {} as {} in {} ms", ociArchive.getFileName(), baseName, (System.nanoTime() - started) / 1_000_000);
    }

    /** Runs {@code argv} in the node's network namespace (for what only a node's process can reach, such as a pod's IP). */
    public CommandResult inNodeNetwork(Duration timeout, List<String> argv) {
        List<String> command = new ArrayList<>(List.of("nsenter", "--target", Long.toString(initPid), "--net", "--"));
        command.addAll(argv);
        return Commands.run(timeout, command);
    }

    /** An HTTP GET from the node's network (a pod's IP), the body when the answer is 200. */
    public String httpGet(String url) {
        return inNodeNetwork(Duration.ofSeconds(30), List.of(runtime.rsoNode().toString(), "get", url))
                .orThrow("GET " + url);
    }

    /**
     * Starts a long-running process in the node's namespaces (a stand-in workload of the node, such as
     * a storage stream), stopped at close; {@code name} names its log. Waits for a line containing
     * {@code readyLine} in its output when that is not empty.
     */
    public void startInNode(String name, List<String> argv, String readyLine) {
        try {
            startProcess(name, true, argv, readyLine);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code rso-node} (see its source for what it does), for {@link #startInNode}. */
    public Path rsoNode() {
        return runtime.rsoNode();
    }

    public String kubeletLogTail(int lines) {
        return logTail("kubelet.log", lines);
    }

    private Path containerdSocket() {
        return NodeConfigFiles.containerdSocket(workDir);
    }

    private void createMountPoints() throws IOException {
        for (Path path : HARD_CODED_PATHS) {
            if (!Files.exists(path)) {
                Path top = path;
                while (top.getParent() != null && !Files.exists(top.getParent())) {
                    top = top.getParent();
                }
                Files.createDirectories(path);
                createdMountPoints.add(top);
            }
        }
    }

    private void createCgroupRoot() throws IOException {
        for (String hierarchy : CGROUP_V1) {
            Path base = Path.of("/sys/fs/cgroup", hierarchy);
            if (!Files.isDirectory(base) || Files.isSymbolicLink(base)) {
                continue;
            }
            Path dir = base.resolve(cgroupRoot.substring(1));
            Files.createDirectories(dir);
            createdCgroups.add(dir);
            if (hierarchy.equals("cpuset")) {
                // a new cpuset cgroup has no CPUs or memory nodes until given its parent's
                Files.writeString(dir.resolve("cpuset.cpus"), Files.readString(base.resolve("cpuset.cpus")).trim());
                Files.writeString(dir.resolve("cpuset.mems"), Files.readString(base.resolve("cpuset.mems")).trim());
            }
        }
    }

    private void startNamespaces() throws IOException {
        Path ready = workDir.resolve("namespaces-ready");
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--net", "--pid", "--fork", "--mount-proc",
                "--propagation", "private", "--", "sh", runtime.initScript().toString(), workDir.toString(),
                runtime.rsoNode().toString(), ready.toString(), API_VIP, NODE_IP));
        HARD_CODED_PATHS.forEach(p -> command.add(p.toString()));
        holder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("log/init.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        waitFor("the node's namespaces", () -> {
            if (!holder.isAlive()) {
                throw new IllegalStateException("the node's PID 1 exited: " + logTail("init.log", 20));
            }
            return Files.exists(ready);
        });
        initPid = holder.toHandle().children().findFirst().map(ProcessHandle::pid)
                .orElseThrow(() -> new IllegalStateException("unshare has no child"));
    }

    /** A long-running process of the node, in its mount, network and PID namespaces ({@code inNode}) or on the machine. */
    private void startProcess(String what, boolean inNode, List<String> argv, String readyLine) throws IOException {
        List<String> command = new ArrayList<>();
        if (inNode) {
            command.addAll(List.of("nsenter", "--target", Long.toString(initPid), "--mount", "--net", "--pid", "--"));
        }
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("log/" + what + ".log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("PATH", runtime.path());
        Process process = builder.start();
        processes.add(process);
        if (!readyLine.isEmpty()) {
            waitFor(what + " to print '" + readyLine + "'", () -> logTail(what + ".log", 5).contains(readyLine));
        }
    }

    private void waitFor(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a process of node " + name + " exited while waiting for " + what
                            + " (exit " + p.exitValue() + "); kubelet log:\n" + logTail("kubelet.log", 30)
                            + "\ncontainerd log:\n" + logTail("containerd.log", 20));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what + " on node " + name);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    private String logTail(String log, int lines) {
        return ServerProcess.tail(workDir.resolve("log").resolve(log), lines);
    }

    /**
     * Stops the kubelet, then containerd, then ends every process of the node with its PID 1; removes
     * the cgroup root, the mount points it created, and the work directory. Pods the API server still
     * lists stay there (the node is gone, as when a real node dies); delete them first for a clean stop.
     */
    @Override
    public void close() {
        // kubelet first, so it does not restart what containerd is stopping
        for (int i = processes.size() - 1; i >= 0; i--) {
            stop(processes.get(i));
        }
        if (initPid > 0) {
            ProcessHandle.of(initPid).ifPresent(ProcessHandle::destroyForcibly);
        }
        if (holder != null) {
            holder.destroyForcibly();
            awaitExit(holder.toHandle(), Duration.ofSeconds(10));
        }
        if (initPid > 0) {
            ProcessHandle.of(initPid).ifPresent(p -> awaitExit(p, Duration.ofSeconds(10)));
        }
        removeCgroups();
        for (Path top : createdMountPoints) {
            TempDirs.delete(top);
        }
        if (Boolean.getBoolean("rdmastorage.realnode.keep")) {
            LOG.info("keeping node work dir {}", workDir);
            return;
        }
        TempDirs.delete(workDir);
    }

    /** SIGTERM to the node's own process (nsenter's child), then to nsenter; SIGKILL after 10 s. */
    private static void stop(Process process) {
        List<ProcessHandle> tree = Stream.concat(process.descendants(), Stream.of(process.toHandle())).toList();
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : tree) {
            if (!awaitExit(p, Duration.ofSeconds(10))) {
                p.destroyForcibly();
                awaitExit(p, Duration.ofSeconds(5));
            }
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return !process.isAlive();
        }
    }

    /** Deepest first: a cgroup can only be removed once it has no children and no processes. */
    private void removeCgroups() {
        for (Path root : createdCgroups) {
            List<Path> dirs;
            try (Stream<Path> walk = Files.walk(root)) {
                dirs = walk.filter(Files::isDirectory).sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
            } catch (IOException e) {
                continue;
            }
            for (Path dir : dirs) {
                for (int attempt = 0; attempt < 50; attempt++) {
                    try {
                        Files.delete(dir);
                        break;
                    } catch (IOException e) {
                        // the kernel frees a cgroup a moment after its last process exits
                        sleepQuietly(100);
                    }
                }
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a closed node must not leave: for the teardown test. */
    public Optional<String> leftovers() {
        List<String> found = new ArrayList<>();
        if (initPid > 0 && ProcessHandle.of(initPid).map(ProcessHandle::isAlive).orElse(false)) {
            found.add("the node's PID 1 (" + initPid + ") still runs");
        }
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(workDir.toString())).orElse(false))
                .forEach(p -> found.add("process " + p.pid() + ": " + p.info().commandLine().orElse("?")));
        createdCgroups.stream().filter(Files::exists).forEach(c -> found.add("cgroup " + c));
        createdMountPoints.stream().filter(Files::exists).forEach(m -> found.add("mount point " + m));
        if (Files.exists(workDir)) {
            found.add("work dir " + workDir);
        }
        try {
            Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                    .filter(l -> l.contains(workDir.toString()) || l.contains(cgroupRoot))
                    .forEach(l -> found.add("mount " + l));
        } catch (IOException e) {
            found.add("mountinfo unreadable: " + e.getMessage());
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", found));
    }
}
