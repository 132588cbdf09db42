package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.testing.ContendedEdits;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The acceptance lifecycle tests' environment: the operator on the real API server with kubelets
 * that run the real node-probe ({@link AcceptanceLauncher}), and what the tests read of a run.
 * {@link #close} deletes every run and waits until its cleanup is done, so no test leaves pods
 * behind for the next.
 */
final class AcceptanceRuns implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);

    final OperatorEnvironment env;

    private AcceptanceRuns(OperatorEnvironment env) {
        this.env = env;
    }

    /**
     * The bounds the acceptance tests' admin sets: path runs under /gpfs/, connecting to the
     * fixtures' NVMe-oF target; control-plane nodes refused, as by default.
     */
    static final AcceptanceBounds BOUNDS = new AcceptanceBounds(Map.of("kubernetes.io/os", "linux"), false, List.of("/gpfs/"),
            List.of(NvmeofFixtures.TARGET_ADDRESS), AcceptanceBounds.DEFAULT_MAX_FILE_SIZE_MIB,
            AcceptanceBounds.DEFAULT_MAX_DURATION_SECONDS);

    /** A control plane of its own (named after {@code name}) with the operator started, within {@link #BOUNDS}. */
    static AcceptanceRuns start(String name) {
        OperatorEnvironment env = OperatorEnvironment.start(name, new AcceptanceLauncher());
        env.acceptance = BOUNDS;
        env.startOperator();
        return new AcceptanceRuns(env);
    }

    RdmaStorageAcceptance run(String name) {
        return env.admin.resources(RdmaStorageAcceptance.class).withName(name).get();
    }

    /** The run's phase; null while it has none or is gone. */
    String phase(String name) {
        RdmaStorageAcceptance r = run(name);
        return r == null || r.getStatus() == null ? null : r.getStatus().getPhase();
    }

    Condition condition(String name, String type) {
        return run(name).getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    /** The run's pods, by its run label. */
    List<Pod> pods(String name) {
        return env.admin.pods().inNamespace(env.namespace).withLabel(RdmaStorageAcceptance.RUN_LABEL, name).list().getItems();
    }

    ConfigMap configMap(String name) {
        return env.admin.configMaps().inNamespace(env.namespace).withName(name).get();
    }

    /** The run's Events as "type reason" (in namespace default, where a cluster-scoped object's are). */
    List<String> events(String name) {
        return env.admin.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .map((Event e) -> e.getType() + " " + e.getReason()).toList();
    }

    @Override
    public void close() {
        // a run that may have changed its node goes once its cleanup pod ran: no node may hang it
        env.cluster.clearFaults();
        for (RdmaStorageAcceptance run : env.admin.resources(RdmaStorageAcceptance.class).list().getItems()) {
            env.admin.resources(RdmaStorageAcceptance.class).withName(run.getMetadata().getName()).delete();
        }
        try {
            await("acceptance runs deleted", WAIT, () -> env.admin.resources(RdmaStorageAcceptance.class).list().getItems().isEmpty());
        } finally {
            // a run the operator could not clean up must not keep the namespace from going
            for (RdmaStorageAcceptance run : env.admin.resources(RdmaStorageAcceptance.class).list().getItems()) {
                ContendedEdits.edit(env.admin.resources(RdmaStorageAcceptance.class).withName(run.getMetadata().getName()),
                        x -> x.getMetadata().setFinalizers(List.of()));
            }
            env.close();
        }
    }
}
