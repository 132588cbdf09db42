package io.rdmastorage.benchmark;

import io.rdmastorage.probe.testing.NodeScenarios;
import java.util.stream.Collectors;

/** The profile the benchmarks apply: the DESIGN example's checks (as on the healthy fixture node) on the labelled nodes. */
final class BenchmarkProfile {

    private BenchmarkProfile() {
    }

    /**
     * The profile {@code name} selecting the nodes labelled {@code label: "true"}, with the spec's own
     * {@code settings} (lines indented by two spaces: interval, bounds, options) before the checks.
     */
    static String yaml(String name, String label, String settings) {
        return """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageProfile
                metadata:
                  name: %s
                spec:
                  nodeSelector:
                    matchLabels:
                      %s: "true"
                """.formatted(name, label) + settings
                + NodeScenarios.healthyProfileChecks().lines().map(line -> "  " + line + "\n").collect(Collectors.joining());
    }
}
