package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class GpfsConfigTest {

    @Test
    void pagepoolFromTheRecordedSample() {
        GpfsConfig config = GpfsConfig.from(GpfsYOutput.parse(
                Samples.body("gpfs/mmdiag-config-Y_pagepool_gpfs-exporter-fixture.txt")));

        assertThat(config.pagepoolBytes()).hasValue(4294967296L);
        assertThat(config.flag("verbsRdma")).isEmpty();   // the sample is a fragment without verbs attributes
    }

    @Test
    void verbsSettings() {
        GpfsConfig config = GpfsConfig.from(GpfsYOutput.parse(
                GpfsFixtures.mmdiagConfigY("enable", "mlx5_0/1 mlx5_1/1", 32L << 30)));

        assertThat(config.flag("verbsRdma")).hasValue(true);
        assertThat(config.flag("verbsRdmaSend")).hasValue(false);
        assertThat(config.verbsPorts()).containsExactly("mlx5_0/1", "mlx5_1/1");
        assertThat(config.pagepoolBytes()).hasValue(32L << 30);
    }

    @Test
    void verbsPortsDefaultPortOneAndIgnoreTheFabricNumber() {
        GpfsConfig config = new GpfsConfig(Map.of("verbsPorts", " mlx5_0\tmlx5_1/1/2  mlx5_2/2 b@d "));

        assertThat(config.verbsPorts()).containsExactly("mlx5_0/1", "mlx5_1/1", "mlx5_2/2", "b@d");
        assertThat(new GpfsConfig(Map.of()).verbsPorts()).isEmpty();
    }

    @Test
    void gpfsSizesAreBinary() {
        assertThat(GpfsConfig.gpfsSize("4g")).hasValue(4L << 30);
        assertThat(GpfsConfig.gpfsSize("512M")).hasValue(512L << 20);
        assertThat(GpfsConfig.gpfsSize("34359738368")).hasValue(34359738368L);
        assertThat(GpfsConfig.gpfsSize("lots")).isEqualTo(OptionalLong.empty());
        assertThat(GpfsConfig.gpfsSize("99999999999999999T")).isEqualTo(OptionalLong.empty());
        assertThat(GpfsConfig.gpfsSize("")).isEqualTo(OptionalLong.empty());
    }

    @Test
    void unknownFlagValuesAreNotGuessed() {
        assertThat(new GpfsConfig(Map.of("verbsRdma", "maybe")).flag("verbsRdma")).isEmpty();
        assertThat(new GpfsConfig(Map.of("verbsRdma", "DISABLE")).flag("verbsRdma")).hasValue(false);
    }
}
