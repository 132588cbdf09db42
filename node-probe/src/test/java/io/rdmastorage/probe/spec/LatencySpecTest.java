package io.rdmastorage.probe.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.contract.spec.SpecValidator;
import org.junit.jupiter.api.Test;

/** The latency section as SpecReader reads it: defaults, the transport comparison switch, strict types. */
class LatencySpecTest {

    @Test
    void defaultsArePerftestsAndNoComparison() throws Exception {
        ProbeSpec.Latency latency = SpecReader.read("{\"latency\":{\"device\":\"mlx5_0\"}}").latency();

        assertThat(latency).isEqualTo(new ProbeSpec.Latency("mlx5_0", 1, 2, 1000, 5.0, false));
        assertThat(latency.transportComparison()).isFalse();
    }

    @Test
    void transportComparisonIsRead() throws Exception {
        ProbeSpec spec = SpecReader.read("{\"latency\":{\"device\":\"rxe0\",\"size\":64,\"transportComparison\":true}}");

        assertThat(spec.latency().transportComparison()).isTrue();
        assertThat(SpecValidator.validate(spec)).isSameAs(spec);
        assertThat(SpecReader.read("{\"latency\":{\"device\":\"rxe0\",\"transportComparison\":null}}").latency()
                .transportComparison()).isFalse();
    }

    @Test
    void transportComparisonMustBeABoolean() {
        assertThatThrownBy(() -> SpecReader.read("{\"latency\":{\"device\":\"rxe0\",\"transportComparison\":\"yes\"}}"))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessage("latency.transportComparison: must be true or false, got the string 'yes'");
        assertThatThrownBy(() -> SpecReader.read("{\"latency\":{\"device\":\"rxe0\",\"transportComparison\":1}}"))
                .hasMessage("latency.transportComparison: must be true or false, got 1");
    }

    @Test
    void misspelledFieldIsNamedWithTheAllowedOnes() {
        assertThatThrownBy(() -> SpecReader.read("{\"latency\":{\"device\":\"rxe0\",\"tcpComparison\":true}}"))
                .hasMessageStartingWith("latency.tcpComparison: unknown field; allowed: ")
                .hasMessageContaining("transportComparison");
    }

    @Test
    void theFiveFieldFormHasNoComparison() {
        assertThat(new ProbeSpec.Latency("mlx5_0", null, null, null, null).transportComparison()).isFalse();
    }
}
