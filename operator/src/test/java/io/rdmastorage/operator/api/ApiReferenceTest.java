package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/api-reference.md is what {@link ApiReference} makes from the committed CRDs now; with
 * {@code -Dapi-reference.update} this test writes it instead.
 */
class ApiReferenceTest {

    @Test
    void committedPageIsCurrent() throws IOException {
        String generated = ApiReference.generate(CrdDriftTest.committedCrds());
        Path page = ApiReference.page();
        if (System.getProperty("api-reference.update") != null) {
            Files.writeString(page, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(page)).as("%s is missing; generate it with %s", page, ApiReference.REGENERATE).isTrue();
        assertThat(Files.readString(page, StandardCharsets.UTF_8))
                .as("%s is not what the CRDs make now; regenerate it with %s", page, ApiReference.REGENERATE)
                .isEqualTo(generated);
    }

    @Test
    void everyKindHasItsSectionAndEveryFieldItsRow() {
        String page = ApiReference.generate(CrdDriftTest.committedCrds());
        assertThat(page).contains("## RdmaStorageProfile", "## RdmaStorageNode", "## RdmaStorageAcceptance",
                "### `spec.roce`", "| `dscp` | integer |", "### `status.conditions[]`");
    }
}
