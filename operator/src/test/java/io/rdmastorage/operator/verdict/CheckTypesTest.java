package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.List;
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
        assertThat(VerdictPart.PAIR_PROBE.types()).isEqualTo(List.of("VerbsLatency"));
        assertThat(CheckTypes.ALL).containsAll(VerdictPart.PAIR_PROBE.types());
    }

    @Test
    void everyTypeBelongsToExactlyOneKindOfMeasurement() {
        for (String type : CheckTypes.ALL) {
            assertThat(java.util.Arrays.stream(VerdictPart.values()).filter(k -> k.types().contains(type)))
                    .as(type).hasSize(1).containsExactly(VerdictPart.of(type));
        }
        assertThat(java.util.Arrays.stream(VerdictPart.values()).flatMap(k -> k.types().stream()))
                .containsExactlyInAnyOrderElementsOf(CheckTypes.ALL);
    }
}
