package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class ElbenchoResultTest {

    @Test
    void version1ReadWithLatency() {
        String text = Samples.body("elbencho/elbencho_4k-randread_lat_bdev_v1.8_docker.txt");

        assertThat(ElbenchoResult.parse(text, "READ"))
                .contains(new ElbenchoResult("READ", 6001, 8219, 32, 120.0));
    }

    @Test
    void version3WriteWithElapsedTimeInSecondsAndNoLatency() {
        String text = Samples.body("elbencho/elbencho_4M-write_v3.0-26_elapsed-time.txt");

        assertThat(ElbenchoResult.parse(text, "WRITE"))
                .contains(new ElbenchoResult("WRITE", 11559, 221, 885, null));
        assertThat(ElbenchoResult.parse(text, "READ")).as("no such phase").isEmpty();
    }

    @Test
    void theLiveCsvIsNotTheResultTable() {
        String csv = Samples.body("elbencho/elbencho_livecsv-stdout_4k-randread-rbd_issue102.txt");

        assertThat(ElbenchoResult.parse(csv, "READ")).isEmpty();
        assertThat(ElbenchoResult.parse("", "READ")).isEmpty();
    }
}
