package io.rdmastorage.operator.it;

import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.SimulatedNode;
import java.nio.file.Path;

/**
 * The simulated nodes the it/ tests run on and the profile that selects them: every node of a
 * {@link SimulatedCluster} is in the {@code gpu} pool, and a test profile selects that pool of that
 * cluster only, so tests sharing one API server never see each other's nodes. Used by
 * {@link OperatorEnvironment} (real API server) and {@link FaultEnvironment} (scripted one) alike.
 */
final class GpuPool {

    static final String LABEL = "rdmastorage.test/pool";
    static final String VALUE = "gpu";

    private GpuPool() {
    }

    /** A node of the pool on {@code host}, the healthy fixture node or that node with one failure mode ({@code null}: none). */
    static SimulatedNode node(String name, FixtureHost host, String failure) {
        if (failure == null) {
            NodeScenarios.healthy(host);
        } else {
            NodeScenarios.withFailure(host, failure);
        }
        return node(name, host.root());
    }

    /** A node of the pool whose host is the fixture root {@code hostRoot} as it is. */
    static SimulatedNode node(String name, Path hostRoot) {
        return SimulatedNode.named(name).withLabel(LABEL, VALUE).withHostRoot(hostRoot);
    }

    /**
     * An RdmaStorageProfile manifest named {@code name} selecting the pool of cluster
     * {@code clusterId}; {@code settings} (interval, markings, ...) and {@code checks} (the check
     * sections) are YAML blocks of the spec, written unindented.
     */
    static String profileYaml(String name, String clusterId, String settings, String checks) {
        return profileYaml(name, clusterId, "", settings, checks);
    }

    /**
     * The same, with {@code selector} (YAML, unindented) added to its {@code nodeSelector} beside
     * the pool's {@code matchLabels}, such as {@code matchExpressions}.
     */
    static String profileYaml(String name, String clusterId, String selector, String settings, String checks) {
        return """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata:
                  name: %s
                spec:
                  nodeSelector:
                    matchLabels:
                      %s: "%s"
                      %s: %s
                %s
                %s
                %s
                """.formatted(name, SimulatedCluster.CLUSTER_LABEL, clusterId, LABEL, VALUE, indented(selector, 4),
                indented(settings, 2), indented(checks, 2));
    }

    private static String indented(String block, int spaces) {
        String indent = " ".repeat(spaces);
        return block.strip().lines().map(l -> indent + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
