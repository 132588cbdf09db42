package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.testing.LocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real control plane failing under the operator during a round: kube-apiserver SIGKILLed and
 * started again, then etcd SIGKILLed and started again. The operator (and the simulated kubelets)
 * reconnect and relist, the round in flight is harvested once, and {@link VerdictInvariants} hold
 * throughout. A control plane of its own: the shared one must not go down under other tests.
 */
class ControlPlaneRestartTest {

    private static final String PROFILE = "restarts";
    private static final Duration DOWN = Duration.ofSeconds(5);
    /** Longer than the test runs on a slow machine: only the spec change starts a second round. */
    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final Duration WAIT = Duration.ofSeconds(120);
    /**
     * Longer than the outage on a loaded machine: kube-apiserver's start, then each informer's
     * reconnect backoff (up to 32 s in fabric8, 30 s in client-go), can put a pod's result past a
     * 30 s timeout (CI's run of dd97240: Unknown ProbeTimedOut, true of a real cluster too). A pod
     * truly lost still fails the test: it times out after WAIT.
     */
    private static final String TIMEOUT = "probeTimeout: 2m";
    private static final Map<String, String> CONVERGED = Map.of("gpu-a", "True", "gpu-b", "False");

    private LocalControlPlane plane;
    private OperatorEnvironment env;
    private VerdictInvariants invariants;

    @BeforeEach
    void start() {
        plane = LocalControlPlane.start();
        env = OperatorEnvironment.start(plane, "restarts", OperatorEnvironment.SHIPPED_RBAC);
        // the slack covers the time the API server could not be written to at all
        invariants = new VerdictInvariants(env.admin, env.namespace, INTERVAL, DOWN.plusSeconds(20));
        env.addNode("gpu-a", null);
        env.addNode("gpu-b", "gpfs-tcp-fallback");
        env.startOperator();
    }

    @AfterEach
    void stop() {
        invariants.close();
        env.close();
        plane.close();
    }

    @Test
    void kubeApiServerAndEtcdKilledMidRoundTheOperatorRecoversAndVerdictsConverge() {
        env.applyProfile(PROFILE, "interval: 10m\n" + TIMEOUT + "\nnodeLabels: true", OperatorEndToEndTest.CHECKS);
        awaitRoundInFlight();
        Instant killed = Instant.now();
        plane.restartApiServer(DOWN);
        Instant back = Instant.now();
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);
        System.out.printf("kube-apiserver killed mid-round, down %d s, ready again after %d ms: converged %d ms after%n",
                DOWN.toSeconds(), Duration.between(killed, back).toMillis(), Duration.between(back, Instant.now()).toMillis());
        int afterFirst = invariants.podsCreated();

        // a spec change starts the next round at once; etcd goes down while it runs
        env.applyProfile(PROFILE, "interval: 20m\n" + TIMEOUT + "\nnodeLabels: true", OperatorEndToEndTest.CHECKS);
        await("the second round's pods", WAIT, () -> invariants.podsCreated() > afterFirst);
        Instant etcdKilled = Instant.now();
        plane.restartEtcd(DOWN);
        Instant etcdBack = Instant.now();
        await("the second round harvested", WAIT, () -> env.verdict(PROFILE, "gpu-a").getStatus().getObservedGeneration()
                == env.profile(PROFILE).getMetadata().getGeneration());
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);
        System.out.printf("etcd killed mid-round, down %d s, kube-apiserver ready again after %d ms: converged %d ms after%n",
                DOWN.toSeconds(), Duration.between(etcdKilled, etcdBack).toMillis(), Duration.between(etcdBack, Instant.now()).toMillis());

        assertThat(invariants.violations()).isEmpty();
        assertThat(invariants.podsCreated()).as("one pod per node and round, two rounds").isEqualTo(4);
    }

    private void awaitRoundInFlight() {
        await("probe pods of the round in flight", WAIT, () -> !env.admin.pods().inNamespace(env.namespace).list()
                .getItems().isEmpty());
    }
}
