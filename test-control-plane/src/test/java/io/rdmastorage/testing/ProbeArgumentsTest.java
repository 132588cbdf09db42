package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProbeArgumentsTest {

    private static final Path ROOT = Path.of("/fixtures/gpu-07");
    private static final Path TERMINATION = Path.of("/scratch/termination-log");
    private static final Path OTHER = Path.of("/scratch/output");

    @Test
    void mapsHostRootOutputAndSpecAndForcesDirectExec() {
        List<String> args = ProbeArguments.translate(
                List.of("--host-root", "/host", "--node", "gpu-07", "--spec", "/etc/rdmastorage/spec.json",
                        "--exec-mode", "chroot", "--output", "/dev/termination-log", "--tool", "gdscheck=/opt/gds"),
                ROOT, "/dev/termination-log", TERMINATION, OTHER,
                path -> path.equals("/etc/rdmastorage/spec.json") ? Optional.of(Path.of("/scratch/spec.json")) : Optional.empty());

        assertThat(args).containsExactly("--node", "gpu-07", "--spec", "/scratch/spec.json",
                "--output", "/scratch/termination-log", "--tool", "gdscheck=/opt/gds",
                "--host-root", "/fixtures/gpu-07", "--exec-mode", "direct");
    }

    @Test
    void handlesEqualsFormSubcommandAndUnresolvedPaths() {
        List<String> args = ProbeArguments.translate(
                List.of("check", "--host-root=/host", "--spec=/nowhere.json", "--output=/tmp/report.json", "--format=text"),
                ROOT, "/dev/termination-log", TERMINATION, OTHER, path -> Optional.empty());

        assertThat(args).containsExactly("check", "--spec", "/nowhere.json", "--output", "/scratch/output",
                "--format=text", "--host-root", "/fixtures/gpu-07", "--exec-mode", "direct");
    }

    @Test
    void specFromStdinIsKept() {
        assertThat(ProbeArguments.translate(List.of("--spec", "-"), ROOT, "/dev/termination-log", TERMINATION, OTHER,
                path -> Optional.of(Path.of("/x")))).startsWith("--spec", "-");
    }
}
