package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static io.rdmastorage.operator.it.OperatorJarIT.freePort;
import static io.rdmastorage.operator.it.OperatorJarIT.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.helm.HelmChart;
import io.rdmastorage.testing.NodeRuntime;
import io.rdmastorage.testing.OciImageIndex;
import io.rdmastorage.testing.ProjectImages;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
            Files.writeString(rootfs.resolve("tmp/kubeconfig"), inlineCa(Files.readString(env.plane.kubeconfig())));
            int port = freePort();
            List<String> command = new ArrayList<>(List.of("bash",
                    NodeRuntime.repository().resolve("test-control-plane/scripts/run-in-rootfs.sh").toString(),
                    rootfs.toString(), "arm64", arm64.user(), "--"));
            command.addAll(arm64.entrypoint());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "operator-arm64-it.log").toFile()));
            builder.environment().put("KUBECONFIG", "/tmp/kubeconfig");
            builder.environment().put("RSO_NAMESPACE", env.namespace);
            builder.environment().put("RSO_PROBE_IMAGE", OperatorEnvironment.PROBE_IMAGE);
            builder.environment().put("RSO_METRICS_PORT", Integer.toString(port));
            Process operator = builder.start();
            try {
                env.applyProfile("arm64", "interval: 1m\nprobeTimeout: 30s", "rdma:\n  devices: [\"mlx5_0/1\"]");
                await("a verdict from the arm64 JVM", VERDICT, () -> {
                    assertThat(operator.isAlive()).as("the operator process (target/operator-arm64-it.log)").isTrue();
                    RdmaStorageNode v = env.verdict("arm64", "arm64-1");
                    return v != null && v.getStatus() != null && v.getStatus().getConditions().stream()
                            .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
                });
                HttpClient http = HttpClient.newHttpClient();
                await("ready", Duration.ofSeconds(60), () -> get(http, port, "/readyz").statusCode() == 200);
                assertThat(get(http, port, "/healthz").statusCode()).isEqualTo(200);
                assertThat(get(http, port, "/metrics").body()).contains("rdmastorage_nodes{profile=\"arm64\",status=\"ready\"} 1.0");
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

    /** The admin kubeconfig with its CA inline: the CA's path on this machine means nothing in the image's root. */
    private static String inlineCa(String kubeconfig) throws IOException {
        Matcher m = Pattern.compile("certificate-authority: (\\S+)").matcher(kubeconfig);
        assertThat(m.find()).as("the kubeconfig's CA line").isTrue();
        String data = Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(m.group(1))));
        return m.replaceFirst("certificate-authority-data: " + data);
    }

    private static String exe(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe")).toString();
        } catch (IOException e) {
            return "";
        }
    }
}
