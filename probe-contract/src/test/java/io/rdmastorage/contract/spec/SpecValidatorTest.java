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

    private static ProbeSpec latency(int port, int size, int iterations, double maxTypicalMicros) {
        return new ProbeSpec(null, null, null, null,
                new ProbeSpec.Latency("mlx5_0", port, size, iterations, maxTypicalMicros), null);
    }
}
