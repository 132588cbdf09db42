package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The latency ranges the operator's CRD states (ProbeSpec.Latency's constants) are the validator's own bounds. */
class SpecValidatorTest {

    @Test
    void latencyRangesAreTheProbes() throws Exception {
        SpecValidator.validate(latency(1, ProbeSpec.Latency.MAX_SIZE, ProbeSpec.Latency.MIN_ITERATIONS, ProbeSpec.Latency.MAX_TYPICAL_MICROS));
        SpecValidator.validate(latency(255, 1, ProbeSpec.Latency.MAX_ITERATIONS, 0.001));
        for (ProbeSpec outside : List.of(
                latency(1, ProbeSpec.Latency.MAX_SIZE + 1, 1000, 5),
                latency(1, 0, 1000, 5),
                latency(1, 2, ProbeSpec.Latency.MIN_ITERATIONS - 1, 5),
                latency(1, 2, ProbeSpec.Latency.MAX_ITERATIONS + 1, 5),
                latency(1, 2, 1000, ProbeSpec.Latency.MAX_TYPICAL_MICROS + 1),
                latency(1, 2, 1000, 0),
                latency(256, 2, 1000, 5))) {
            assertThatThrownBy(() -> SpecValidator.validate(outside)).isInstanceOf(InvalidSpecException.class);
        }
    }

    @Test
    void rdmaMinMtuIsAnIbMtuAndMinRateIsWrittenAsSysfsDoes() throws Exception {
        SpecValidator.validate(rdma(4096, "400 Gb/sec"));
        SpecValidator.validate(rdma(256, "12.5 Gb/sec"));
        for (ProbeSpec outside : List.of(rdma(4200, null), rdma(9000, null), rdma(0, null),
                rdma(null, "400G"), rdma(null, "400 Gb/s"), rdma(null, "400 Gb/sec (4X NDR)"), rdma(null, "-1 Gb/sec"))) {
            assertThatThrownBy(() -> SpecValidator.validate(outside)).isInstanceOf(InvalidSpecException.class);
        }
    }

    @Test
    void linkRatesReadTheSpecAndTheSysfsForm() {
        org.assertj.core.api.Assertions.assertThat(Rules.linkRateGbps("400 Gb/sec")).hasValue(400.0);
        org.assertj.core.api.Assertions.assertThat(Rules.linkRateGbps("100 Gb/sec (4X EDR)")).hasValue(100.0);
        org.assertj.core.api.Assertions.assertThat(Rules.linkRateGbps("2.5 Gb/sec (1X SDR)")).hasValue(2.5);
        org.assertj.core.api.Assertions.assertThat(Rules.linkRateGbps("Unknown")).isEmpty();
        org.assertj.core.api.Assertions.assertThat(Rules.linkRateGbps(null)).isEmpty();
    }

    private static ProbeSpec rdma(Integer minMtu, String minRate) {
        return new ProbeSpec(new ProbeSpec.Rdma(List.of("mlx5_0/1"), false, minMtu, minRate), null, null, null, null, null);
    }

    private static ProbeSpec latency(int port, int size, int iterations, double maxTypicalMicros) {
        return new ProbeSpec(null, null, null, null,
                new ProbeSpec.Latency("mlx5_0", port, size, iterations, maxTypicalMicros), null);
    }
}
