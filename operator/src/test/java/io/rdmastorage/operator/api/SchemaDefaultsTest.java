package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.config.ProfileSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The CRD's defaults of the profile's own settings are ProfileSettings' (the check sections'
 * defaults are the contract's: ProbeContractTest).
 */
class SchemaDefaultsTest {

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
    }

    private static String field(Class<?> type, String name) throws NoSuchFieldException {
        return type.getDeclaredField(name).getAnnotation(io.fabric8.generator.annotation.Default.class).value();
    }
}
