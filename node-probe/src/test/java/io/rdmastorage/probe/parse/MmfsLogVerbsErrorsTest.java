package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MmfsLogVerbsErrorsTest {

    private static final Duration DAY = Duration.ofHours(24);

    @Test
    void bothRecordedTimestampFormatsAreRead() {
        for (String sample : List.of("gpfs/mmfs-log_checksum-errors-verbsRdmaSend_apar-IJ40280.txt",
                "gpfs/mmfs-log_tcp-close-connection_quorum-loss_ibm-doc.txt")) {
            for (String line : Samples.body(sample).split("\n")) {
                assertThat(MmfsLogVerbsErrors.timestamp(line)).as(line).isPresent();
            }
        }
        assertThat(MmfsLogVerbsErrors.timestamp("2021-09-27_15:46:52.820+0200: [W] x"))
                .hasValue(Instant.parse("2021-09-27T13:46:52.820Z"));
        assertThat(MmfsLogVerbsErrors.timestamp("Mon Jun 25 16:11:16 2018: Close connection"))
                .hasValue(Instant.parse("2018-06-25T16:11:16Z"));
    }

    @Test
    void recordedLogsHaveNoVerbsLines() {
        String log = Samples.body("gpfs/mmfs-log_checksum-errors-verbsRdmaSend_apar-IJ40280.txt");

        assertThat(MmfsLogVerbsErrors.recent(log, Instant.parse("2021-10-01T12:00:00Z"), DAY)).isEmpty();
    }

    @Test
    void recentErrorLinesOnly() {
        // constructed: the recorded logs carry no VERBS RDMA lines; wording after IBM's message format
        String log = """
                2024-03-01_08:00:00.000+0000: [E] VERBS RDMA rdma read error IBV_WC_RETRY_EXC_ERR to 10.10.0.12 (gpu-02-ib)
                2024-03-02_07:00:00.000+0000: [I] VERBS RDMA connected to 10.10.0.1 (nsd-01) on mlx5_0 port 1
                2024-03-02_07:30:00.000+0100: [E] VERBS RDMA closed connection to 10.10.0.12 (gpu-02-ib) on mlx5_0 port 1
                2024-03-02_07:45:00.000+0000: [W] Encountered first checksum error on network I/O
                Sat Mar  2 07:50:00 2024: VERBS RDMA failed to connect to 10.10.0.2 (nsd-02)
                garbage line VERBS RDMA error without a timestamp
                2024-03-02_09:00:00.000+0000: [E] VERBS RDMA error logged after the probe started
                """;

        List<MmfsLogVerbsErrors.Line> lines = MmfsLogVerbsErrors.recent(log, Instant.parse("2024-03-02T08:00:00Z"), DAY);

        assertThat(lines).extracting(MmfsLogVerbsErrors.Line::time).containsExactly(
                Instant.parse("2024-03-02T06:30:00Z"), Instant.parse("2024-03-02T07:50:00Z"));
        assertThat(lines.get(0).text()).contains("closed connection to 10.10.0.12 (gpu-02-ib)");
    }
}
