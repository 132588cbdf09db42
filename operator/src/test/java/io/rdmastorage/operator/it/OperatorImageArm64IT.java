package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorJarIT.freePort;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.helm.HelmChart;
import io.rdmastorage.testing.NodeRuntime;
import io.rdmastorage.testing.OciImageIndex;
import io.rdmastorage.testing.ProjectImages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator image's arm64 half, as a Grace control-plane or infrastructure node would run it:
 * its own arm64 JVM (through qemu-user on this x86 machine), its own entrypoint and user, the jar it
 * carries, against the real API server: it serves readyz and healthz and reconciles a profile on a
 * simulated node. Slow under emulation (a JVM's start takes tens of seconds), so this is the only
 * arm64 run of the operator; node-probe's arm64 JVM runs at image build time (its CDS archive).
 */
class OperatorImageArm64IT {

    /** A reconcile round under qemu-user: the JVM's start, the informers' lists, one probe round. */
    private static final Duration VERDICT = Duration.ofMinutes(6);

    @TempDir
    Path dir;

    @Test
    void theArm64ImagesJvmServesHealthAndReconcilesAProfile() throws Exception {
        OciImageIndex index = OciImageIndex.open(ProjectImages.build("operator", HelmChart.appVersion()), dir.resolve("oci"));
        OciImageIndex.PlatformImage arm64 = index.image("linux/arm64");
        Path rootfs = index.unpack(arm64, dir.resolve("rootfs"));
        try (OperatorEnvironment env = OperatorEnvironment.start("arm64")) {
            env.addNode("arm64-1", null);
            // the CA inline: its path on this machine means nothing in the image's root
            env.plane.writeSelfContainedKubeconfig(rootfs.resolve("tmp/kubeconfig"));
            int port = freePort();
            List<String> command = new ArrayList<>(List.of("bash",
                    NodeRuntime.repository().resolve("test-control-plane/scripts/run-in-rootfs.sh").toString(),
                    rootfs.toString(), "arm64", arm64.user(), "--"));
            command.addAll(arm64.entrypoint());
            Process operator = OperatorJarIT.start(command, env, "/tmp/kubeconfig", port, "operator-arm64-it.log");
            try {
                OperatorJarIT.reconcilesAndServes(env, operator, "arm64", "arm64-1", port, VERDICT, Duration.ofSeconds(60));
                // the JVM that answered is an AArch64 binary: the kernel runs it through qemu-user's interpreter
                assertThat(operator.descendants().filter(p -> p.info().commandLine().orElse("").contains("operator.jar"))
                        .map(p -> exe(p.pid())).toList()).as("the operator's JVM").anyMatch(e -> e.contains("qemu") && e.contains("aarch64"));
                env.deleteProfile("arm64");
            } finally {
                operator.destroy();
                operator.waitFor();
            }
        }
    }

    private static String exe(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe")).toString();
        } catch (IOException e) {
            return "";
        }
    }
}
