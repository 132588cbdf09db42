package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;

/**
 * What the operator keeps of a probe or latency pod in its informer cache: its metadata (labels,
 * annotations, creation and deletion times: the round, the generation and the latency pair it
 * belongs to), its node, its containers' names and resources (an OOM-killed probe names its
 * memory limit: {@code ProbeOutcomeReader}), and its whole status (the report is the probe
 * container's termination message). The rest of the spec is what the operator wrote itself
 * (image, arguments, volumes, tolerations, security context) and is never read back: up to
 * {@code maxConcurrentProbes} pods per profile are in the cache at once.
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
            spec.setContainers(pod.getSpec().getContainers() == null ? null
                    : pod.getSpec().getContainers().stream().map(CachedProbePod::nameAndResources).toList());
            kept.setSpec(spec);
        }
        kept.setStatus(pod.getStatus());
        return kept;
    }

    private static Container nameAndResources(Container container) {
        Container kept = new Container();
        kept.setName(container.getName());
        kept.setResources(container.getResources());
        return kept;
    }
}
