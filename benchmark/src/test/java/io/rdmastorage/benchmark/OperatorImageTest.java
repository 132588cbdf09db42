package io.rdmastorage.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark starts the operator with the options of its image, read from the Dockerfile. */
class OperatorImageTest {

    /** Surefire runs in the module's folder. */
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theOperatorImagesOptionsWithTheHeapGivenExplicitly() throws Exception {
        Path dockerfile = REPOSITORY.resolve("operator/Dockerfile");

        var options = OperatorImage.jvmOptions(REPOSITORY, dockerfile, "256m");

        assertThat(options).first().isEqualTo("-Xmx256m");
        assertThat(options).contains("-XX:+UseSerialGC")
                .noneMatch(o -> o.startsWith("-XX:MaxRAMPercentage") || o.equals("-jar") || o.endsWith(".jar"));
        String text = Files.readString(dockerfile);
        assertThat(options.subList(1, options.size())).allMatch(o -> text.contains("\"" + o + "\""));
    }

    @Test
    void readsAnEntrypointOverSeveralLinesAndReplacesTheImagesHeapSizing(@TempDir Path dir) throws Exception {
        Path dockerfile = Files.writeString(dir.resolve("Dockerfile"), """
                FROM debian:bookworm-slim
                ENTRYPOINT ["java", "-XX:+UseSerialGC", \\
                            "-XX:MaxRAMPercentage=40", "-Xss512k", "-jar", "/opt/x.jar"]
                CMD ["--flag"]
                """);

        assertThat(OperatorImage.jvmOptions(REPOSITORY, dockerfile, "1g")).containsExactly("-Xmx1g", "-XX:+UseSerialGC", "-Xss512k");
    }

    @Test
    void refusesAnEntrypointThatIsNotJavaDashJar(@TempDir Path dir) throws Exception {
        Path dockerfile = Files.writeString(dir.resolve("Dockerfile"), "ENTRYPOINT [\"/bin/sh\", \"-c\", \"java -jar x.jar\"]\n");

        assertThatThrownBy(() -> OperatorImage.jvmOptions(REPOSITORY, dockerfile, "256m")).hasMessageContaining("not java ... -jar");
    }
}
