package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.Commands;
import io.rdmastorage.testing.OciImageIndex;
import io.rdmastorage.testing.OciImageIndex.PlatformImage;
import io.rdmastorage.testing.ProjectImages;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both images as the chart pulls them: one image index per image with a linux/amd64 and a
 * linux/arm64 manifest (each node pulls its own), and every ELF file of each platform's layers built
 * for that platform's machine, so an amd64 binary in the arm64 image (or the reverse) fails the
 * build. The images are those {@code scripts/build-image.sh} writes (ChartOnRealNodeIT and
 * RealKubeletVmIT import the same archives into real runtimes).
 */
class ImageIndexIT {

    /** ELF e_machine by Debian architecture. */
    private static final Map<String, Integer> MACHINE = Map.of("amd64", 62, "arm64", 183);
    /** The architecture's library folder and jffi's folder for its native stub. */
    private static final Map<String, String> TRIPLET = Map.of("amd64", "x86_64-linux-gnu", "arm64", "aarch64-linux-gnu");
    private static final Map<String, String> JFFI = Map.of("amd64", "jni/x86_64-Linux/libjffi-1.2.so",
            "arm64", "jni/aarch64-Linux/libjffi-1.2.so");

    /** This machine's architecture, whose half of an image runs here without an emulator. */
    private static final String HOST_ARCH = System.getProperty("os.arch").equals("aarch64") ? "arm64" : "amd64";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"node-probe", "operator"})
    void eachImageIsAnIndexOfAmd64AndArm64WhoseBinariesAreOfItsOwnPlatform(String module) {
        String tag = HelmChart.appVersion();
        OciImageIndex index = OciImageIndex.open(ProjectImages.build(module, tag), dir.resolve(module));

        assertThat(index.tag()).isEqualTo(tag);
        assertThat(index.images()).extracting(PlatformImage::platform).containsExactlyInAnyOrder("linux/amd64", "linux/arm64");
        for (PlatformImage image : index.images()) {
            String arch = image.platform().substring("linux/".length());
            assertThat(image.configOs() + "/" + image.configArchitecture()).as(module).isEqualTo(image.platform());
            List<String> foreign = new ArrayList<>();
            Set<String> files = new TreeSet<>();
            Set<String> jarNatives = new TreeSet<>();
            int[] elf = {0};
            index.files(image, (file, content) -> {
                files.add(file.path());
                int machine = file.elfMachine();
                if (machine >= 0) {
                    elf[0]++;
                    if (machine != MACHINE.get(arch)) {
                        foreign.add(file.path() + " (e_machine " + machine + ")");
                    }
                }
                if (file.path().startsWith("opt/") && file.path().endsWith(".jar")) {
                    ZipInputStream jar = new ZipInputStream(content);
                    for (ZipEntry e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
                        if (e.getName().startsWith("jni/") && e.getName().endsWith(".so")) {
                            jarNatives.add(e.getName());
                        }
                    }
                }
            });

            assertThat(foreign).as("%s %s: ELF files of another machine", module, arch).isEmpty();
            assertThat(elf[0]).as("%s %s: ELF files seen", module, arch).isGreaterThan(50);
            assertThat(files).as("%s %s", module, arch).contains("usr/lib/jvm/java-17-openjdk-" + arch + "/bin/java",
                    "usr/lib/jvm/java-17-openjdk-" + arch + "/lib/server/libjvm.so");
            if (module.equals("node-probe")) {
                // the verbs the probe opens through jnr-ffi, perftest, and the CDS archive this platform's JVM made
                assertThat(files).as(arch).contains("usr/bin/ib_write_lat", "usr/bin/fio", "opt/node-probe/node-probe.jsa")
                        .anyMatch(f -> f.startsWith("usr/lib/" + TRIPLET.get(arch) + "/libibverbs.so.1"))
                        .anyMatch(f -> f.startsWith("usr/lib/" + TRIPLET.get(arch) + "/libmlx5.so.1."));
                assertThat(jarNatives).as("jnr-ffi's native stub in the jar").contains(JFFI.get(arch));
            }
        }
    }

    /**
     * The probe image's JVM maps its class-data-sharing archive: the JVM takes an archive only with
     * the very jar it was made from (same size and modification time) and otherwise starts without
     * it, silently, loading every class from the jar (0.36 instead of 0.26 CPU-seconds per probe on
     * this machine). The ENTRYPOINT's options with {@code -Xshare:on}, which turns that fallback into an error.
     */
    @Test
    void theProbeImagesJvmUsesTheArchiveMadeForItsJar() {
        OciImageIndex index = OciImageIndex.open(ProjectImages.build("node-probe", HelmChart.appVersion()), dir.resolve("index"));
        Path rootfs = index.unpack(index.image("linux/" + HOST_ARCH), dir.resolve("rootfs"));

        // a /proc of its own in the root file system: the dynamic loader finds the JVM's libraries through /proc/self/exe
        CommandResult java = Commands.run(Duration.ofMinutes(1), List.of("unshare", "--mount", "--propagation", "private", "sh",
                "-ec", "mount -t proc proc \"$1/proc\"; exec chroot \"$1\" java -Xshare:on"
                        + " -XX:SharedArchiveFile=/opt/node-probe/node-probe.jsa -cp /opt/node-probe/node-probe.jar -version",
                "java", rootfs.toString()));

        assertThat(java.exitCode()).as(java.stderr()).isZero();
        // java -version writes to stderr: "... mixed mode, sharing"
        assertThat(java.stderr()).contains("sharing");
    }
}
