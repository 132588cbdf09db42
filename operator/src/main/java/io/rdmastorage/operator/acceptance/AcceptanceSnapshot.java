package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.operator.api.NvmeofCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.status.Reasons;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
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
 * @param nodes          the run's nodes that exist ({@link AcceptanceNodes#of}): read for a run
 *                       that has not finished (a cordoned or NotReady node keeps it from starting; a
 *                       node gone or NotReady ends it), or whose changes to its node are to be cleaned up
 * @param runs           every acceptance run in the cache (one run per node at a time; compareWith)
 * @param profileTargets the NVMe-oF targets the profiles name (NQN, address, port), which a run may
 *                       connect to: read only for a run that has not started whose target connects
 *                       ({@link AcceptanceTarget#connectsToProfileTargets})
 */
record AcceptanceSnapshot(RdmaStorageAcceptance run, Set<Pod> pods, Optional<Pod> listedPod, boolean endedMeanwhile,
                          Map<String, Node> nodes, List<RdmaStorageAcceptance> runs, Set<ProbeSpec.Target> profileTargets) {

    static AcceptanceSnapshot read(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context, String namespace) {
        RdmaStorageAcceptanceStatus status = run.getStatus();
        boolean cleanup = AcceptanceCleanupKind.changesToUndo(run);
        // the informer's pods are in memory: a finished run gets them too, to delete leftovers
        Set<Pod> pods = context.getSecondaryResources(Pod.class);
        if (AcceptanceRunKind.harvested(status) && AcceptanceDigest.matches(run) && !cleanup) {
            return new AcceptanceSnapshot(run, pods, Optional.empty(), false, Map.of(), List.of(), Set.of());
        }
        KubernetesClient client = context.getClient();
        String podName = AcceptancePods.podName(run);
        Optional<Pod> cached = AcceptancePods.named(pods, podName).filter(p -> AcceptancePods.ownedBy(p, run));
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
        Set<ProbeSpec.Target> profileTargets = new LinkedHashSet<>();
        if (!running && !AcceptanceRunKind.harvested(status) && cached.isEmpty()
                && AcceptanceTarget.of(run.getSpec()).map(AcceptanceTarget::connectsToProfileTargets).orElse(false)) {
            profileTargets.addAll(profileTargets(client));
        }
        if (!AcceptanceRunKind.harvested(status) || cleanup) {
            for (String name : AcceptanceNodes.of(run)) {
                Node node = client.nodes().withName(name).get();
                if (node != null) {
                    nodes.put(name, node);
                }
            }
        }
        return new AcceptanceSnapshot(run, pods, listed, ended, nodes, context.getPrimaryCache().list().toList(),
                profileTargets);
    }

    /** Every NVMe-oF target a profile names, whole (NQN, address, port): the storage the cluster's profiles already check. */
    private static Set<ProbeSpec.Target> profileTargets(KubernetesClient client) {
        Set<ProbeSpec.Target> targets = new LinkedHashSet<>();
        for (RdmaStorageProfile profile : client.resources(RdmaStorageProfile.class).list().getItems()) {
            NvmeofCheckSpec nvmeof = profile.getSpec() == null ? null : profile.getSpec().getNvmeof();
            if (nvmeof != null && nvmeof.getTargets() != null) {
                nvmeof.getTargets().stream().filter(Objects::nonNull)
                        .filter(t -> t.getNqn() != null && t.getAddress() != null && Rules.isIpAddress(t.getAddress()))
                        .forEach(t -> targets.add(new ProbeSpec.Target(t.getNqn(), t.getAddress(), t.getPort())));
            }
        }
        return targets;
    }

    /** Whether the API server has the run finished (or gone) though the cache still shows it Running. */
    private static boolean endedMeanwhile(KubernetesClient client, RdmaStorageAcceptance run) {
        // a list by name, not a get: the operator's RBAC has list for this kind, and needs no more
        List<RdmaStorageAcceptance> latest = client.resources(RdmaStorageAcceptance.class)
                .withField("metadata.name", run.getMetadata().getName()).list().getItems();
        return latest.isEmpty() || AcceptanceRunKind.harvested(latest.get(0).getStatus());
    }

    /** Another run by name, from the cache. */
    Optional<RdmaStorageAcceptance> run(String name) {
        return runs.stream().filter(r -> name.equals(r.getMetadata().getName())).findFirst();
    }
}
