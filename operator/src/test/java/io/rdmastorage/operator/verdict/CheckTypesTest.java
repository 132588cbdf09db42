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
        assertThat(CheckTypes.judged(CheckTypes.expected(spec)))
                .containsExactly("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "CephMessenger");
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
    void onlyVerbsLatencyIsNotMeasuredYet() {
        assertThat(CheckTypes.NOT_MEASURED_YET).containsOnlyKeys("VerbsLatency");
        assertThat(CheckTypes.measuredYet("VerbsLatency")).isFalse();
        assertThat(CheckTypes.measuredYet("GpfsVerbs")).isTrue();
    }
}
