package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.testing.CounterSamples;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.Ttar;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RdmaPortErrors on fixture hosts, two rounds apart, each round's baseline the previous round's
 * details as the operator hands them over. Recorded: mlx5_0 port 1's {@code counters/} and
 * {@code hw_counters/} (prometheus/procfs's sysfs snapshot) and soft-RoCE rxe0's {@code hw_counters/}
 * before and after a read over NVMe/RDMA (this project's VM). Constructed: the boot id, the RoCE
 * netdev's {@code carrier_changes}, and the link_downed / symbol_error values of the later rounds.
 */
class RdmaPortErrorsCheckTest {

    static final String MLX5_SAMPLE = "counters/sysfs-infiniband-counters-and-hw_counters_mlx5_0_procfs-fixture.txt";
    static final String RECORDED_PORT = "fixtures/sys/class/infiniband/mlx5_0/ports/1/";
    static final String MLX5 = "/sys/class/infiniband/mlx5_0/ports/1/";
    static final String RXE = "/sys/class/infiniband/rxe0/ports/1/";
    static final String BOOT = "/proc/sys/kernel/random/boot_id";
    static final Instant ROUND_1 = Instant.parse("2026-05-01T10:00:00Z");
    static final Instant ROUND_2 = ROUND_1.plus(Duration.ofMinutes(15));

    @TempDir
    Path dir;

    private FixtureHost mlx5Host() {
        FixtureHost host = FixtureHost.at(dir.resolve("mlx5"))
                .file("/proc/1/status", "Name:\tinit\n")
                .file(BOOT, "4c2a7e1d-0f3b-4d5e-9a8b-7c6d5e4f3a2b\n")
                .file(MLX5 + "state", "4: ACTIVE\n")
                .file(MLX5 + "link_layer", "InfiniBand\n");
        Ttar.files(Samples.body(MLX5_SAMPLE)).forEach((path, content) -> {
            if (path.startsWith(RECORDED_PORT)) {
                host.file(MLX5 + path.substring(RECORDED_PORT.length()), content);
            }
        });
        return host;
    }

    private static CheckResult run(FixtureHost fixture, Instant at, Optional<String> baseline) throws Exception {
        HostRoot host = new HostRoot(fixture.root());
        ToolRunner tools = new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        return new RdmaPortErrorsCheck().run(new ProbeContext(host, tools, SpecReader.read("{\"portErrors\":{}}"), false,
                "gpu-01", at, baseline));
    }

    /** What the operator hands the next probe pod: the baseline of this round's details. */
    private static Optional<String> handedOver(CheckResult round) {
        return Optional.of(Json.write(round.details().get("baseline")));
    }

    @Test
    void theRecordedMlx5PortIsBaselinedThenJudgedAndALinkDownBetweenRoundsIsFalse() throws Exception {
        FixtureHost host = mlx5Host();

        CheckResult first = run(host, ROUND_1, Optional.empty());
        assertThat(first.status()).isEqualTo(Status.UNKNOWN);
        assertThat(first.reason()).isEqualTo("NoCounterBaseline");
        CounterBaseline kept = CounterBaseline.read(handedOver(first).get());
        // the recorded port: its PMA error counters at 0, mlx5's hw_counters without rnr_nak_retry_err
        assertThat(kept.value("mlx5_0/1", Counter.LINK_DOWNED)).hasValue(0);
        assertThat(kept.value("mlx5_0/1", Counter.SYMBOL_ERROR)).hasValue(0);

        CheckResult quiet = run(host, ROUND_2, handedOver(first));
        assertThat(quiet.status()).isEqualTo(Status.TRUE);
        assertThat(quiet.reason()).isEqualTo("PortErrorsWithinRates");

        host.file(MLX5 + "counters/link_downed", "1\n");
        CheckResult flapped = run(host, ROUND_2.plus(Duration.ofMinutes(15)), handedOver(quiet));
        assertThat(flapped.status()).isEqualTo(Status.FALSE);
        assertThat(flapped.reason()).isEqualTo("LinkErrorsBetweenRounds");
        assertThat(flapped.message()).startsWith("mlx5_0/1: link_downed grew by 1 in the 15 min since the previous round");
    }

    @Test
    void aSymbolErrorRegisterStuckAtItsMaximumHasNoDeltaInEitherRound() throws Exception {
        FixtureHost host = mlx5Host();
        CheckResult first = run(host, ROUND_1, Optional.empty());
        host.file(MLX5 + "counters/symbol_error", "65535\n");

        CheckResult saturated = run(host, ROUND_2, handedOver(first));
        assertThat(saturated.status()).isEqualTo(Status.UNKNOWN);
        assertThat(saturated.reason()).isEqualTo("NoCounterDelta");
        assertThat(saturated.message()).contains("symbol_error has no delta since the previous round: at its maximum 65535");

        CheckResult still = run(host, ROUND_2.plus(Duration.ofMinutes(15)), handedOver(saturated));
        assertThat(still.reason()).isEqualTo("NoCounterDelta");
    }

    @Test
    void aNewBootIdResetsTheBaseline() throws Exception {
        FixtureHost host = mlx5Host();
        CheckResult first = run(host, ROUND_1, Optional.empty());
        host.file(BOOT, "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6\n").file(MLX5 + "counters/link_downed", "1\n");

        CheckResult rebooted = run(host, ROUND_2, handedOver(first));

        assertThat(rebooted.status()).isEqualTo(Status.UNKNOWN);
        assertThat(rebooted.reason()).isEqualTo("NoCounterBaseline");
        assertThat(rebooted.message()).startsWith("the node rebooted since the previous round");
        // the next round compares with the new boot's reading
        host.file(MLX5 + "counters/link_downed", "2\n");
        assertThat(run(host, ROUND_2.plus(Duration.ofMinutes(15)), handedOver(rebooted)).reason())
                .isEqualTo("LinkErrorsBetweenRounds");
    }

    @Test
    void softRoceHwCountersAcrossTheRecordedReadStayWithinRatesAndItsNetdevFlapIsCounted() throws Exception {
        FixtureHost host = FixtureHost.at(dir.resolve("rxe"))
                .file("/proc/1/status", "Name:\tinit\n")
                .file(BOOT, "4c2a7e1d-0f3b-4d5e-9a8b-7c6d5e4f3a2b\n")
                .file(RXE + "state", "4: ACTIVE\n")
                .file(RXE + "link_layer", "Ethernet\n")
                .file(RXE + "gid_attrs/ndevs/0", "veth0\n")
                .file("/sys/class/net/veth0/mtu", "1500\n")
                .file("/sys/class/net/veth0/carrier_changes", "2\n");
        CounterSamples.rxe0(false).forEach((name, value) -> host.file(RXE + "hw_counters/" + name, value + "\n"));
        CheckResult first = run(host, ROUND_1, Optional.empty());
        assertThat(CounterBaseline.read(handedOver(first).get()).value("rxe0/1", Counter.RNR_NAK_RETRY_ERR)).hasValue(0);

        CounterSamples.rxe0(true).forEach((name, value) -> host.file(RXE + "hw_counters/" + name, value + "\n"));
        CheckResult read = run(host, ROUND_2, handedOver(first));
        assertThat(read.status()).isEqualTo(Status.TRUE);
        assertThat(read.message()).contains("none of them at all");

        host.file("/sys/class/net/veth0/carrier_changes", "6\n");   // two flaps: down, up, down, up
        CheckResult flapped = run(host, ROUND_2.plus(Duration.ofMinutes(15)), handedOver(read));
        assertThat(flapped.status()).isEqualTo(Status.FALSE);
        assertThat(flapped.reason()).isEqualTo("ErrorRateAboveLimit");
        assertThat(flapped.message()).startsWith("rxe0/1: carrier_changes grew by 4");
    }
}
