package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.PerftestLatency.Failed;
import io.rdmastorage.probe.parse.PerftestLatency.Failure;
import io.rdmastorage.probe.parse.PerftestLatency.Measured;
import io.rdmastorage.probe.parse.PerftestLatency.Result;
import io.rdmastorage.probe.parse.PerftestLatency.Row;
import io.rdmastorage.probe.parse.PerftestLatency.Unrecognised;
import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PerftestLatencyTest {

    private static Measured measured(String text) {
        Result r = PerftestLatency.parse(text);
        assertThat(r).isInstanceOf(Measured.class);
        return (Measured) r;
    }

    private static Failed failed(String text) {
        Result r = PerftestLatency.parse(text);
        assertThat(r).isInstanceOf(Failed.class);
        return (Failed) r;
    }

    @Test
    void writeLatClientSoftRoce() {
        Measured m = measured(Samples.body("perftest/ib_write_lat_client_rxe_softroce.txt"));

        assertThat(m.device()).contains("rxe0");
        assertThat(m.linkType()).contains("Ethernet");
        assertThat(m.banner()).containsEntry("Mtu", "1024[B]").containsEntry("TX depth", "1");
        assertThat(m.rows()).containsExactly(new Row(64, 5, 175.75, 210.59, 191.96, 191.96, 16.00, 210.59, 210.59));
    }

    @Test
    void writeLatClientAcrossAVethPairOnTheVmNode() {
        Measured m = measured(Samples.body("perftest/ib_write_lat_client_rxe1-over-veth_vm-6.1.txt"));

        assertThat(m.device()).contains("rxe1");
        assertThat(m.linkType()).contains("Ethernet");
        assertThat(m.rows()).containsExactly(new Row(2, 1000, 16.99, 131.70, 17.36, 20.72, 9.57, 79.57, 131.70));
    }

    @Test
    void writeLatServerSkipsTheWaitingBox() {
        Measured m = measured(Samples.body("perftest/ib_write_lat_server_rxe_softroce.txt"));

        assertThat(m.row(64)).hasValueSatisfying(r -> {
            assertThat(r.tTypical()).isEqualTo(193.75);
            assertThat(r.tMin()).isEqualTo(185.81);
            assertThat(r.p999()).isEqualTo(219.13);
        });
        assertThat(m.banner()).doesNotContainKey("TX depth");
    }

    @Test
    void sendLatAllSizesPicksTheRequestedRow() {
        Measured m = measured(Samples.body("perftest/ib_send_lat_client_UD_-a_ib_mlx5.txt"));

        assertThat(m.rows()).hasSize(12);
        assertThat(m.device()).contains("mlx5_0");
        assertThat(m.linkType()).contains("IB");
        assertThat(m.row(2)).contains(new Row(2, 1000, 0.79, 5.30, 0.81, 0.82, 0.12, 0.84, 5.30));
        assertThat(m.row(4096).map(Row::tTypical)).contains(2.07);
        assertThat(m.row(3)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "perftest/ib_atomic_bw_server_rxe_inline-warning.txt",
            "perftest/ib_send_bw_client_-a_ib_table-only.txt",
            "perftest/ib_write_bw_client_roce_rdma-cm_gbit_pr342_fragment.txt",
            "perftest/ib_write_bw_server_rxe_gbit.txt"})
    void bandwidthTablesAreNotLatency(String sample) {
        Result r = PerftestLatency.parse(Samples.body(sample));

        assertThat(r).isInstanceOf(Unrecognised.class);
        assertThat(((Unrecognised) r).why()).startsWith("a perftest bandwidth table (").contains("BW average")
                .endsWith("not a latency table");
    }

    @Test
    void infStatisticsOfAFailedCpuFrequencySampleAreNoMeasurement() {
        // recorded on the VM node: the RDMA writes completed, but perftest could not time them
        Result r = PerftestLatency.parse(Samples.body(
                "perftest/ib_write_lat_client_rxe1-over-veth_inf_cpu-mhz-sample-failed_vm-6.1.txt"));

        assertThat(r).isInstanceOf(Unrecognised.class);
    }

    @Test
    void bandwidthBannerWithoutTableHasNoTable() {
        Result r = PerftestLatency.parse(Samples.body("perftest/ib_write_bw_server_roce_banner_issue262_fragment.txt"));

        assertThat(r).isEqualTo(new Unrecognised("no perftest result table"));
    }

    @Test
    void couldNotConnectGluedMessages() {
        Failed f = failed(Samples.body("perftest/failing_ib_write_bw_couldnt-connect_pr228.txt"));

        assertThat(f.failure()).isEqualTo(Failure.PEER_UNREACHABLE);
        assertThat(f.text()).isEqualTo("Couldn't connect to 192.168.125.211:18515; "
                + "Unable to open file descriptor for socket connection Unable to init the socket connection");
    }

    @Test
    void completionErrorOnOneLine() {
        Failed f = failed(Samples.body("perftest/failing_completion-error_status12_retry-exceeded_softiwarp-issue27.txt"));

        assertThat(f.failure()).isEqualTo(Failure.COMPLETION_ERROR);
        assertThat(f.text()).contains("Failed status 12: wr_id 0 syndrom 0x81");
    }

    @Test
    void completionErrorOverSeveralLines() {
        Failed f = failed(Samples.body("perftest/failing_completion-error_status4_syndrom0x51_issue173.txt"));

        assertThat(f.failure()).isEqualTo(Failure.COMPLETION_ERROR);
        assertThat(f.text()).isEqualTo("Completion with error at client; Failed status 4: wr_id 0 syndrom 0x51; "
                + "scnt=828, ccnt=700; Failed to complete run_iter_bw function successfully");
    }

    @Test
    void qpToRtsBeatsTheServersBrokenExchange() {
        // the sample holds the server's stderr (lost exchange) and then the client's (QP could not reach RTS)
        Failed f = failed(Samples.body("perftest/failing_ib_write_bw_-R_modify-qp-rts_issue132.txt"));

        assertThat(f.failure()).isEqualTo(Failure.RDMA_CONNECTION);
        assertThat(f.text()).startsWith("ethernet_read_keys: Couldn't read remote address;")
                .contains("Failed to modify QP to RTS; Unable to Connect the HCA's through the link");
    }

    @Test
    void completionErrorAfterTheHeaderInTheNewWording() {
        // constructed from perftest_resources.h NOTIFY_COMP_ERROR_SEND (releases since 2023 name the status)
        String out = Samples.body("perftest/ib_write_lat_client_rxe_softroce.txt").lines()
                .takeWhile(l -> !l.startsWith(" 64 ")).reduce("", (a, b) -> a + b + "\n")
                + " Completion with error at client\n"
                + " Failed status-transport retry counter exceeded (12): wr_id 0 syndrom 0x81\n"
                + " scnt=1, ccnt=0\nTest exited with Error\n";

        Failed f = failed(out);

        assertThat(f.failure()).isEqualTo(Failure.COMPLETION_ERROR);
        assertThat(f.text()).isEqualTo("Completion with error at client; "
                + "Failed status-transport retry counter exceeded (12): wr_id 0 syndrom 0x81; scnt=1, ccnt=0; "
                + "Test exited with Error");
    }

    @ParameterizedTest
    @ValueSource(strings = {"IB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n",
            "No IB devices found\n", " Did not detect devices \n If device exists, check if driver is up\n"})
    void missingDevice(String stderr) {
        // constructed from perftest's own messages (perftest_parameters.c, write_lat.c)
        assertThat(failed(stderr).failure()).isEqualTo(Failure.DEVICE_MISSING);
    }

    @Test
    void localSetupFailure() {
        // constructed from write_lat.c's messages
        Failed f = failed(" Couldn't get context for the device\n");

        assertThat(f.failure()).isEqualTo(Failure.LOCAL_SETUP);
        assertThat(f.text()).isEqualTo("Couldn't get context for the device");
    }

    @Test
    void oldPerftestWithThreeTimeColumns() {
        // constructed from perftest 2013's RESULT_FMT_LAT / REPORT_FMT_LAT (no t_avg, stdev or percentiles)
        String out = "------------------------------------------------------------------\n"
                + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]\n"
                + " 2       1000          0.91           6.21         0.95   \n"
                + "------------------------------------------------------------------\n";

        Row row = measured(out).row(2).orElseThrow();

        assertThat(row).isEqualTo(new Row(2, 1000, 0.91, 6.21, 0.95, null, null, null, null));
    }

    @Test
    void currentRowFormatWithTabsCrlfAndWarnings() {
        // constructed from the current REPORT_FMT_LAT (tabs between the last columns), CRLF line ends,
        // and warnings before the banner and between header and row
        String out = "libibverbs: Warning: couldn't load driver 'libmana-rdmav34.so': cannot open shared object file\r\n"
                + " Device         : mlx5_0\r\n Link type       : IB\r\n"
                + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                + "   99% percentile[usec]   99.9% percentile[usec] \r\n"
                + "Conflicting CPU frequency values detected: 1500.000000 != 3000.000000. CPU Frequency is not max.\r\n"
                + " 2       1000          1.02           5.71         1.05     \t       1.07        \t0.11   \t\t1.20    \t\t5.71   \r\n"
                + "---------------------------------------------------------------------------------------\r\n";

        Measured m = measured(out);

        assertThat(m.linkType()).contains("IB");
        assertThat(m.rows()).containsExactly(new Row(2, 1000, 1.02, 5.71, 1.05, 1.07, 0.11, 1.20, 5.71));
    }

    @Test
    void nanStatisticsAreAbsentNotZero() {
        // constructed: C's printf writes -nan for an undefined standard deviation
        String out = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]\n"
                + " 2       5          1.10           1.30         1.20          1.20         -nan\n";

        assertThat(measured(out).row(2).orElseThrow().tStdev()).isNull();
    }

    @Test
    void headerWithoutRows() {
        String out = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]\n-----\n";

        assertThat(PerftestLatency.parse(out)).isEqualTo(new Unrecognised("a latency table header without result rows"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   \n\n", "Segmentation fault\n", "#bytes\n1 2 3\n", "\u0000\u0001\u0002",
            " #bytes #iterations t_min[usec]\n x y z\n"})
    void garbageIsUnrecognisedNeverAnException(String text) {
        assertThat(PerftestLatency.parse(text)).isInstanceOf(Unrecognised.class);
    }

    @Test
    void nullIsNoOutput() {
        assertThat(PerftestLatency.parse(null)).isEqualTo(new Unrecognised("no output"));
    }
}
