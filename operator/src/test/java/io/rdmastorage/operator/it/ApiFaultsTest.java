package io.rdmastorage.operator.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.verdict.CheckTypes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * API faults a real API server does not produce on demand, on the fabric8 mock server
 * ({@link FaultyApiServer}) with the real operator, simulated kubelets and the real node-probe: each
 * fault is answered, the operator retries or backs off, and {@link VerdictInvariants} hold
 * throughout — one pod per round, no verdict True past its expiry, transitions only when a status
 * moves, markings equal to the verdicts, no pod left behind. The mock server does not validate the
 * CRD schema, so the profile may use an interval far below the schema's minimum: expiries in seconds.
 */
class ApiFaultsTest {

    private static final String PROFILE = "faults";
    private static final Duration INTERVAL = Duration.ofSeconds(6);
    private static final String SETTINGS = "interval: 6s\nprobeTimeout: 3s\nnodeLabels: true";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The two nodes and what their verdicts converge to: healthy, and GPFS falling back to TCP. */
    private static final Map<String, String> CONVERGED = Map.of("gpu-a", Conditions.TRUE, "gpu-b", Conditions.FALSE);

    private static final Predicate<String> VERDICT_STATUS = p -> p.startsWith("/apis/rdmastorage.io/v1alpha1/rdmastoragenodes/")
            && p.contains("/status");
    private static final Predicate<String> POD_CREATE = p -> p.equals("/api/v1/namespaces/" + FaultEnvironment.NAMESPACE + "/pods");
    /** The operator's own informers select by label; the invariants' watches do not, and are left alone. */
    private static final Predicate<String> OPERATOR_VERDICT_WATCH = p -> p.startsWith(
            "/apis/rdmastorage.io/v1alpha1/rdmastoragenodes?") && p.contains("labelSelector") && p.contains("watch=true");
    private static final Predicate<String> OPERATOR_POD_WATCH = p -> p.startsWith(
            "/api/v1/namespaces/" + FaultEnvironment.NAMESPACE + "/pods?") && p.contains("component") && p.contains("watch=true");

    private FaultEnvironment env;
    private VerdictInvariants invariants;

    @BeforeEach
    void start() {
        env = new FaultEnvironment();
        invariants = new VerdictInvariants(env.admin, FaultEnvironment.NAMESPACE, INTERVAL, Duration.ofSeconds(8));
        env.addNode("gpu-a", null);
        env.addNode("gpu-b", "gpfs-tcp-fallback");
    }

    @AfterEach
    void stop() {
        invariants.close();
        env.close();
    }

    /**
     * The fabric8 client (7.5) does not read Retry-After: it retries a 429 itself, backing off
     * exponentially from requestRetryBackoffInterval, then JOSDK retries the reconcile. What
     * matters holds: every refused write is written in the end, later each time.
     */
    @Test
    void tooManyRequestsOnVerdictWritesAreRetriedWithGrowingBackoffAndLoseNothing() {
        // one node's verdict, so that the three refusals are three attempts of one write
        Predicate<String> gpuA = p -> p.startsWith("/apis/rdmastorage.io/v1alpha1/rdmastoragenodes/"
                + StorageNodeName.of(PROFILE, "gpu-a") + "/status");
        env.server.fail("PATCH", gpuA, 3, 429, 1, Duration.ZERO);
        runProfile();

        assertThat(env.server.pending()).as("every 429 was answered").isZero();
        List<FaultyApiServer.Request> attempts = env.server.requests().stream().filter(r -> gpuA.test(r.path())).toList();
        assertThat(attempts).extracting(FaultyApiServer.Request::faulted).as("refused, refused, refused, written")
                .startsWith(true, true, true, false);
        for (int i = 2; i < 4; i++) {
            assertThat(Duration.between(attempts.get(i - 1).at(), attempts.get(i).at()))
                    .as("attempt %d waits longer than the one before", i + 1)
                    .isGreaterThan(Duration.between(attempts.get(i - 2).at(), attempts.get(i - 1).at()));
        }
    }

