package io.rdmastorage.probe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.NodeScenarios;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped artifact itself: {@code java -jar node-probe.jar} as the probe container runs it, with
 * the real exit codes, the report on stdout and in the termination-message file.
 */
class NodeProbeJarIT {

    private static final Path JAR = Path.of(System.getProperty("nodeProbe.jar", "target/node-probe.jar"));

    @TempDir
    Path dir;

    private record Result(int exitCode, String stdout, String stderr) {
    }

    private Result probe(FixtureHost host, String spec, String... extra) throws Exception {
        Path specFile = Files.writeString(dir.resolve("spec.json"), spec);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString(), "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "gpu-01", "--spec", specFile.toString()));
        command.addAll(List.of(extra));
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("node-probe finished").isTrue();
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static JsonNode json(String text) throws IOException {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void healthyNodeExitsZeroAndWritesTheTerminationMessage() throws Exception {
        Path terminationLog = dir.resolve("termination-log");
        Result result = probe(NodeScenarios.healthy(FixtureHost.at(dir.resolve("root"))), NodeScenarios.HEALTHY_SPEC,
                "--output", terminationLog.toString());

        assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isZero();
        String message = Files.readString(terminationLog);
        assertThat(message.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
        assertThat(json(message).path("status").asText()).isEqualTo("True");
        assertThat(json(message).path("checks")).hasSize(5);
        assertThat(json(result.stdout())).isEqualTo(json(message));
    }

    @Test
    void tcpFallbackExitsOneAndNamesThePeer() throws Exception {
        Result result = probe(NodeScenarios.withFailure(FixtureHost.at(dir.resolve("root")), "gpfs-tcp-fallback"),
                NodeScenarios.HEALTHY_SPEC, "--format", "text");

        assertThat(result.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        assertThat(result.stdout()).containsPattern("GpfsVerbs +False +TcpFallback").contains("gpu-02-ib");
    }

    @Test
    void hangingToolIsKilledAndTheReportStillComes() throws Exception {
        FixtureHost host = GpfsFixtures.hanging(NodeScenarios.healthy(FixtureHost.at(dir.resolve("root"))));

        Result result = probe(host, NodeScenarios.HEALTHY_SPEC, "--tool-timeout", "1s");

        assertThat(result.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        JsonNode gpfs = null;
        for (JsonNode check : json(result.stdout()).path("checks")) {
            if (check.path("type").asText().equals("GpfsVerbs")) {
                gpfs = check;
            }
        }
        assertThat(gpfs).isNotNull();
        assertThat(gpfs.path("status").asText()).isEqualTo("Unknown");
        assertThat(gpfs.path("reason").asText()).isEqualTo("ToolTimedOut");
        // no stub left behind: the process tree of the hung tool was killed
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains(host.root().toString()))
                .forEach(p -> assertThat(p.isAlive()).as("leftover " + p.info().commandLine()).isFalse());
    }

    @Test
    void injectionInTheSpecIsRefusedBeforeAnythingRuns() throws Exception {
        Result result = probe(NodeScenarios.healthy(FixtureHost.at(dir.resolve("root"))),
                "{\"nvmeof\":{\"targets\":[{\"nqn\":\"x; rm -rf /\",\"address\":\"10.68.20.10\"}]}}");

        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderr()).startsWith("node-probe: invalid spec: nvmeof.targets[0].nqn: 'x; rm -rf /' must be");
    }
}
