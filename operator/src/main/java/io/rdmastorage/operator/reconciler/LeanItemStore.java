package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer cache that keeps objects without {@code metadata.managedFields}. The operator never
 * reads them (its writes are server-side applies that name their own fields), yet they are about
 * as large as the rest of a Node or an RdmaStorageNode together: one entry per field manager
 * (kubelet, node controller, our apply, our status apply), each repeating the object's field tree.
 * Dropping them on arrival about halves what the caches hold, per node and profile.
 */
final class LeanItemStore<R extends HasMetadata> implements ItemStore<R> {

    private final BasicItemStore<R> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

    @Override
    public String getKey(R object) {
        return store.getKey(object);
    }

    @Override
    public R put(String key, R object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return store.put(key, object);
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
