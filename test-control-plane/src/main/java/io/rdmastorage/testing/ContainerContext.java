package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;

/** One container of a pod on a simulated node, with a scratch directory the kubelet owns for it. */
public record ContainerContext(Pod pod, Container container, SimulatedNode node, Path scratchDir) {
}
