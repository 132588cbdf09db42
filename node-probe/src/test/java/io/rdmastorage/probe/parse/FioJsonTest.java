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

    @Test
    void anInterruptedRunSaysItsSignalAndKeepsItsFigures() {
        FioJson.Run run = FioJson.parse(Samples.body("fio/fio_json_4k-randread_fio-3.14_interrupted-signal-2_constructed.txt"))
                .orElseThrow();

        assertThat(run.signal()).isEqualTo(2);
        assertThat(run.interrupted()).isTrue();
        assertThat(run.totalIos()).isEqualTo(501656);
        assertThat(run.movedData()).isTrue();
        assertThat(FioJson.parse(Samples.body(SATA_QD1)).orElseThrow().interrupted()).isFalse();
    }

    @Test
    void fio2LatenciesAreMicrosecondsAndBandwidthKibibytes() {
        FioJson.Run run = FioJson.parseWrite(Samples.body(
                "fio/fio_json_seq-write_qd32_libaio_xvda_fio-2.2.10_usec-latencies_benchmark-notes.txt")).orElseThrow();

        assertThat(run.version()).isEqualTo("fio-2.2.10");
        assertThat(run.iops()).isCloseTo(15624.70, within(0.01));
        assertThat(run.bytesPerSecond()).isEqualTo(62499L * 1024);
        assertThat(run.ioBytes()).isEqualTo(37500272L * 1024);
        assertThat(run.p50Micros()).isEqualTo(8160.0);
        assertThat(run.p99Micros()).isEqualTo(8640.0);
        assertThat(run.p999Micros()).isEqualTo(14912.0);
        assertThat(run.totalIos()).isEqualTo(9374944);
    }

    @Test
    void fio2WithoutTotalIosStillMovedItsBytes() {
        // fio-2.1.4 counts no I/Os: its io_bytes (KiB) say what it read, and it is not "no I/O"
        FioJson.Run run = FioJson.parse(Samples.body("fio/fio_json_read_fio-2.1.4_no-total_ios_usec-clat_docstring.txt"))
                .orElseThrow();

        assertThat(run.totalIos()).isEqualTo(FioJson.Run.IOS_NOT_REPORTED);
        assertThat(run.ioBytes()).isEqualTo(131072L * 1024);
        assertThat(run.movedData()).isTrue();
        assertThat(run.p50Micros()).isEqualTo(8.0);
        assertThat(run.p99Micros()).isEqualTo(68.0);
        assertThat(run.figures()).startsWith("134,217,728 bytes in 0.0 s");
    }

    @Test
    void jobsThatNeverStartedAreLeftOut() {
        String body = Samples.body(SATA_QD1);
        String partial = body.replaceFirst("\"jobs\" : \\[", "\"jobs\" : [ { \"jobname\" : \"never\", \"error\" : 0 },");

        FioJson.Run run = FioJson.parse(partial).orElseThrow();

        assertThat(run.jobs()).isEqualTo(1);
        assertThat(run.p99Micros()).isEqualTo(150.528);
    }
}
