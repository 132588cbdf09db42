package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.tcp.TcpPingPong;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.ToolResults;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** VerbsLatency's rules on fact records: one recorded ib_write_lat run and what came with it. */
class VerbsLatencyJudgeTest {

    private static final VerbsLatencyCheck CLIENT = VerbsLatencyCheck.client("10.1.16.61", 18515, Duration.ZERO);
    private static final String COMMAND = "ib_write_lat -d rxe0 -i 1 -s 64 -n 5 -F -p 18515 10.1.16.61";

    private static ProbeSpec spec(double maxTypical, boolean comparison) {
        return new ProbeSpec(null, null, null, null, new ProbeSpec.Latency("rxe0", 1, 64, 5, maxTypical, comparison), null);
    }

    private static ToolResult softRoceRun() {
        return ToolResults.printed(COMMAND, Samples.body("perftest/ib_write_lat_client_rxe_softroce.txt"));
    }

    private static CheckResult verdict(VerbsLatencyCheck.Facts facts, ProbeSpec spec) {
        return CLIENT.result(facts, spec);
    }

    @Test
    void recordedSoftRoceLatencyIsAboveAFiveMicrosecondThreshold() {
        CheckResult result = verdict(new VerbsLatencyCheck.Facts(softRoceRun(), 1, Optional.empty(), Optional.empty(),
                Optional.empty()), spec(5, false));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("AboveThreshold");
        assertThat(result.details()).containsEntry("tTypicalMicros", 191.96).containsEntry("connectAttempts", 1);
    }

    @Test
    void theTcpComparisonIsReportedButNeverChangesTheVerdict() {
        VerbsLatencyCheck.Facts facts = new VerbsLatencyCheck.Facts(softRoceRun(), 1, Optional.empty(), Optional.empty(),
                Optional.of(new TcpPingPong.Result(5, 383.92, 400.0)));

        CheckResult result = verdict(facts, spec(500, true));

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).contains("the same pair over TCP: 383.92 µs typical, RDMA is 2× faster");
        assertThat(result.details()).containsEntry("rdmaSpeedup", 2.0);
    }

    @Test
    void recordedCompletionErrorIsTheRdmaPathFailing() {
        ToolResult run = ToolResults.exited(COMMAND, 1, "",
                Samples.body("perftest/failing_completion-error_status4_syndrom0x51_issue173.txt"));

        CheckResult result = verdict(new VerbsLatencyCheck.Facts(run, 1, Optional.empty(), Optional.empty(), Optional.empty()),
                spec(5, false));

        assertThat(result.reason()).isEqualTo("RdmaPathFailed");
    }

    @Test
    void aMissingToolIsFalseBecauseTheSectionRequiresTheMeasurement() {
        CheckResult result = verdict(new VerbsLatencyCheck.Facts(ToolResults.notFound("ib_write_lat"), 1, Optional.empty(),
                Optional.empty(), Optional.empty()), spec(5, false));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("ToolNotFound");
    }
}
