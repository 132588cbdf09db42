package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rdmastorage.probe.parse.PerftestBandwidth.Measured;
import io.rdmastorage.probe.parse.PerftestBandwidth.NotMeasured;
import io.rdmastorage.probe.parse.PerftestBandwidth.Row;
import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

/** PerftestBandwidth on recorded perftest outputs. */
class PerftestBandwidthTest {

    @Test
    void gbitTableOfSoftRoce() {
        Row row = ((Measured) PerftestBandwidth.parse(Samples.body("perftest/ib_write_bw_server_rxe_gbit.txt")))
                .row(65536).orElseThrow();
        assertThat(row.iterations()).isEqualTo(5000);
        assertThat(row.averageBytesPerSecond()).isEqualTo(0.48e9 / 8);
        assertThat(row.peakBytesPerSecond()).isEqualTo(0.74e9 / 8);
        assertThat(row.messagesPerSecond()).isCloseTo(920.0, within(1e-6));
    }

    @Test
    void durationModeHasNoPeak() {
        Row row = ((Measured) PerftestBandwidth.parse(
                Samples.body("perftest/ib_write_bw_client_roce_rdma-cm_gbit_pr342_fragment.txt"))).row(65536).orElseThrow();
        assertThat(row.averageBytesPerSecond()).isEqualTo(42.31e9 / 8);
        assertThat(row.peakBytesPerSecond()).isNull();
        assertThat(row.messagesPerSecond()).isCloseTo(80_701.0, within(1e-6));
    }

    @Test
    void mebibyteTableOfEveryMessageSize() {
        Measured m = (Measured) PerftestBandwidth.parse(Samples.body("perftest/ib_send_bw_client_-a_ib_table-only.txt"));
        assertThat(m.rows().size()).isGreaterThan(10);
        assertThat(m.row(4096).orElseThrow().averageBytesPerSecond()).isEqualTo(9582.67 * 1024 * 1024);
    }

    @Test
    void failuresAreThoseOfPerftestLatency() {
        NotMeasured refused = (NotMeasured) PerftestBandwidth.parse(
                Samples.body("perftest/failing_ib_write_bw_couldnt-connect_pr228.txt"));
        assertThat(refused.failure().orElseThrow().failure()).isEqualTo(PerftestLatency.Failure.PEER_UNREACHABLE);
        NotMeasured rts = (NotMeasured) PerftestBandwidth.parse(
                Samples.body("perftest/failing_ib_write_bw_-R_modify-qp-rts_issue132.txt"));
        assertThat(rts.failure().orElseThrow().failure()).isEqualTo(PerftestLatency.Failure.RDMA_CONNECTION);
    }

    @Test
    void aLatencyTableIsNoBandwidthTable() {
        NotMeasured n = (NotMeasured) PerftestBandwidth.parse(Samples.body("perftest/ib_write_lat_client_rxe_softroce.txt"));
        assertThat(n.failure()).isEmpty();
        assertThat(n.why()).contains("not a bandwidth table");
        assertThat(((NotMeasured) PerftestBandwidth.parse("")).why()).isEqualTo("no output");
    }
}
