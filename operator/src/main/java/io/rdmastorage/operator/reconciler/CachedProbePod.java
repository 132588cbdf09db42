package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;

/**
 * What the operator keeps of a probe or latency pod in its informer cache: its metadata (labels,
 * annotations, creation and deletion times: the round, the generation and the latency pair it
 * belongs to), its node and restart policy (a pod whose containers all ended under "Never" has
 * ended: {@code ClusterWrites.ended}), its containers' names and resources (an OOM-killed probe names its
 * memory limit: {@code ProbeOutcomeReader}), and of its status the phase, reason, message and each
 * container's state (the report is the probe container's termination message; a latency server
 * serves once its container runs). The rest of the spec is what the operator wrote itself (image,
 * arguments, volumes, tolerations, security context), the rest of the status the kubelet's
 * (pod conditions, addresses, image IDs); neither is read. Up to twice {@code maxConcurrentProbes}
 * pods per profile are in the cache at once: those running and those ended, not yet harvested.
 */
final class CachedProbePod {

    private CachedProbePod() {
    }

    /** A new Pod holding only the fields listed above, sharing their values with {@code pod}. */
    static Pod trim(Pod pod) {
        Pod kept = new Pod();
        kept.setMetadata(pod.getMetadata());
        if (pod.getSpec() != null) {
            PodSpec spec = new PodSpec();
            spec.setNodeName(pod.getSpec().getNodeName());
            spec.setRestartPolicy(pod.getSpec().getRestartPolicy());
            spec.setContainers(pod.getSpec().getContainers() == null ? null
                    : pod.getSpec().getContainers().stream().map(CachedProbePod::nameAndResources).toList());
            kept.setSpec(spec);
        }
        if (pod.getStatus() != null) {
            PodStatus status = new PodStatus();
            status.setPhase(pod.getStatus().getPhase());
            status.setReason(pod.getStatus().getReason());
            status.setMessage(pod.getStatus().getMessage());
            status.setContainerStatuses(pod.getStatus().getContainerStatuses() == null ? null
                    : pod.getStatus().getContainerStatuses().stream().map(CachedProbePod::nameAndState).toList());
            kept.setStatus(status);
        }
        return kept;
    }

    private static ContainerStatus nameAndState(ContainerStatus container) {
        ContainerStatus kept = new ContainerStatus();
        kept.setName(container.getName());
        kept.setState(container.getState());
        return kept;
    }

    private static Container nameAndResources(Container container) {
        Container kept = new Container();
        kept.setName(container.getName());
        kept.setResources(container.getResources());
        return kept;
    }
}
