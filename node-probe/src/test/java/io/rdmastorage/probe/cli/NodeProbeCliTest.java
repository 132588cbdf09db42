package io.rdmastorage.probe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeProbeCliTest {

    @TempDir
    Path dir;

    private FixtureHost cephHost() {
        return FixtureHost.at(dir.resolve("root")).file("/etc/ceph/ceph.conf", "ms_type = async+rdma\n");
    }

    @Test
    void reportIsVersionedAndNamesTheNode() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"ceph\":{}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        JsonNode report = run.report();
        assertThat(report.path("apiVersion").asText()).isEqualTo("rdmastorage.io/v1alpha1");
        assertThat(report.path("kind").asText()).isEqualTo("NodeProbeReport");
        assertThat(report.path("node").asText()).isEqualTo("test-node");
        assertThat(report.path("status").asText()).isEqualTo("False");
        assertThat(report.path("durationMillis").asLong()).isNotNegative();
        assertThat(report.path("checks")).hasSize(1);
    }

    @Test
    void outputFileGetsTheCompactReportAndStdoutTheText() throws Exception {
        Path output = dir.resolve("termination-log");
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"ceph\":{}}", "--output", output.toString(), "--format", "text");

        assertThat(run.stdout()).contains("CHECK").contains("STATUS").contains("CephMessenger")
                .contains("ExperimentalRdmaMessenger");
        String written = Files.readString(output);
        assertThat(written).startsWith("{\"apiVersion\":").doesNotContain("\n");
    }

    @Test
    void specFromFile() throws Exception {
        Path spec = Files.writeString(dir.resolve("spec.json"), "{\"ceph\":{}}");
        ProbeRun run = ProbeRun.on(cephHost(), "--spec", spec.toString());

        assertThat(run.check("CephMessenger").path("status").asText()).isEqualTo("False");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"nvmeof\":{\"targets\":[{\"nqn\":\"x; rm -rf /\",\"address\":\"10.0.0.1\"}]}}",
            "{\"nvmeof\":{\"targets\":[{\"nqn\":\"nqn.2024-01.dev.wutz:t1\",\"address\":\"$(reboot)\"}]}}",
            "{\"gpfs\":{\"verbsPorts\":[\"mlx5_0/1\",\"`id`/1\"]}}",
            "{\"gpfs\":{\"requiredPeers\":[\"nsd1;shutdown\"]}}",
            "{\"latency\":{\"device\":\"-p 1\"}}",
            "{\"rdma\":{\"devices\":[\"mlx5_0/1 && true\"]}}"})
    void injectionAttemptsAreRefusedWithExitTwo(String spec) {
        ProbeRun run = ProbeRun.withSpec(cephHost(), spec);

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr().strip()).startsWith("node-probe: invalid spec: ").doesNotContain("\n");
    }

    @Test
    void errorNamesTheFieldAndTheRule() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"gpfs\":{\"verbsPorts\":[\"mlx5_0/1\",\"mlx5_1\"]}}");

        assertThat(run.stderr().strip())
                .isEqualTo("node-probe: invalid spec: gpfs.verbsPorts[1]: 'mlx5_1' must be <device>/<port> such as mlx5_0/1");
    }

    @Test
    void portOutOfRange() {
        ProbeRun run = ProbeRun.withSpec(cephHost(),
                "{\"nvmeof\":{\"targets\":[{\"nqn\":\"nqn.2024-01.dev.wutz:target1\",\"address\":\"fe80::1\",\"port\":70000}]}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("nvmeof.targets[0].port: 70000 must be between 1 and 65535");
    }

    @Test
    void unknownFieldIsNamed() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"gpfs\":{\"verbsPort\":[\"mlx5_0/1\"]}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("gpfs.verbsPort: unknown field");
    }

    @Test
    void wrongTypeIsNamed() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"nvmeof\":{\"targets\":[{\"port\":\"many\"}]}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("nvmeof.targets[0].port: must be a whole number, got the string 'many'");
    }

    @Test
    void fractionalPortIsNotAPort() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"latency\":{\"device\":\"mlx5_0\",\"port\":1.5}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("latency.port: must be a whole number, got 1.5");
    }

    @Test
    void duplicateKeysAreRefusedNotSilentlyMerged() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"gds\":{\"forbidCompatMode\":true,\"forbidCompatMode\":false}}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("spec: is not valid JSON: Duplicate field 'forbidCompatMode'");
    }

    @Test
    void specMustBeAnObject() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "[\"gpfs\"]");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("spec: must be a JSON object, got a list");
    }

    @Test
    void malformedJson() {
        ProbeRun run = ProbeRun.withSpec(cephHost(), "{\"gpfs\": {");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("spec: is not valid JSON");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--format=yaml", "--exec-mode=ssh", "--tool=mmfsadm", "--tool=mm;fs=/x", "--bogus=1",
            "--tool-timeout=forever", "--node=bad;name", "--peer=10.0.0.1"})
    void badUsageExitsTwo(String option) {
        ProbeRun run = ProbeRun.run(List.of("--host-root", dir.toString(), option), "");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).startsWith("node-probe: ");
    }

    @Test
    void missingHostRootIsUsage() {
        ProbeRun run = ProbeRun.run(List.of("--host-root", dir.resolve("nope").toString()), "");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("is not a directory");
    }

    @Test
    void helpPrintsUsage() {
        ProbeRun run = ProbeRun.run(List.of("--help"), "");

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("--host-root").contains("exit codes");
    }

    @Test
    void emptySpecRunsNothingAndIsNotTrue() {
        ProbeRun run = ProbeRun.withSpec(FixtureHost.at(dir.resolve("empty")), "{}");

        assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ALL_TRUE);
        assertThat(run.report().path("status").asText()).isEqualTo("Unknown");
    }
}
