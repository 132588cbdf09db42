package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a kubelet does with one pod bound to its node: writes Pending (ContainerCreating), runs the
 * containers (probe containers run node-probe against the node's fixture host root; any other
 * container keeps running), then writes Running and the terminal status with each container's
 * termination message. Node faults bend this path. Stateless; one instance serves every node.
 */
final class SimulatedKubelet {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelet.class);
    private static final String DEFAULT_TERMINATION_PATH = "/dev/termination-log";

    /** The kubelet's view of its node and of the run it is doing, both owned by the cluster. */
    interface NodeAccess {
        SimulatedNode node();

        String hostIp();

        boolean stillRunning();

        void disappear();
    }

    private final KubernetesClient client;
    private final ProbeLauncher launcher;
    private final PodFileResolver resolver;
    private final Predicate<Container> isProbe;
    /** Benchmark shortcuts, off by default: see {@link SimulatedCluster.Builder#recordedProbes}. */
    private final RecordedProbes recordings;
    /** See {@link SimulatedCluster.Builder#finalStatusOnly}. */
    private final boolean finalStatusOnly;

    SimulatedKubelet(KubernetesClient client, ProbeLauncher launcher, PodFileResolver resolver, Predicate<Container> isProbe) {
        this(client, launcher, resolver, isProbe, false, false);
    }

    SimulatedKubelet(KubernetesClient client, ProbeLauncher launcher, PodFileResolver resolver, Predicate<Container> isProbe,
                     boolean recordedProbes, boolean finalStatusOnly) {
        this.client = client;
        this.launcher = launcher;
        this.resolver = resolver;
        this.isProbe = isProbe;
        this.recordings = recordedProbes ? new RecordedProbes() : null;
        this.finalStatusOnly = finalStatusOnly;
    }

    boolean isProbePod(Pod pod) {
        return pod.getSpec().getContainers().stream().anyMatch(isProbe);
    }

    /**
     * Drives the pod as far as the node's fault allows. Returns true when the pod reached a terminal
     * phase, false when it was left Pending or Running on purpose.
     */
    boolean run(Pod pod, NodeAccess node, Path scratchDir) throws InterruptedException {
        Instant started = Instant.now();
        String ip = node.hostIp();
        switch (node.node().fault()) {
            case PODS_STAY_PENDING -> {
                write(pod, node, PodStatuses.containerCreating(pod, ip, started));
                return false;
            }
            case IMAGE_PULL_ERROR -> {
                write(pod, node, PodStatuses.imagePullError(pod, ip, started, "ErrImagePull"));
                Thread.sleep(200);
                write(pod, node, PodStatuses.imagePullError(pod, ip, started, "ImagePullBackOff"));
                return false;
            }
            default -> {
            }
        }
        boolean probePod = isProbePod(pod);
        // a probe pod on a healthy node may go from created to its end in one status write (opt-in)
        if (!(finalStatusOnly && probePod && node.node().fault() == NodeFault.NONE)) {
            write(pod, node, PodStatuses.containerCreating(pod, ip, started));
            write(pod, node, PodStatuses.running(pod, ip, started));
        }
        if (!probePod) {
            return false;
        }
        switch (node.node().fault()) {
            case PROBE_HANGS -> {
                return false;
            }
            case DISAPPEARS_MID_PROBE -> {
                node.disappear();
                return false;
            }
            default -> {
            }
        }
        Map<String, PodStatuses.Exit> exits = new LinkedHashMap<>();
        for (Container container : pod.getSpec().getContainers()) {
            exits.put(container.getName(), isProbe.test(container)
                    ? runProbe(new ContainerContext(pod, container, node.node(), scratchDir), ip)
                    : new PodStatuses.Exit(0, null));
        }
        if (!node.stillRunning()) {
            return false;
        }
        write(pod, node, PodStatuses.terminated(pod, ip, started, Instant.now(), exits));
        return true;
    }

    private PodStatuses.Exit runProbe(ContainerContext context, String hostIp) throws InterruptedException {
        Container container = context.container();
        Path dir;
        try {
            dir = Files.createDirectories(context.scratchDir().resolve(container.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path terminationFile = dir.resolve("termination-log");
        Map<String, String> env = ContainerEnv.of(context.pod(), container, hostIp);
        String terminationPath = container.getTerminationMessagePath() != null
                ? container.getTerminationMessagePath() : DEFAULT_TERMINATION_PATH;
        Path hostRoot = context.node().hostRoot() != null ? context.node().hostRoot() : dir.resolve("empty-host-root");
        try {
            Files.createDirectories(hostRoot);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> args = ProbeArguments.translate(ContainerEnv.expand(container.getArgs(), env), hostRoot,
                terminationPath, terminationFile, dir.resolve("output"), path -> resolver.resolve(context, path));
        if (recordings != null) {
            String nodeName = context.node().name();
            RecordedProbes.Recorded recorded;
            try {
                recorded = recordings.answer(recordingKey(hostRoot, args, context.scratchDir(), nodeName),
                        () -> launchAndRead(context, args, env, terminationFile));
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return new PodStatuses.Exit(recorded.exitCode(), RecordedProbes.forNode(recorded.message(), nodeName, Instant.now()));
        }
        RecordedProbes.Recorded result = launchAndRead(context, args, env, terminationFile);
        return new PodStatuses.Exit(result.exitCode(), result.message());
    }

    /**
     * What makes two probe runs give the same report: the host root, the arguments (with the node's
     * name and the pod's own scratch directory left out) and the content of the spec file.
     */
    private static String recordingKey(Path hostRoot, List<String> args, Path scratchDir, String nodeName) {
        StringBuilder key = new StringBuilder(hostRoot.toString());
        String scratch = scratchDir.toString();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            key.append('\n').append(arg.equals(nodeName) ? "<node>" : arg.replace(scratch, "<scratch>"));
            if (arg.equals("--spec") && i + 1 < args.size()) {
                Path spec = Path.of(args.get(i + 1));
                try {
                    key.append("\n<spec>").append(Files.isRegularFile(spec) ? Files.readString(spec) : "");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return key.toString();
    }

    /** Runs node-probe and reads what its kubelet would report: exit code and termination message. */
    private RecordedProbes.Recorded launchAndRead(ContainerContext context, List<String> args, Map<String, String> env,
                                                  Path terminationFile) throws InterruptedException {
        Container container = context.container();
        CommandResult result = launcher.launch(args, env);
        byte[] file;
        try {
            file = Files.exists(terminationFile) ? Files.readAllBytes(terminationFile) : new byte[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] log = (result.stdout() + result.stderr()).getBytes(StandardCharsets.UTF_8);
        String message = TerminationMessage.of(file, container.getTerminationMessagePolicy(), result.exitCode(), log);
        LOG.debug("probe {} on {} exited {}", context.pod().getMetadata().getName(), context.node().name(), result.exitCode());
        return new RecordedProbes.Recorded(result.exitCode(), message);
    }

    /**
     * A strategic-merge patch of the status subresource, guarded by the pod's UID like the kubelet's.
     * Sent through the client's own HTTP client (same request, same credentials) because the answer,
     * the whole pod, is not needed: deserializing it cost the harness more than the write itself.
     */
    private void write(Pod pod, NodeAccess node, PodStatus status) throws InterruptedException {
        if (!node.stillRunning()) {
            return;
        }
        Map<String, Object> patch = Map.of("metadata", Map.of("uid", pod.getMetadata().getUid()), "status", status);
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceFirst("/$", "") + "/api/v1/namespaces/"
                        + pod.getMetadata().getNamespace() + "/pods/" + pod.getMetadata().getName() + "/status")
                .method("PATCH", "application/strategic-merge-patch+json", client.getKubernetesSerialization().asJson(patch))
                .build();
        // as a kubelet's status manager does, a write the API server could not take (down, restarting,
        // overloaded) is sent again until it is taken or the node stops
        ApiOutageRetry.untilAnswered(() -> {
            HttpResponse<byte[]> response = http.sendAsync(request, byte[].class).get();
            // a 404 or 409: the pod is gone or was replaced; nothing left to report
            if (response.isSuccessful() || response.code() == 404 || response.code() == 409) {
                return response;
            }
            throw new KubernetesClientException("pod status patch of " + pod.getMetadata().getName() + ": HTTP "
                    + response.code() + " " + new String(response.body(), StandardCharsets.UTF_8), response.code(), null);
        }, node::stillRunning);
    }
}
