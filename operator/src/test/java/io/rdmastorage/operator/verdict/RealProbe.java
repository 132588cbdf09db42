package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.api.CephCheckSpec;
import io.rdmastorage.operator.api.GdsCheckSpec;
import io.rdmastorage.operator.api.GpfsCheckSpec;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.NvmeofCheckSpec;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.probe.cli.NodeProbe;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The real node-probe, in-process, on a fixture node of node-probe's test jar: what a probe
 * container's termination message really holds (the {@code --output} file the pod's
 * terminationMessagePath points at), and its exit code and stderr.
 */
final class RealProbe {

    record Termination(int exitCode, String message, String stderr) {
    }

    private RealProbe() {
    }

    /** node-probe on a healthy node with zero or more failure scenarios applied, given HEALTHY_SPEC. */
    static Termination scenario(Path dir, String node, String... failures) {
        return run(dir, node, NodeScenarios.HEALTHY_SPEC, host -> {
            NodeScenarios.healthy(host);
            for (String f : failures) {
                NodeScenarios.FAILURES.get(f).apply(host);
            }
            return host;
        });
    }

    static Termination run(Path dir, String node, String specJson, UnaryOperator<FixtureHost> setup) {
        try {
            Path root = Files.createTempDirectory(dir, node + "-");
            FixtureHost host = setup.apply(FixtureHost.at(root.resolve("host")));
            Path output = root.resolve("termination-log");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = NodeProbe.run(List.of("--host-root", host.root().toString(), "--exec-mode", "direct",
                            "--node", node, "--spec", "-", "--output", output.toString()),
                    new ByteArrayInputStream(specJson.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String message = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
            return new Termination(exit, message, err.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operator-side profile spec with the same sections as NodeScenarios.HEALTHY_SPEC. */
    static RdmaStorageProfileSpec healthySpec() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setRdma(new RdmaCheckSpec());
        spec.setGpfs(new GpfsCheckSpec());
        spec.setNvmeof(new NvmeofCheckSpec());
        spec.setGds(new GdsCheckSpec());
        spec.setCeph(new CephCheckSpec());
        return spec;
    }

    static RdmaStorageProfileSpec withLatency(RdmaStorageProfileSpec spec) {
        LatencyCheckSpec latency = new LatencyCheckSpec();
        latency.setDevice("mlx5_0");
        spec.setLatency(latency);
        return spec;
    }
}
