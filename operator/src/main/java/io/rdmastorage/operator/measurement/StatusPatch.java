package io.rdmastorage.operator.measurement;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one way a reconciler writes its own resource's status, profiles and acceptance runs alike: a
 * patch of the status alone, and only when {@link StatusComparison} says it differs from the stored
 * one (a no-op patch is still an API request, and a watch event to every client). The patch carries
 * no resourceVersion: the status is the operator's alone and worked out anew on every reconcile, so
 * a conflict (with its own finalizer patch, say) would only cost a retry. A node's verdict is written
 * by {@code ClusterWrites.writeVerdict} after the same comparison.
 */
public final class StatusPatch {

    /** The soonest a reconcile looks again by itself: an instant already passed must not make it spin. */
    public static final Duration MIN_WAIT = Duration.ofSeconds(1);

    private StatusPatch() {
    }

    /**
     * Patches {@code status} unless it is the same as {@code resource}'s, then looks again after
     * {@code wakeAfter} (null: only on an event).
     *
     * @param blank a new, empty resource of the kind, for the patch
     */
    public static <S, R extends CustomResource<?, S>> UpdateControl<R> update(R resource, S status, Supplier<R> blank,
                                                                              Duration wakeAfter) {
        UpdateControl<R> control = status == null || StatusComparison.same(resource.getStatus(), status)
                ? UpdateControl.noUpdate() : UpdateControl.patchStatus(patch(resource, status, blank));
        return wakeAfter == null ? control : control.rescheduleAfter(atLeastMinWait(wakeAfter));
    }

    /** As {@link #update}, for a reconcile that failed; JOSDK's retries decide when it looks again. */
    public static <S, R extends CustomResource<?, S>> ErrorStatusUpdateControl<R> afterFailure(R resource, S status,
                                                                                               Supplier<R> blank) {
        return StatusComparison.same(resource.getStatus(), status) ? ErrorStatusUpdateControl.noStatusUpdate()
                : ErrorStatusUpdateControl.patchStatus(patch(resource, status, blank));
    }

    /**
     * Writes {@code status} now, unless it is the same as {@code resource}'s: the request JOSDK makes
     * for {@link #update} (server-side apply of the status alone, forced, as {@code fieldManager}),
     * made by the reconciler itself so that it knows the status is stored before it says so
     * elsewhere (an Event), and has the object as written for its cache.
     *
     * @return the resource as the API server stored it; empty when nothing needed writing
     */
    public static <S, R extends CustomResource<?, S>> Optional<R> write(KubernetesClient client, R resource, S status,
                                                                        Supplier<R> blank, String fieldManager) {
        if (status == null || StatusComparison.same(resource.getStatus(), status)) {
            return Optional.empty();
        }
        R patch = patch(resource, status, blank);
        return Optional.of(client.resource(patch).subresource("status").patch(new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager(fieldManager).withForce(true).build()));
    }

    /** {@code wait} in whole milliseconds, or {@link #MIN_WAIT} when it is shorter (or already passed). */
    public static Duration atLeastMinWait(Duration wait) {
        return Duration.ofMillis(Math.max(MIN_WAIT.toMillis(), wait.toMillis()));
    }

    private static <S, R extends CustomResource<?, S>> R patch(R resource, S status, Supplier<R> blank) {
        R patch = blank.get();
        patch.setMetadata(new ObjectMetaBuilder().withName(resource.getMetadata().getName()).build());
        patch.setStatus(status);
        return patch;
    }
}
