package io.rdmastorage.operator.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * An informer cache that keeps objects without {@code metadata.managedFields} and, given a trim,
 * only what the operator reads of them ({@link CachedNode}, {@link CachedProbePod}, {@link CachedVerdict}). The operator
 * never reads managedFields (its writes are server-side applies that name their own fields), yet
 * they are about as large as the rest of a Node or an RdmaStorageNode together: one entry per
 * field manager (kubelet, node controller, our apply, our status apply), each repeating the
 * object's field tree. A cache holds one object per node for as long as the operator runs, so
 * what is dropped on arrival is dropped N times over.
 *
 * <p>The informer hands event handlers the object as it arrived and keeps the trimmed one: a
 * handler's "after" is whole, its "before" (and every later read of the cache) is trimmed.
 */
public final class LeanItemStore<R extends HasMetadata> implements ItemStore<R> {

    private final BasicItemStore<R> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    private final UnaryOperator<R> trim;

    /** Keeps each object as it arrives, less its managedFields. */
    public LeanItemStore() {
        this(UnaryOperator.identity());
    }

    /** Keeps {@code trim}'s version of each object (which must keep its name, namespace and resourceVersion). */
    public LeanItemStore(UnaryOperator<R> trim) {
        this.trim = trim;
    }

    @Override
    public String getKey(R object) {
        return store.getKey(object);
    }

    @Override
    public R put(String key, R object) {
        return store.put(key, trim.apply(withoutManagedFields(object)));
    }

    /** {@code object} itself, its managedFields dropped: for objects kept beside the cache too. */
    public static <T extends HasMetadata> T withoutManagedFields(T object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }

    @Override
    public R remove(String key) {
        return store.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return store.keySet();
    }

    @Override
    public Stream<R> values() {
        return store.values();
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public R get(String key) {
        return store.get(key);
    }
}
