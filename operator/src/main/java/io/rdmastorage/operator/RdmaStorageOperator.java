package io.rdmastorage.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmastorage.operator.acceptance.RdmaStorageAcceptanceReconciler;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.metrics.HealthServer;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.reconciler.RdmaStorageProfileReconciler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running operator: the JOSDK operator with our reconciler, leader election when asked for,
 * JOSDK and our own metrics, and the health/metrics HTTP endpoints. Tests run it in-process
 * against the real test API server, exactly as {@link OperatorMain} runs it.
 */
public final class RdmaStorageOperator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RdmaStorageOperator.class);
    public static final String LEASE_NAME = "rdma-storage-operator";
    // client-go's defaults: a new leader takes over within about 15 s of the old one's last renewal
    private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
    private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

    private final Operator operator;
    private final PrometheusMeterRegistry registry;
    private final Optional<HealthServer> health;

    private RdmaStorageOperator(Operator operator, PrometheusMeterRegistry registry, Optional<HealthServer> health) {
        this.operator = operator;
        this.registry = registry;
        this.health = health;
    }

    /**
     * Builds, registers and starts the operator; returns once its informers are running.
     *
     * @param exitOnLeadershipLoss end the process when leadership is lost, so Kubernetes restarts it
     *                             clean (what a deployed operator does); false where the JVM hosts
     *                             more than the operator (tests)
     */
    public static RdmaStorageOperator start(KubernetesClient client, OperatorConfig config, boolean exitOnLeadershipLoss) {
        PrometheusMeterRegistry registry = OperatorMetrics.newPrometheusRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        // a standby replica runs no informers; it is still ready (rollouts and `helm --wait` need that)
        AtomicBoolean leading = new AtomicBoolean(!config.leaderElection());
        LeaderCallbacks leadership = new LeaderCallbacks(() -> leading.set(true), () -> leading.set(false), leader -> { });
        Operator operator = new Operator(o -> {
            o.withKubernetesClient(client)
                    .withMetrics(OperatorMetrics.josdkMetrics(registry))
                    .withCloseClientOnStop(false)
                    .withStopOnInformerErrorDuringStartup(true);
            if (config.leaderElection()) {
                o.withLeaderElectionConfiguration(new LeaderElectionConfiguration(LEASE_NAME, config.namespace(),
                        LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD, identity(), leadership, exitOnLeadershipLoss));
            }
        });
        operator.register(new RdmaStorageProfileReconciler(config, metrics, Clock.systemUTC()));
        operator.register(new RdmaStorageAcceptanceReconciler(config, metrics, Clock.systemUTC()));
        Optional<HealthServer> health = Optional.empty();
        if (config.metricsPort() > 0) {
            try {
                health = Optional.of(HealthServer.start(new InetSocketAddress(config.metricsPort()), registry,
                        () -> true, () -> operator.getRuntimeInfo().isStarted()
                                && (!leading.get() || operator.getRuntimeInfo().allEventSourcesAreHealthy())));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot serve metrics and health on port " + config.metricsPort(), e);
            }
        }
        operator.start();
        LOG.info("rdma-storage-operator started: probe pods in namespace {}, image {}, leader election {}",
                config.namespace(), config.probeImage(), config.leaderElection() ? "on" : "off");
        return new RdmaStorageOperator(operator, registry, health);
    }

    /** The pod name in a cluster (HOSTNAME), plus a random suffix so two processes never share one. */
    private static String identity() {
        String host = System.getenv().getOrDefault("HOSTNAME", "rdma-storage-operator");
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public Optional<Integer> healthPort() {
        return health.map(HealthServer::port);
    }

    @Override
    public void close() {
        health.ifPresent(HealthServer::close);
        operator.stop();
    }
}
