package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.tools.BackgroundBuilds;
import io.rdmastorage.operator.tools.GoTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed bundle/ passes the operator-framework's own validators: scripts/bundle-validate,
 * built from github.com/operator-framework/api (the validators `operator-sdk bundle validate` runs
 * by default, plus the OperatorHub, capabilities, categories, good-practices, removed-APIs and
 * object suites). Broken copies of the bundle show that the same run finds errors.
 */
@Tag(BackgroundBuilds.TAG)
class BundleValidateTest {

    static final Path BUILD_SCRIPT = Path.of("../scripts/bundle-validate/build.sh");
    static final String CSV = "manifests/" + OlmBundle.PACKAGE + ".clusterserviceversion.yaml";

    /**
     * What the validators say and we accept, each with why. The operator creates RdmaStorageNodes
     * itself, one per node, so examples/ has none to offer as an example (the CSV marks the kind
     * internal, so the console offers no form for it).
     */
    static final List<String> ACCEPTED_WARNINGS = List.of(
            "Value rdmastorage.io/v1alpha1, Kind=RdmaStorageNode: provided API should have an example annotation");

    record Result(int exit, String output) {
        List<String> lines(String level) {
            return output.lines().filter(l -> l.startsWith(level + " ")).toList();
        }
    }

    @Test
    void committedBundlePassesTheOperatorFrameworksValidators() {
        Result result = validate(OlmBundle.dir());
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.lines("ERROR")).isEmpty();
        assertThat(result.lines("WARNING")).as("warnings beyond the accepted ones")
                .allSatisfy(w -> assertThat(ACCEPTED_WARNINGS).anySatisfy(accepted -> assertThat(w).contains(accepted)))
                .hasSize(ACCEPTED_WARNINGS.size());
        assertThat(result.output()).contains("package \"" + OlmBundle.PACKAGE + "\"");
    }

    static Stream<Arguments> brokenBundles() {
        return Stream.of(
                Arguments.of("no install mode supported", CSV,
                        (UnaryOperator<String>) csv -> csv.replace("supported: true", "supported: false"),
                        "none of InstallModeTypes are supported"),
                Arguments.of("a CSV name that is no DNS subdomain", CSV,
                        (UnaryOperator<String>) csv -> csv.replace("name: " + OlmBundle.PACKAGE + ".v", "name: RDMA_Storage.v"),
                        "metadata.name \"RDMA_Storage.v"),
                Arguments.of("an icon of a media type OLM does not show", CSV,
                        (UnaryOperator<String>) csv -> csv.replace("mediatype: image/svg+xml", "mediatype: image/x-icon"),
                        "does not have a valid mediatype"),
                Arguments.of("an owned CRD missing from the bundle", "manifests/rdmastorageprofiles.rdmastorage.io-v1.yml",
                        (UnaryOperator<String>) crd -> null,
                        "owned CRD \"rdmastorage.io/v1alpha1, Kind=RdmaStorageProfile\" not found in bundle"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenBundles")
    void aBrokenCopyIsReported(String broken, String file, UnaryOperator<String> change, String finding, @TempDir Path copy)
            throws IOException {
        copyTree(OlmBundle.dir(), copy);
        Path target = copy.resolve(file);
        String original = Files.readString(target, StandardCharsets.UTF_8);
        String changed = change.apply(original);
        if (changed == null) {
            Files.delete(target);
        } else {
            assertThat(changed).as("the change applies to %s", file).isNotEqualTo(original);
            Files.writeString(target, changed, StandardCharsets.UTF_8);
        }

        Result result = validate(copy);
        assertThat(result.exit()).as(result.output()).isEqualTo(1);
        assertThat(result.lines("ERROR")).as(result.output()).anySatisfy(e -> assertThat(e).contains(finding));
    }

    private static Result validate(Path bundle) {
        try {
            Process process = new ProcessBuilder(GoTools.binary(BUILD_SCRIPT).toString(), bundle.toString())
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(process.waitFor(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