    @Test
    void serverErrorsOnPodCreateAreRetriedWithoutADuplicatePod() {
        env.server.fail("POST", POD_CREATE, 2, 503);
        env.server.fail("POST", POD_CREATE, 1, 500);
        runProfile();

        assertThat(env.server.pending()).isZero();
        assertThat(env.server.requests().stream().filter(r -> POD_CREATE.test(r.path()) && !r.faulted()
                && r.code() == 201)).as("both nodes' pods created in the end").hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void conflictsOnVerdictWritesAreRetried() {
        env.server.fail("PATCH", VERDICT_STATUS, 2, 409);
        runProfile();

        assertThat(env.server.pending()).isZero();
    }

    @Test
    void watchesResumedWithGoneRelistAndDoNoWorkTwice() {
        runProfile();
        int firstRound = invariants.podsCreated();
        // the watches close (an API server restart, a timeout) and their resume is answered 410 Gone,
        // as after etcd compacted the resourceVersion they resume from
        env.server.goneWatch(OPERATOR_VERDICT_WATCH, 1);
        env.server.goneWatch(OPERATOR_POD_WATCH, 1);
        env.server.closeWatches(OPERATOR_VERDICT_WATCH.or(OPERATOR_POD_WATCH));
        OperatorEnvironment.await("a second round", WAIT, () -> invariants.podsCreated() >= firstRound + 2);
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);

        assertThat(env.server.pending()).as("both resumes were answered 410").isZero();
        OperatorEnvironment.await("the verdict informer lists again after 410 Gone", WAIT, () -> env.server.requests()
                .stream().filter(r -> r.path().startsWith("/apis/rdmastorage.io/v1alpha1/rdmastoragenodes?")
                        && r.path().contains("labelSelector") && !r.path().contains("watch=true")).count() >= 2);
        int secondRound = invariants.podsCreated();
        OperatorEnvironment.await("a round on the relisted caches", WAIT, () -> invariants.podsCreated() >= secondRound + 2);
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);
    }

    @Test
    void answersLaterThanTheClientTimeoutFailTheReconcileWhichIsRetried() {
        env.server.fail("PATCH", VERDICT_STATUS, 2, 504, 0, FaultEnvironment.REQUEST_TIMEOUT.plusSeconds(1));
        runProfile();

        assertThat(env.server.pending()).isZero();
    }

    @Test
    void aVerdictNeverStaysTruePastItsExpiryWhilePodCreatesKeepFailing() {
        runProfile();
        env.server.fail("POST", POD_CREATE, Integer.MAX_VALUE, 503);

        OperatorEnvironment.await("gpu-a's verdict expired", WAIT, () -> {
            RdmaStorageNode v = env.verdict(PROFILE, "gpu-a");
            return Conditions.find(v.getStatus().getConditions(), "RdmaDevices").map(Condition::getReason)
                    .orElse("").equals("ResultExpired");
        });
        assertThat(Conditions.statusOf(env.verdict(PROFILE, "gpu-a").getStatus().getConditions(), CheckTypes.READY))
                .isEqualTo(Conditions.UNKNOWN);
        OperatorEnvironment.await("the profile says its reconcile fails", WAIT, () -> "ReconcileFailing".equals(
                Conditions.find(env.admin.resources(io.rdmastorage.operator.api.RdmaStorageProfile.class).withName(PROFILE)
                        .get().getStatus().getConditions(), CheckTypes.READY).map(Condition::getReason).orElse("")));
        assertThat(invariants.violations()).isEmpty();
    }

    /**
     * Defect 4 of the reliability issue: the operator's verdict watch stalls (open, silent), so its
     * cache never shows the verdicts it writes. A reconcile right after a harvest then saw the pod
     * gone but no verdict, and started the same round again; with the verdicts it wrote in JOSDK's
     * temporary cache it sees its own writes, and each round runs once.
     */
    @Test
    void theOperatorSeesItsOwnVerdictWritesBeforeItsWatchDeliversThem() {
        env.server.stallWatch(OPERATOR_VERDICT_WATCH, Integer.MAX_VALUE);
        env.startOperator();
        env.applyProfile(PROFILE, "interval: 1h\nprobeTimeout: 3s\nnodeLabels: true");
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);
        // pod deletions and node label events keep reconciling the profile: none may start a round again
        sleep(5);

        assertThat(invariants.podsCreated()).as("one probe pod per node").isEqualTo(2);
        assertThat(invariants.violations()).isEmpty();
    }

    private static void sleep(int seconds) {
        try {
            Thread.sleep(seconds * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runProfile() {
        env.startOperator();
        env.applyProfile(PROFILE, SETTINGS);
        invariants.awaitConverged(PROFILE, CONVERGED, WAIT);
    }
}
