package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
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

    SimulatedKubelet(KubernetesClient client, ProbeLauncher launcher, PodFileResolver resolver, Predicate<Container> isProbe) {
        this.client = client;
        this.launcher = launcher;
        this.resolver = resolver;
        this.isProbe = isProbe;
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
        write(pod, node, PodStatuses.containerCreating(pod, ip, started));
        write(pod, node, PodStatuses.running(pod, ip, started));
        if (!isProbePod(pod)) {
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
        return new PodStatuses.Exit(result.exitCode(), message);
    }

    /** A strategic-merge patch of the status subresource, guarded by the pod's UID like the kubelet's. */
    private void write(Pod pod, NodeAccess node, PodStatus status) {
        if (!node.stillRunning()) {
            return;
        }
        Map<String, Object> patch = Map.of("metadata", Map.of("uid", pod.getMetadata().getUid()), "status", status);
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), client.getKubernetesSerialization().asJson(patch));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 409) {
                return; // the pod is gone or was replaced; nothing left to report
            }
            throw e;
        }
    }
}
