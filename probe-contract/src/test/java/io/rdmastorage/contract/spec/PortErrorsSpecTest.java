package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The portErrors section's rules and the counter baseline a round hands to the next. */
class PortErrorsSpecTest {

    private static ProbeSpec portErrors(String json) throws InvalidSpecException {
        return SpecReader.read("{\"portErrors\": " + json + "}");
    }

    @Test
    void everyCounterHasItsFieldAndDefault() throws Exception {
        List<String> components = Arrays.stream(ProbeSpec.PortErrors.class.getRecordComponents())
                .map(RecordComponent::getName).toList();
        ProbeSpec.PortErrors defaults = portErrors("{}").portErrors();
        for (Counter c : Counter.values()) {
            assertThat(components).as(c.wire()).contains(c.field());
            assertThat(defaults.maxPerHour(c)).as(c.wire()).isEqualTo(c.defaultPerHour());
        }
        // NVSentinel's fatal counters: any increase; symbol errors at the IBTA bound
        assertThat(defaults.maxPerHour(Counter.LINK_DOWNED)).isZero();
        assertThat(defaults.maxPerHour(Counter.SYMBOL_ERROR)).isEqualTo(120);
        assertThat(Counter.SYMBOL_ERROR.fatal()).isTrue();
        assertThat(Counter.CARRIER_CHANGES.fatal()).isFalse();
        assertThat(portErrors("{\"maxSymbolErrorsPerHour\": 10, \"devices\": [\"mlx5_0/1\"]}").portErrors()
                .maxPerHour(Counter.SYMBOL_ERROR)).isEqualTo(10);
    }

    @Test
    void outsideTheBoundsIsRefusedNamingTheField() {
        assertThatThrownBy(() -> portErrors("{\"maxCarrierChangesPerHour\": -1}"))
                .hasMessageContaining("portErrors.maxCarrierChangesPerHour");
        assertThatThrownBy(() -> portErrors("{\"devices\": [\"mlx5_0/1;reboot\"]}")).hasMessageContaining("portErrors.devices[0]");
        assertThatThrownBy(() -> portErrors("{\"maxLinkDownedPerHour\": \"1\"}")).hasMessageContaining("maxLinkDownedPerHour");
    }

    @Test
    void aBaselineReadsBackWhatWasWritten() throws Exception {
        CounterBaseline written = new CounterBaseline("1b9e2c4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                Instant.parse("2026-05-01T10:00:00Z"), Map.of("mlx5_0/1", CounterBaseline.values(
                        Map.of(Counter.LINK_DOWNED, 3L, Counter.SYMBOL_ERROR, 65535L))));
        CounterBaseline read = CounterBaseline.read(written.json());
        assertThat(read).isEqualTo(written);
        assertThat(read.value("mlx5_0/1", Counter.LINK_DOWNED)).hasValue(3);
        assertThat(read.value("mlx5_0/1", Counter.CARRIER_CHANGES)).isEmpty();   // absent, not 0
        assertThat(read.value("mlx5_1/1", Counter.LINK_DOWNED)).isEmpty();
        // a shorter list (an older probe's) leaves the counters appended since absent
        assertThat(CounterBaseline.read("{\"bootId\":\"b\",\"readAt\":\"2026-05-01T10:00:00Z\",\"ports\":{\"rxe0/1\":[1]}}")
                .value("rxe0/1", Counter.SYMBOL_ERROR)).isEmpty();
    }

    @Test
    void aBaselineThatIsNotOneIsRefusedNamingTheField() {
        String ok = "\"readAt\":\"2026-05-01T10:00:00Z\",\"ports\":{}";
        assertThatThrownBy(() -> CounterBaseline.read("{\"bootId\":\"a b\"," + ok + "}")).hasMessageContaining("bootId");
        assertThatThrownBy(() -> CounterBaseline.read("{\"bootId\":\"b\",\"readAt\":\"yesterday\",\"ports\":{}}"))
                .hasMessageContaining("readAt");
        assertThatThrownBy(() -> CounterBaseline.read("{\"bootId\":\"b\",\"readAt\":\"2026-05-01T10:00:00Z\","
                + "\"ports\":{\"mlx5_0/1;x\":[1]}}")).hasMessageContaining("ports[mlx5_0/1;x]");
        assertThatThrownBy(() -> CounterBaseline.read("{\"bootId\":\"b\",\"readAt\":\"2026-05-01T10:00:00Z\","
                + "\"ports\":{\"mlx5_0/1\":[-2]}}")).hasMessageContaining("ports[mlx5_0/1]");
        assertThatThrownBy(() -> CounterBaseline.read("{\"bootId\":\"b\"," + ok + ",\"extra\":1}")).hasMessageContaining("extra");
        assertThatThrownBy(() -> CounterBaseline.read("[")).hasMessageContaining("not JSON");
    }
}
