package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.tools.GeneratedFiles;
import org.junit.jupiter.api.Test;

/**
 * docs/api-reference.md is what {@link ApiReference} makes from the committed CRDs now; with
 * {@code -Dapi-reference.update} this test writes it instead.
 */
class ApiReferenceTest {

    @Test
    void committedPageIsCurrent() {
        GeneratedFiles.assertCurrent(ApiReference.page(), ApiReference.generate(CrdDriftTest.committedCrds()),
                "api-reference.update", ApiReference.REGENERATE);
    }

    @Test
    void everyKindHasItsSectionAndEveryFieldItsRow() {
        String page = ApiReference.generate(CrdDriftTest.committedCrds());
        assertThat(page).contains("## RdmaStorageProfile", "## RdmaStorageNode", "## RdmaStorageAcceptance",
                "### `spec.roce`", "| `dscp` | integer |", "### `status.conditions[]`");
    }
}
