package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class VerbsStatusTest {

    @Test
    void recordedStarted() {
        VerbsStatus status = VerbsStatus.parse(Samples.body("gpfs/mmfsadm-test-verbs-status_started.txt"));

        assertThat(status.started()).isTrue();
        assertThat(status.disabled()).isFalse();
    }

    @Test
    void recordedDisabled() {
        VerbsStatus status = VerbsStatus.parse(Samples.body("gpfs/mmfsadm-test-verbs-status_disabled.txt"));

        assertThat(status.disabled()).isTrue();
        assertThat(status.started()).isFalse();
    }

    @Test
    void notStartedWithLeadingBlankLinesAndCrlf() {
        // constructed: "not started" is documented in ops notes, no capture is public
        VerbsStatus status = VerbsStatus.parse("\r\n\r\n  VERBS RDMA status:  not   started \r\n");

        assertThat(status.state()).hasValue("not started");
        assertThat(status.started()).isFalse();
        assertThat(status.disabled()).isFalse();
    }

    @Test
    void garbageIsNotAStatus() {
        assertThat(VerbsStatus.parse("usage: mmfsadm test ...\n").recognized()).isFalse();
        assertThat(VerbsStatus.parse("VERBS RDMA status:\n").recognized()).isFalse();
    }
}
