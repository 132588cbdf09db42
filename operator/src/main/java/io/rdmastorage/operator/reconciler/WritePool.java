package io.rdmastorage.operator.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs a reconcile's independent per-node work (verdict writes, pod creates and deletes) a few at
 * a time instead of one after another: each is a round trip to the API server, and a 1,000-node
 * round would otherwise wait for 1,000 of them in series. Bounded, so the API server sees at most
 * {@link #IN_FLIGHT} requests from one reconcile at once.
 */
final class WritePool {

    static final int IN_FLIGHT = 8;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(IN_FLIGHT, runnable -> {
        Thread thread = new Thread(runnable, "rso-writes");
        thread.setDaemon(true);
        return thread;
    });

    private WritePool() {
    }

    /**
     * Applies {@code work} to every item and returns the results in item order. Waits for all; if
     * any failed, throws the first failure (the reconcile is retried; writes are idempotent).
     */
    static <T, R> List<R> map(List<T> items, Function<T, R> work) {
        if (items.size() <= 1) {
            return items.stream().map(work).toList();
        }
        List<Future<R>> futures = new ArrayList<>(items.size());
        for (T item : items) {
            futures.add(POOL.submit(() -> work.apply(item)));
        }
        List<R> results = new ArrayList<>(items.size());
        RuntimeException failure = null;
        for (Future<R> future : futures) {
            try {
                results.add(future.get());
            } catch (ExecutionException e) {
                results.add(null);
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }
}
