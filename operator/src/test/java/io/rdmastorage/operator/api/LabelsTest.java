package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelsTest {

    @Test
    void usualNodeNamesAreTheirOwnLabelValue() {
        assertThat(Labels.forNode("training", "gpu-07.cluster.example")).containsEntry(Labels.NODE, "gpu-07.cluster.example")
                .containsEntry(Labels.PROFILE, "training").containsEntry(Labels.MANAGED_BY, "rdma-storage-operator");
    }

    @Test
    void longNodeNamesBecomeAValidDistinctLabelValue() {
        String a = "rack-17-".repeat(12) + "gpu-01";
        String b = "rack-17-".repeat(12) + "gpu-02";

        assertThat(Labels.nodeValue(a)).hasSizeLessThanOrEqualTo(63).matches("[A-Za-z0-9]([-_.A-Za-z0-9]*[A-Za-z0-9])?")
                .isNotEqualTo(Labels.nodeValue(b)).isEqualTo(Labels.nodeValue(a));
    }

    @Test
    void storageNodeNamesStayWithinTheObjectNameLimit() {
        String node = "n".repeat(250);

        assertThat(StorageNodeName.of("training", "gpu-07")).isEqualTo("training.gpu-07");
        assertThat(StorageNodeName.of("training", node)).hasSizeLessThanOrEqualTo(253)
                .isNotEqualTo(StorageNodeName.of("training", node + "x"));
    }
}
