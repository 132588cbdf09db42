package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.Ttar;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SysfsCounterTest {

    static final String MLX5_COUNTERS = "counters/sysfs-infiniband-counters-and-hw_counters_mlx5_0_procfs-fixture.txt";
    static final String PREFIX = "fixtures/sys/class/infiniband/mlx5_0/ports/1/";

    @Test
    void everyFileOfTheRecordedMlx5PortIsOneNumber() {
        Map<String, String> files = Ttar.files(Samples.body(MLX5_COUNTERS));

        assertThat(files).hasSizeGreaterThan(40);
        files.forEach((path, content) -> assertThat(SysfsCounter.parse(content)).as(path).isPresent());
        assertThat(SysfsCounter.parse(files.get(PREFIX + "counters/port_xmit_data"))).hasValue(2880761508848L);
        assertThat(SysfsCounter.parse(files.get(PREFIX + "hw_counters/local_ack_timeout_err"))).hasValue(131);
    }

    @Test
    void unsigned64BitValuesBeyondLongMaxAreKept() {
        assertThat(SysfsCounter.parse("18446744073709551615\n")).hasValue(-1L);   // 2^64 - 1, as unsigned
        assertThat(SysfsCounter.parse("18446744073709551616")).isEmpty();
    }

    @Test
    void anythingButOneNumberIsNone() {
        assertThat(SysfsCounter.parse("")).isEmpty();
        assertThat(SysfsCounter.parse("N/A (no PMA)\n")).isEmpty();
        assertThat(SysfsCounter.parse("-1")).isEmpty();
        assertThat(SysfsCounter.parse(null)).isEqualTo(OptionalLong.empty());
    }

    @Test
    void legacyMaximaAreThePmaRegisterWidths() {
        // a real host: port_xmit_wait 4294967295, port_xmit_discards 65535, link_downed 255
        assertThat(SysfsCounter.legacyMaximum("port_xmit_wait")).isEqualTo(4294967295L);
        assertThat(SysfsCounter.legacyMaximum("port_xmit_discards")).isEqualTo(65535);
        assertThat(SysfsCounter.legacyMaximum("link_downed")).isEqualTo(255);
        assertThat(SysfsCounter.legacyMaximum("excessive_buffer_overrun_errors")).isEqualTo(15);
        assertThat(SysfsCounter.legacyMaximum("out_of_sequence")).isZero();   // a hw_counters name: 64-bit
    }
}
