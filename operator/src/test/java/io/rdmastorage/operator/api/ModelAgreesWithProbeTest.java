package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.probe.spec.InvalidSpecException;
import io.rdmastorage.probe.spec.ProbeSpec;
import io.rdmastorage.probe.spec.SpecValidator;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CRD's limits are node-probe's: patterns come from probe's Rules constants (by construction);
 * the enum and numeric ranges written in the model are checked against the probe's validator here.
 */
class ModelAgreesWithProbeTest {

    @Test
    void gdsFilesystemsAreTheProbes() throws Exception {
        assertThat(Arrays.stream(GdsFilesystem.values()).map(GdsFilesystem::value).toList())
                .containsExactlyElementsOf(ProbeSpec.GDS_FILESYSTEMS);
        ObjectMapper json = new ObjectMapper();
        assertThat(json.writeValueAsString(GdsFilesystem.NVMEOF)).isEqualTo("\"nvmeof\"");
        assertThat(json.readValue("\"wekafs\"", GdsFilesystem.class)).isEqualTo(GdsFilesystem.WEKAFS);
    }

    @Test
    void latencyRangesAreTheProbes() throws Exception {
        SpecValidator.validate(latency(1, LatencyCheckSpec.MAX_SIZE, LatencyCheckSpec.MIN_ITERATIONS, LatencyCheckSpec.MAX_TYPICAL_MICROS));
        SpecValidator.validate(latency(255, 1, LatencyCheckSpec.MAX_ITERATIONS, 0.001));
        for (ProbeSpec outside : List.of(
                latency(1, LatencyCheckSpec.MAX_SIZE + 1, 1000, 5),
                latency(1, 0, 1000, 5),
                latency(1, 2, LatencyCheckSpec.MIN_ITERATIONS - 1, 5),
                latency(1, 2, LatencyCheckSpec.MAX_ITERATIONS + 1, 5),
                latency(1, 2, 1000, LatencyCheckSpec.MAX_TYPICAL_MICROS + 1),
                latency(1, 2, 1000, 0),
                latency(256, 2, 1000, 5))) {
            assertThatThrownBy(() -> SpecValidator.validate(outside)).isInstanceOf(InvalidSpecException.class);
        }
    }

    @Test
    void schemaDefaultsAreTheSettingsDefaults() throws Exception {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setInterval(field(RdmaStorageProfileSpec.class, "interval"));
        spec.setProbeTimeout(field(RdmaStorageProfileSpec.class, "probeTimeout"));
        spec.setMaxConcurrentProbes(Integer.parseInt(field(RdmaStorageProfileSpec.class, "maxConcurrentProbes")));
        ProfileSettings settings = ProfileSettings.of(spec);
        assertThat(settings.interval()).isEqualTo(ProfileSettings.DEFAULT_INTERVAL);
        assertThat(settings.probeTimeout()).isEqualTo(ProfileSettings.DEFAULT_PROBE_TIMEOUT);
        assertThat(settings.maxConcurrentProbes()).isEqualTo(ProfileSettings.DEFAULT_MAX_CONCURRENT_PROBES);
        assertThat(ProfileSettings.parseDuration(RdmaStorageProfileSpec.MIN_INTERVAL)).isEqualTo(Duration.ofMinutes(1));

        ProbeSpec.Latency probeDefaults = new ProbeSpec.Latency("mlx5_0", null, null, null, null);
        assertThat(Integer.parseInt(field(LatencyCheckSpec.class, "port"))).isEqualTo(probeDefaults.port());
        assertThat(Integer.parseInt(field(LatencyCheckSpec.class, "size"))).isEqualTo(probeDefaults.size());
        assertThat(Integer.parseInt(field(LatencyCheckSpec.class, "iterations"))).isEqualTo(probeDefaults.iterations());
        assertThat(Double.parseDouble(field(LatencyCheckSpec.class, "maxTypicalMicros"))).isEqualTo(probeDefaults.maxTypicalMicros());
        assertThat(Integer.parseInt(field(NvmeofTarget.class, "port"))).isEqualTo(ProbeSpec.Target.DEFAULT_PORT);
        assertThat(Boolean.parseBoolean(field(GdsCheckSpec.class, "requireIommuDisabled")))
                .isEqualTo(new ProbeSpec.Gds(null, null, null, null).requireIommuDisabled());
    }

    private static String field(Class<?> type, String name) throws NoSuchFieldException {
        return type.getDeclaredField(name).getAnnotation(io.fabric8.generator.annotation.Default.class).value();
    }

    private static ProbeSpec latency(int port, int size, int iterations, double maxTypicalMicros) {
        return new ProbeSpec(null, null, null, null,
                new ProbeSpec.Latency("mlx5_0", port, size, iterations, maxTypicalMicros), null);
    }
}
