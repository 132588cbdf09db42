package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The traffic section's rules: the same bounds as the operator's CRD (window 1s–60s, priority 0–7). */
class TrafficSpecTest {

    private static ProbeSpec traffic(String window, List<String> devices, Integer maxTcp, Integer priority) {
        return new ProbeSpec(null, null, null, null, null, null, null,
                new ProbeSpec.Traffic(window, devices, maxTcp, null, priority, null, null));
    }

    @Test
    void defaultsAndBoundsAreAccepted() throws Exception {
        ProbeSpec.Traffic defaults = SpecValidator.validate(traffic(null, null, null, null)).traffic();
        assertThat(defaults.windowDuration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.maxTcpBytesPerSecond()).isEqualTo(1024 * 1024);
        assertThat(defaults.minRdmaPacketsPerSecond()).isEqualTo(100);
        assertThat(defaults.priority()).isNull();
        SpecValidator.validate(traffic("1s", List.of("mlx5_0/1"), 0, 0));
        assertThat(SpecValidator.validate(traffic("1m", null, Integer.MAX_VALUE, 7)).traffic().windowDuration())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(SpecValidator.validate(traffic("1500ms", null, null, null)).traffic().windowDuration()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void outsideTheBoundsIsRefusedNamingTheField() {
        for (String window : List.of("999ms", "61s", "2m", "0s", "10", "1m30s", "-5s", "10 s")) {
            assertThatThrownBy(() -> SpecValidator.validate(traffic(window, null, null, null))).as(window)
                    .hasMessageContaining("traffic.window");
        }
        assertThatThrownBy(() -> SpecValidator.validate(traffic(null, null, -1, null))).hasMessageContaining("traffic.maxTcpBytesPerSecond");
        assertThatThrownBy(() -> SpecValidator.validate(traffic(null, null, null, 8))).hasMessageContaining("traffic.priority");
        assertThatThrownBy(() -> SpecValidator.validate(traffic(null, List.of("mlx5_0/1;reboot"), null, null)))
                .hasMessageContaining("traffic.devices[0]");
        assertThatThrownBy(() -> SpecValidator.validate(traffic(null, List.of("mlx5_0/0"), null, null))).hasMessageContaining("traffic.devices[0]");
    }
}
