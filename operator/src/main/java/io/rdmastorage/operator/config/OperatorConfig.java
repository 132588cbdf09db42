package io.rdmastorage.operator.config;

import java.util.Map;

/**
 * The operator's own configuration, read once at start from the environment (the Helm chart sets
 * it): where probe pods run, which image they use, and where acceptance runs may act.
 *
 * @param namespace        the namespace of the operator and its probe pods (privileged Pod Security only there)
 * @param probeImage       the node-probe image
 * @param probeImagePullPolicy Always, IfNotPresent or Never
 * @param leaderElection   whether to elect a leader (replicas > 1)
 * @param metricsPort      the HTTP port of /metrics, /healthz and /readyz (0 = none)
 * @param acceptance       where acceptance runs may act ({@link AcceptanceBounds})
 */
public record OperatorConfig(String namespace, String probeImage, String probeImagePullPolicy,
                             boolean leaderElection, int metricsPort, AcceptanceBounds acceptance) {

    public static final String FIELD_MANAGER = "rdma-storage-operator";
    public static final String DEFAULT_NAMESPACE = "rdma-storage-system";
    public static final String DEFAULT_PROBE_IMAGE = "ghcr.io/rdma-storage-operator/node-probe:0.1.0";

    /** With the default acceptance bounds ({@link AcceptanceBounds#DEFAULT}: the path target off). */
    public OperatorConfig(String namespace, String probeImage, String probeImagePullPolicy, boolean leaderElection,
                          int metricsPort) {
        this(namespace, probeImage, probeImagePullPolicy, leaderElection, metricsPort, AcceptanceBounds.DEFAULT);
    }

    /** This configuration with other acceptance bounds. */
    public OperatorConfig withAcceptance(AcceptanceBounds bounds) {
        return new OperatorConfig(namespace, probeImage, probeImagePullPolicy, leaderElection, metricsPort, bounds);
    }

    public static OperatorConfig fromEnvironment(Map<String, String> env) {
        return new OperatorConfig(
                env.getOrDefault("RSO_NAMESPACE", DEFAULT_NAMESPACE),
                env.getOrDefault("RSO_PROBE_IMAGE", DEFAULT_PROBE_IMAGE),
                env.getOrDefault("RSO_PROBE_IMAGE_PULL_POLICY", "IfNotPresent"),
                Boolean.parseBoolean(env.getOrDefault("RSO_LEADER_ELECTION", "false")),
                Integer.parseInt(env.getOrDefault("RSO_METRICS_PORT", "8080")),
                AcceptanceBounds.fromEnvironment(env));
    }
}
