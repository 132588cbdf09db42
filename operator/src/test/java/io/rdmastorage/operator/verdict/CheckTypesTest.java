package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import org.junit.jupiter.api.Test;

class CheckTypesTest {

    @Test
    void oneTypePerSectionInAFixedOrder() {
        RdmaStorageProfileSpec spec = RealProbe.withLatency(RealProbe.healthySpec());
        assertThat(CheckTypes.expected(spec))
                .containsExactly("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "VerbsLatency", "CephMessenger");
    }

    @Test
    void absentSectionsAreNotChecked() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        assertThat(CheckTypes.expected(spec)).isEmpty();
        spec.setCeph(RealProbe.healthySpec().getCeph());
        spec.setNvmeof(RealProbe.healthySpec().getNvmeof());
        assertThat(CheckTypes.expected(spec)).containsExactly("NvmeofRdma", "CephMessenger");
    }

    @Test
    void onlyVerbsLatencyIsMeasuredInPairs() {
        assertThat(CheckTypes.PAIRWISE).isEqualTo("VerbsLatency");
        assertThat(CheckTypes.ALL).contains(CheckTypes.PAIRWISE);
    }
}
