package io.rdmastorage.operator.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.probe.ProfileOwnerReference;
import io.rdmastorage.operator.verdict.VerdictDigest;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every write the reconcilers make to the API server besides their own status, each the cheapest
 * that is safe: server-side apply with one field manager for what we own, create/delete for pods.
 * Profiles and acceptance runs write through it alike. Counting these is how the benchmark checks
 * "≤ 4 API writes per node per round".
 */
public final class ClusterWrites {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterWrites.class);
    private static final PatchContext APPLY_STATUS = new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(OperatorConfig.FIELD_MANAGER)
            .withForce(true)
            .build();

    private final KubernetesClient client;
    private final RecentOperationCacheFiller<RdmaStorageNode> verdictCache;
    private final ResourceID primary;

    /** Writes whose results no cache needs to see before its informer does (tests, cleanup). */
    public ClusterWrites(KubernetesClient client) {
        this(client, null, null);
    }

    /**
     * @param verdictCache the RdmaStorageNode informer: each verdict written is put into its
     *                     temporary cache until the watch delivers it (JOSDK's
     *                     {@link RecentOperationCacheFiller}), so the next reconcile of
     *                     {@code primary} never plans from the verdict before this write. Without
     *                     it, a reconcile right after a harvest could see the pod gone but the
     *                     verdict a round behind, and start that round again, or harvest a pod being
     *                     deleted a second time. Pods need no such help: their names carry the
     *                     round, so a create repeated on a stale cache is refused (409), and a pod
     *                     deleted but still cached is a leftover of the round the verdict holds.
     */
    public ClusterWrites(KubernetesClient client, RecentOperationCacheFiller<RdmaStorageNode> verdictCache, ResourceID primary) {
        this.client = client;
        this.verdictCache = verdictCache;
        this.primary = primary;
    }

    /** A probe's spec or a run's record: applied as the operator's own (a ConfigMap already there is updated). */
    public void applyConfigMap(ConfigMap configMap) {
        client.configMaps().inNamespace(configMap.getMetadata().getNamespace()).resource(configMap)
                .fieldManager(OperatorConfig.FIELD_MANAGER).forceConflicts().serverSideApply();
    }

    /** Deletes a ConfigMap by name; one gone already is fine. */
    public void deleteConfigMap(String namespace, String name) {
        client.configMaps().inNamespace(namespace).withName(name).delete();
    }

    /**
     * Creates a probe pod; a pod of that name already there is the same round (an earlier attempt).
     * The API server answers with the whole pod, which nothing here reads: a raw request keeps the
     * client from deserializing it (the informer delivers the pod anyway).
     */
    public void createPod(Pod pod) {
        try {
            client.raw(podsPath(pod.getMetadata().getNamespace()), "POST", pod);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            LOG.debug("probe pod {} exists already", pod.getMetadata().getName());
        }
    }

    /**
     * Deletes a probe pod (a pod gone already is fine); like {@link #createPod}, the answer is not
     * read. A pod that has {@link #ended} goes at once (grace period 0): nothing in it runs that a
     * grace period would let finish, so waiting for its kubelet to confirm would only cost API
     * writes (the kubelet's last status, more deletes) and watch events. A pod that may still run
     * gets its grace period, and is not asked again while it has it.
     */
    public void deletePod(Pod pod) {
        Optional<String> options = deleteOptions(pod);
        if (options.isEmpty()) {
            LOG.debug("probe pod {} is being deleted already", pod.getMetadata().getName());
            return;
        }
        try {
            // with a body (DeleteOptions): a raw request without one would go out as a GET
            client.raw(podsPath(pod.getMetadata().getNamespace()) + "/" + pod.getMetadata().getName(), "DELETE",
                    options.get());
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
            LOG.debug("probe pod {} is gone already", pod.getMetadata().getName());
        }
    }

    /**
     * Removes one finalizer of a profile, and nothing else: a JSON patch that tests the entry at
     * its index and removes it. JOSDK's own removal is a patch too, but on a refusal (409, 422) it
     * reads the profile from the API server, a {@code get} the operator needs for nothing else; a
     * refusal here (the list changed meanwhile: the test fails) fails the cleanup, which JOSDK
     * retries on its informer's newer copy. A profile gone already is fine. The API server
     * validates the whole object on this patch too; a spec stored before a rule it breaks passes
     * where the rule fails on it (the API server ratchets unchanged fields), not where it errs.
     */
    public void removeFinalizer(RdmaStorageProfile profile, String finalizer) {
        List<String> finalizers = profile.getMetadata().getFinalizers();
        int index = finalizers == null ? -1 : finalizers.indexOf(finalizer);
        if (index < 0) {
            return;
        }
        String path = "/metadata/finalizers/" + index;
        String patch = client.getKubernetesSerialization().asJson(List.of(
                Map.of("op", "test", "path", path, "value", finalizer), Map.of("op", "remove", "path", path)));
        try {
            // on the object given: by name, the client would read it from the API server first
            client.resources(RdmaStorageProfile.class).resource(profile).patch(PatchContext.of(PatchType.JSON), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    /**
     * What deleting {@code pod} asks of the API server: grace period 0 for a pod that has ended,
     * its own grace period for one that may still run, and nothing for one already being deleted
     * that has not ended since (a second request would change nothing, and every reconcile while
     * the kubelet stops the pod would send one).
     */
    static Optional<String> deleteOptions(Pod pod) {
        if (ended(pod)) {
            return Optional.of("{\"gracePeriodSeconds\":0}");
        }
        return pod.getMetadata().getDeletionTimestamp() == null ? Optional.of("{}") : Optional.empty();
    }

    /**
     * Succeeded or Failed, or every container terminated under restartPolicy Never: none starts
     * again. A real kubelet reports the container's end a second or so before the pod's phase (it
     * stops the pod's sandbox first), and the operator reads the report as soon as the container has ended.
     */
    public static boolean ended(Pod pod) {
        if (pod.getStatus() == null) {
            return false;
        }
        String phase = pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return true;
        }
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        return pod.getSpec() != null && "Never".equals(pod.getSpec().getRestartPolicy()) && statuses != null
                && statuses.size() == pod.getSpec().getContainers().size()
                && statuses.stream().allMatch(c -> c.getState() != null && c.getState().getTerminated() != null);
    }

    private static String podsPath(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/pods";
    }

    /**
     * Writes a node's verdict: the object itself only when it does not exist yet (one apply), then
     * its status (one apply on the status subresource), stamped with its {@link VerdictDigest}.
     * Returns the object as written.
     */
    public RdmaStorageNode writeVerdict(RdmaStorageProfile profile, String node, RdmaStorageNode existing,
                                 RdmaStorageNodeStatus status) {
        RdmaStorageNode verdict = existing;
        if (verdict == null) {
            verdict = new RdmaStorageNode();
            verdict.setMetadata(new ObjectMetaBuilder()
                    .withName(StorageNodeName.of(profile.getMetadata().getName(), node))
                    .withLabels(Labels.forNode(profile.getMetadata().getName(), node))
                    .withOwnerReferences(ProfileOwnerReference.of(profile))
                    .build());
            RdmaStorageNodeSpec spec = new RdmaStorageNodeSpec();
            spec.setProfile(profile.getMetadata().getName());
            spec.setNodeName(node);
            verdict.setSpec(spec);
            verdict = client.resources(RdmaStorageNode.class).resource(verdict)
                    .fieldManager(OperatorConfig.FIELD_MANAGER).forceConflicts().serverSideApply();
        }
        RdmaStorageNode statusOnly = new RdmaStorageNode();
        statusOnly.setMetadata(new ObjectMetaBuilder().withName(verdict.getMetadata().getName()).build());
        statusOnly.setStatus(VerdictDigest.stamp(verdict.getMetadata().getName(), status));
        // kept until the informer's own copy arrives, and by the reconcile for its aggregate: as lean as the cache's
        RdmaStorageNode written = CachedVerdict.trim(LeanItemStore.withoutManagedFields(client.resources(RdmaStorageNode.class)
                .resource(statusOnly).subresource("status").patch(APPLY_STATUS, statusOnly)));
        if (verdictCache != null) {
            if (existing == null) {
                verdictCache.handleRecentResourceCreate(primary, written);
            } else {
                verdictCache.handleRecentResourceUpdate(primary, written, existing);
            }
        }
        return written;
    }

    public void deleteVerdict(RdmaStorageNode verdict) {
        client.resources(RdmaStorageNode.class).withName(verdict.getMetadata().getName()).delete();
    }
}
