package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * Resolves container paths through the pod's volume mounts, like the kubelet would mount them:
 * a ConfigMap volume is read from the API server and its key written to the scratch directory;
 * a hostPath volume maps into the node's fixture host root.
 */
public final class VolumeFileResolver implements PodFileResolver {

    private final KubernetesClient client;

    public VolumeFileResolver(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Optional<Path> resolve(ContainerContext context, String containerPath) {
        VolumeMount mount = mountFor(context, containerPath);
        if (mount == null) {
            return Optional.empty();
        }
        String relative = containerPath.substring(mount.getMountPath().length()).replaceFirst("^/+", "");
        if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
            relative = relative.isEmpty() ? mount.getSubPath() : mount.getSubPath() + "/" + relative;
        }
        Volume volume = context.pod().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName())).findFirst().orElse(null);
        if (volume == null) {
            return Optional.empty();
        }
        if (volume.getHostPath() != null && context.node().hostRoot() != null) {
            String hostPath = volume.getHostPath().getPath().replaceFirst("^/+", "");
            return Optional.of(context.node().hostRoot().resolve(hostPath).resolve(relative).normalize());
        }
        if (volume.getConfigMap() != null) {
            return configMapFile(context, volume, relative);
        }
        return Optional.empty();
    }

    private static VolumeMount mountFor(ContainerContext context, String containerPath) {
        VolumeMount best = null;
        if (context.container().getVolumeMounts() == null) {
            return null;
        }
        for (VolumeMount mount : context.container().getVolumeMounts()) {
            String prefix = mount.getMountPath().endsWith("/") ? mount.getMountPath() : mount.getMountPath() + "/";
            boolean matches = containerPath.equals(mount.getMountPath()) || containerPath.startsWith(prefix);
            if (matches && (best == null || mount.getMountPath().length() > best.getMountPath().length())) {
                best = mount;
            }
        }
        return best;
    }

    /**
     * As a kubelet's volume manager does, a read the API server could not answer (down, restarting,
     * overloaded) is tried again ({@link ApiOutageRetry}): the container starts once its volume is
     * set up, it is not dropped (a restart test lost a probe pod to one such read).
     */
    private ConfigMap readConfigMap(String namespace, String name) {
        try {
            return ApiOutageRetry.untilAnswered(() -> client.configMaps().inNamespace(namespace).withName(name).get(), () -> true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading ConfigMap " + name, e);
        }
    }

    private Optional<Path> configMapFile(ContainerContext context, Volume volume, String relative) {
        ConfigMap configMap = readConfigMap(context.pod().getMetadata().getNamespace(), volume.getConfigMap().getName());
        if (configMap == null) {
            return Optional.empty();
        }
        String key = relative;
        if (volume.getConfigMap().getItems() != null && !volume.getConfigMap().getItems().isEmpty()) {
            key = volume.getConfigMap().getItems().stream().filter(item -> item.getPath().equals(relative))
                    .map(KeyToPath::getKey).findFirst().orElse(null);
        }
        byte[] content = null;
        if (key != null && configMap.getData() != null && configMap.getData().containsKey(key)) {
            content = configMap.getData().get(key).getBytes(StandardCharsets.UTF_8);
        } else if (key != null && configMap.getBinaryData() != null && configMap.getBinaryData().containsKey(key)) {
            content = Base64.getDecoder().decode(configMap.getBinaryData().get(key));
        }
        if (content == null) {
            return Optional.empty();
        }
        try {
            Path dir = Files.createDirectories(context.scratchDir().resolve("volumes").resolve(volume.getName()));
            Path file = dir.resolve(relative.replace('/', '_'));
            Files.write(file, content);
            return Optional.of(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
