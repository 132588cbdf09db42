package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class FioJsonTest {

    private static final String SATA_QD1 = "fio/fio_json_4k-randread_qd1_libaio_direct_dev-sdh_fio-3.14_fio-plot.txt";

    @Test
    void fourKRandomReadAtDepthOneGivesIopsBandwidthAndCompletionPercentiles() {
        FioJson.Run run = FioJson.parse(Samples.body(SATA_QD1)).orElseThrow();

        assertThat(run.version()).isEqualTo("fio-3.14-6-g97134");
        assertThat(run.jobs()).isEqualTo(1);
        assertThat(run.iops()).isCloseTo(8360.79, within(0.01));
        assertThat(run.bytesPerSecond()).isEqualTo(34245812);
        assertThat(run.p50Micros()).isEqualTo(102.912);
        assertThat(run.p99Micros()).isEqualTo(150.528);
        assertThat(run.p999Micros()).isEqualTo(177.152);
        assertThat(run.runtimeMillis()).isEqualTo(60001);
        assertThat(run.totalIos()).isEqualTo(501656);
        assertThat(run.error()).isZero();
    }

    @Test
    void notesFioPrintsBeforeTheDocumentAreSkipped() {
        String stdout = "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\n"
                + Samples.body(SATA_QD1);

        assertThat(FioJson.parse(stdout)).hasValueSatisfying(r -> assertThat(r.iops()).isGreaterThan(8000));
    }

    @Test
    void separateJobsAreSummedWithoutPercentiles() {
        // constructed from the sample: the same job twice, as fio prints without group_reporting
        String body = Samples.body(SATA_QD1);
        int jobsStart = body.indexOf('[', body.indexOf("\"jobs\"")) + 1;
        int jobsEnd = body.indexOf("\n  ],\n  \"disk_util\"");
        String job = body.substring(jobsStart, jobsEnd).strip();
        String twoJobs = body.substring(0, jobsStart) + job + "," + job + body.substring(jobsEnd);

        FioJson.Run run = FioJson.parse(twoJobs).orElseThrow();

        assertThat(run.jobs()).isEqualTo(2);
        assertThat(run.iops()).isCloseTo(2 * 8360.79, within(0.02));
        assertThat(run.bytesPerSecond()).isEqualTo(2 * 34245812L);
        assertThat(run.p50Micros()).isNull();
        assertThat(run.p99Micros()).isNull();
    }

    @Test
    void aJobErrorIsKept() {
        String failed = Samples.body(SATA_QD1).replaceFirst("\"error\" : 0", "\"error\" : 5");

        assertThat(FioJson.parse(failed)).hasValueSatisfying(r -> assertThat(r.error()).isEqualTo(5));
    }

    @Test
    void whatIsNotAFioDocumentGivesNothing() {
        assertThat(FioJson.parse("")).isEmpty();
        assertThat(FioJson.parse("fio: failed to open /dev/nvme1n1: Permission denied\n")).isEmpty();
        assertThat(FioJson.parse("{\"fio version\" : \"fio-3.33\", \"jobs\" : []}")).isEmpty();
        String body = Samples.body(SATA_QD1);
        assertThat(FioJson.parse(body.substring(0, body.length() / 2))).as("cut short").isEmpty();
    }

    @Test
    void writeSideOfTheNetEngine() {
        FioJson.Run pingPong = FioJson.parseWrite(Samples.body("fio/fio_json_net-tcp-pingpong_4k_write_client_fio-3.33_loopback.txt"))
                .orElseThrow();
        assertThat(pingPong.version()).isEqualTo("fio-3.33");
        assertThat(pingPong.totalIos()).isEqualTo(2000);
        assertThat(pingPong.p50Micros()).isEqualTo(17.28);
        assertThat(pingPong.error()).isZero();
        FioJson.Run stream = FioJson.parseWrite(Samples.body("fio/fio_json_net-tcp-stream_1M_write_client_fio-3.33_loopback.txt"))
                .orElseThrow();
        assertThat(stream.bytesPerSecond()).isEqualTo(991_990_619L);
        assertThat(stream.runtimeMillis()).isEqualTo(3002);
        assertThat(FioJson.parse(Samples.body("fio/fio_json_net-tcp-stream_1M_write_client_fio-3.33_loopback.txt"))
                .orElseThrow().totalIos()).as("its read side is empty").isZero();
    }

    @Test
    void aListenerPrintsANoteBeforeItsDocument() {
        FioJson.Run listener = FioJson.parse(Samples.body("fio/fio_json_net-tcp-stream_1M_read_listener_fio-3.33_loopback.txt"))
                .orElseThrow();
        assertThat(listener.bytesPerSecond()).isPositive();
        assertThat(FioJson.parseWrite(Samples.body("fio/fio_json_net-tcp_connection-refused_fio-3.33.txt")).orElseThrow().error())
                .isEqualTo(111);
    }
}
