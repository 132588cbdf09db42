package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratedCrdsTest {

    @Test
    void printerColumnsFollowTheOrderOfTheAnnotations() {
        // crd-generator 7.5.2 sorts by JSON path: AGE (.metadata...) first
        CustomResourceDefinition crd = new CustomResourceDefinitionBuilder().withNewSpec().addNewVersion()
                .addNewAdditionalPrinterColumn().withName("AGE").withJsonPath(".metadata.creationTimestamp").endAdditionalPrinterColumn()
                .addNewAdditionalPrinterColumn().withName("PROFILE").withJsonPath(".spec.profile").endAdditionalPrinterColumn()
                .addNewAdditionalPrinterColumn().withName("NODE").withJsonPath(".spec.nodeName").endAdditionalPrinterColumn()
                .endVersion().endSpec().build();

        GeneratedCrds.orderPrinterColumns(crd, RdmaStorageNode.class);

        List<String> names = crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns().stream()
                .map(CustomResourceColumnDefinition::getName).toList();
        assertThat(names).containsExactly("NODE", "PROFILE", "AGE");
    }

    @Test
    void fileNamesAreThoseOfCrdsFolder() {
        assertThat(GeneratedCrds.fileName(RdmaStorageProfile.class)).isEqualTo("rdmastorageprofiles.rdmastorage.io-v1.yml");
        assertThat(GeneratedCrds.fileName(RdmaStorageNode.class)).isEqualTo("rdmastoragenodes.rdmastorage.io-v1.yml");
    }
}
