package io.rdmastorage.operator.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart installs the CRDs from its crds/ folder (Helm applies those before the templates).
 * The repository's crds/ folder is their single source, generated from the Java model: the
 * chart's copies must be byte-identical.
 */
class ChartCrdsTest {

    static final String SYNC = "cp crds/*.yml helm/rdma-storage-operator/crds/   "
            + "(or regenerate both: mvn -pl operator -am process-classes -Dcrds.update)";

    private static final Path REPOSITORY_CRDS = Path.of(System.getProperty("rdmastorage.crds.dir", "../crds"));
    private static final Path CHART_CRDS = HelmChart.DIR.resolve("crds");

    @Test
    void chartShipsExactlyTheRepositoryCrds() throws IOException {
        List<String> repository = names(REPOSITORY_CRDS);
        assertThat(repository).as("CRDs in %s", REPOSITORY_CRDS).isNotEmpty();
        assertThat(names(CHART_CRDS)).as("CRD files in the chart's crds/ folder; sync them from the repository root with: %s", SYNC)
                .isEqualTo(repository);
        for (String name : repository) {
            // Files.mismatch: -1 when identical, else the offset of the first differing byte
            assertThat(Files.mismatch(CHART_CRDS.resolve(name), REPOSITORY_CRDS.resolve(name)))
                    .as("first differing byte of helm/rdma-storage-operator/crds/%s and crds/%s; sync from the repository root with: %s",
                            name, name, SYNC)
                    .isEqualTo(-1L);
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yml") || n.endsWith(".yaml"))
                    .sorted().toList();
        }
    }
}
