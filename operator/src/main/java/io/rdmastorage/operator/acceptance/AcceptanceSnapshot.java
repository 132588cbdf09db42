package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.status.Reasons;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything one reconcile of an acceptance run plans from, read once before planning (the observe
 * step, as {@code ProfileSnapshot} is for a profile): the run's pods from the informer, the other
 * runs from the primary cache, and the few reads of the API server the cache cannot answer, each
 * only where the plan can depend on it.
 *
 * @param pods           the pods of the run's name as the informer shows them: its own, and those of an
 *                       earlier run of the same name still being deleted (told apart by UID)
 * @param listedPod      the run's own pod listed from the API server: read only for a Running run
 *                       whose pod the cache does not show (just created, or really gone)
 * @param endedMeanwhile the API server has the run finished or gone though the cache still shows it
 *                       Running: read only for a Running run whose pod is absent or being deleted
 *                       (its own end deleted the pods, and their events came first)
 * @param nodes          the run's nodes that exist ({@link AcceptancePlanner#nodes}): read for a run
 *                       that has not finished (a cordoned or NotReady node keeps it from starting; a
 *                       node gone or NotReady ends it)
 * @param runs           every acceptance run in the cache (one run per node at a time; compareWith)
 */
record AcceptanceSnapshot(RdmaStorageAcceptance run, Set<Pod> pods, Optional<Pod> listedPod, boolean endedMeanwhile,
                          Map<String, Node> nodes, List<RdmaStorageAcceptance> runs) {

    static AcceptanceSnapshot read(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context, String namespace) {
        RdmaStorageAcceptanceStatus status = run.getStatus();
        if (AcceptanceRunKind.finished(status) && AcceptanceDigest.matches(run)) {
            return new AcceptanceSnapshot(run, Set.of(), Optional.empty(), false, Map.of(), List.of());
        }
        KubernetesClient client = context.getClient();
        Set<Pod> pods = context.getSecondaryResources(Pod.class);
        String podName = AcceptancePods.podName(run);
        Optional<Pod> cached = AcceptancePlanner.named(pods, podName).filter(p -> AcceptancePods.ownedBy(p, run));
        boolean running = status != null && Reasons.Acceptance.PHASE_RUNNING.equals(status.getPhase());
        boolean ended = running && (cached.isEmpty() || cached.get().getMetadata().getDeletionTimestamp() != null)
                && endedMeanwhile(client, run);
        Optional<Pod> listed = Optional.empty();
        if (running && !ended && cached.isEmpty()) {
            listed = client.pods().inNamespace(namespace)
                    .withLabel(RdmaStorageAcceptance.RUN_LABEL, run.getMetadata().getName()).list().getItems().stream()
                    .filter(p -> podName.equals(p.getMetadata().getName())).findFirst();
        }
        Map<String, Node> nodes = new HashMap<>();
        if (!AcceptanceRunKind.finished(status)) {
            for (String name : AcceptancePlanner.nodes(run)) {
                Node node = client.nodes().withName(name).get();
                if (node != null) {
                    nodes.put(name, node);
                }
            }
        }
        return new AcceptanceSnapshot(run, pods, listed, ended, nodes, context.getPrimaryCache().list().toList());
    }

    /** Whether the API server has the run finished (or gone) though the cache still shows it Running. */
    private static boolean endedMeanwhile(KubernetesClient client, RdmaStorageAcceptance run) {
        // a list by name, not a get: the operator's RBAC has list for this kind, and needs no more
        List<RdmaStorageAcceptance> latest = client.resources(RdmaStorageAcceptance.class)
                .withField("metadata.name", run.getMetadata().getName()).list().getItems();
        return latest.isEmpty() || AcceptanceRunKind.finished(latest.get(0).getStatus());
    }

    /** Another run by name, from the cache. */
    Optional<RdmaStorageAcceptance> run(String name) {
        return runs.stream().filter(r -> name.equals(r.getMetadata().getName())).findFirst();
    }
}
