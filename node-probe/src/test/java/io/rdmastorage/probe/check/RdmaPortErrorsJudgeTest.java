package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.check.RdmaPortErrorsCheck.Facts;
import io.rdmastorage.probe.counters.CounterReading;
import io.rdmastorage.probe.counters.PortErrorCounters;
import io.rdmastorage.probe.parse.SysfsCounter;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * RdmaPortErrors' rules on fact records: a port's error counters now against the previous round's
 * reading 15 minutes earlier (the same boot unless a test says otherwise), one rule per test.
 */
class RdmaPortErrorsJudgeTest {

    static final String BOOT = "4c2a7e1d-0f3b-4d5e-9a8b-7c6d5e4f3a2b";
    static final Instant THEN = Instant.parse("2026-05-01T10:00:00Z");
    static final Instant NOW = THEN.plusSeconds(15 * 60);
    static final ProbeSpec SPEC = spec(ProbeSpec.PortErrors.defaults());
    static final RdmaPortErrorsCheck CHECK = new RdmaPortErrorsCheck();

    static ProbeSpec spec(ProbeSpec.PortErrors section) {
        return new ProbeSpec(null, null, null, null, null, null, null, null, null, section);
    }

    /** mlx5's counters/ (legacy registers with their maxima) and hw_counters/, all at {@code v} unless changed. */
    static Map<Counter, CounterReading> mlx5(long v, Map<Counter, Long> changed) {
        Map<Counter, CounterReading> read = new EnumMap<>(Counter.class);
        for (Counter c : Counter.values()) {
            long value = changed.getOrDefault(c, v);
            // hw_counters and carrier_changes are 64-bit; counters/ files are the PMA's legacy registers
            long max = c == Counter.RNR_NAK_RETRY_ERR || c == Counter.LOCAL_ACK_TIMEOUT_ERR || c == Counter.CARRIER_CHANGES
                    ? 0 : SysfsCounter.legacyMaximum(c.wire());
            read.put(c, new CounterReading(value, max, 1));
        }
        return read;
    }

    static Map<String, PortErrorCounters.Port> ports(Object... portAndCounters) {
        Map<String, PortErrorCounters.Port> ports = new LinkedHashMap<>();
        for (int i = 0; i < portAndCounters.length; i += 2) {
            @SuppressWarnings("unchecked")
            Map<Counter, CounterReading> counters = (Map<Counter, CounterReading>) portAndCounters[i + 1];
            ports.put((String) portAndCounters[i], new PortErrorCounters.Port(counters, ""));
        }
        return ports;
    }

    /** The previous round's reading of the same ports, as the operator hands it over. */
    static CounterBaseline baseline(String boot, Map<String, PortErrorCounters.Port> ports) {
        Map<String, List<Long>> values = new LinkedHashMap<>();
        ports.forEach((port, read) -> {
            Map<Counter, Long> v = new EnumMap<>(Counter.class);
            read.counters().forEach((c, r) -> v.put(c, r.raw()));
            values.put(port, CounterBaseline.values(v));
        });
        return new CounterBaseline(boot, THEN, values);
    }

    static Facts facts(Map<String, PortErrorCounters.Port> now, Optional<CounterBaseline> before) {
        return new Facts("/host", true, true, Optional.of(BOOT), NOW, now, before, "");
    }

    static CheckResult judge(Map<String, PortErrorCounters.Port> before, Map<String, PortErrorCounters.Port> now) {
        return CHECK.result(facts(now, Optional.of(baseline(BOOT, before))), SPEC);
    }

    @Test
    void theFirstRoundHasNoRatesYetAndKeepsItsReadingAsTheBaseline() throws Exception {
        var now = ports("mlx5_0/1", mlx5(7, Map.of()));

        CheckResult result = CHECK.result(facts(now, Optional.empty()), SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterBaseline");
        assertThat(result.message()).contains("no reading of a previous round").contains("mlx5_0/1 is the baseline");
        // what the operator keeps and hands to the next round: it reads back as this round's values
        CounterBaseline kept = CounterBaseline.read(io.rdmastorage.contract.json.Json.write(result.details().get("baseline")));
        assertThat(kept.bootId()).isEqualTo(BOOT);
        assertThat(kept.readAt()).isEqualTo(NOW);
        assertThat(kept.value("mlx5_0/1", Counter.SYMBOL_ERROR)).hasValue(7);
    }

    @Test
    void aBaselineTheProbeRefusedIsNoBaselineAndSaysWhy() {
        var now = ports("mlx5_0/1", mlx5(0, Map.of()));
        Facts facts = new Facts("/host", true, true, Optional.of(BOOT), NOW, now, Optional.empty(),
                "counterBaseline.bootId: must be a boot id");

        CheckResult result = CHECK.result(facts, SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterBaseline");
        assertThat(result.message()).contains("was refused (counterBaseline.bootId: must be a boot id)");
    }

    @Test
    void countersThatStoodStillOrGrewWithinTheirRatesAreTrue() {
        var before = ports("mlx5_0/1", mlx5(0, Map.of()), "mlx5_1/1", mlx5(0, Map.of()));
        // 30 symbol errors in 15 min: 120 per hour, the IBTA bound itself, is not above it
        var now = ports("mlx5_0/1", mlx5(0, Map.of()), "mlx5_1/1", mlx5(0, Map.of(Counter.SYMBOL_ERROR, 30L,
                Counter.PORT_RCV_ERRORS, 100L)));

        CheckResult result = judge(before, now);

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("PortErrorsWithinRates");
        assertThat(result.message()).startsWith("mlx5_0/1, mlx5_1/1: the error counters grew within their portErrors rates "
                + "over the 15 min since the previous round (same boot): mlx5_1/1 symbol_error +30, mlx5_1/1 port_rcv_errors +100");
        assertThat(result.details()).containsEntry("sinceSeconds", 900L);
    }

    @Test
    void aLinkThatWentDownBetweenTheRoundsIsFalse() {
        var before = ports("mlx5_0/1", mlx5(0, Map.of(Counter.LINK_DOWNED, 3L)));
        var now = ports("mlx5_0/1", mlx5(0, Map.of(Counter.LINK_DOWNED, 4L)));

        CheckResult result = judge(before, now);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("LinkErrorsBetweenRounds");
        assertThat(result.message()).startsWith("mlx5_0/1: link_downed grew by 1 in the 15 min since the previous round "
                + "(4.0 per hour, above portErrors.maxLinkDownedPerHour 0): the link went down between the rounds");
    }

    @Test
    void everyFatalCounterIsFatalOnAnyIncreaseAndSymbolErrorsAboveTheIbtaBound() {
        Map<Counter, String> reasons = Map.of(Counter.EXCESSIVE_BUFFER_OVERRUN_ERRORS, "LinkErrorsBetweenRounds",
                Counter.LOCAL_LINK_INTEGRITY_ERRORS, "LinkErrorsBetweenRounds", Counter.RNR_NAK_RETRY_ERR, "RnrRetriesExceeded");
        reasons.forEach((counter, reason) -> {
            CheckResult r = judge(ports("mlx5_0/1", mlx5(0, Map.of())), ports("mlx5_0/1", mlx5(0, Map.of(counter, 1L))));
            assertThat(r.status()).as(counter.wire()).isEqualTo(Status.FALSE);
            assertThat(r.reason()).as(counter.wire()).isEqualTo(reason);
        });
        // 31 in 15 min: 124 per hour
        CheckResult symbols = judge(ports("mlx5_0/1", mlx5(0, Map.of())), ports("mlx5_0/1", mlx5(0, Map.of(Counter.SYMBOL_ERROR, 31L))));
        assertThat(symbols.reason()).isEqualTo("LinkErrorsBetweenRounds");
        assertThat(symbols.message()).contains("symbol_error grew by 31").contains("124.0 per hour, above portErrors.maxSymbolErrorsPerHour 120");
    }

    @Test
    void warningCountersAboveTheirRatesAreErrorRateAboveLimit() {
        // two flaps of the RoCE netdev in 15 min: 16 carrier changes an hour, above 2
        CheckResult result = judge(ports("mlx5_0/1", mlx5(0, Map.of(Counter.CARRIER_CHANGES, 6L))),
                ports("mlx5_0/1", mlx5(0, Map.of(Counter.CARRIER_CHANGES, 10L))));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("ErrorRateAboveLimit");
        assertThat(result.message()).contains("carrier_changes grew by 4").contains("16.0 per hour");
    }

    @Test
    void theProfilesRatesAreTheBounds() {
        ProbeSpec lenient = spec(new ProbeSpec.PortErrors(null, 10, null, null, null, null, null, null, null, null, null));
        var before = ports("mlx5_0/1", mlx5(0, Map.of()));
        var now = ports("mlx5_0/1", mlx5(0, Map.of(Counter.LINK_DOWNED, 1L)));

        assertThat(CHECK.result(facts(now, Optional.of(baseline(BOOT, before))), lenient).status()).isEqualTo(Status.TRUE);
        assertThat(judge(before, now).status()).isEqualTo(Status.FALSE);
    }

    @Test
    void aRebootResetsTheBaselineWithoutAVerdictOnCountersThatGrew() {
        var before = ports("mlx5_0/1", mlx5(0, Map.of()));
        var now = ports("mlx5_0/1", mlx5(0, Map.of(Counter.LINK_DOWNED, 2L)));   // the boot's own link-ups

        CheckResult result = CHECK.result(facts(now, Optional.of(baseline("9f8e7d6c-old-boot", before))), SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterBaseline");
        assertThat(result.message()).startsWith("the node rebooted since the previous round (boot id 9f8e7d6c-old-boot then, "
                + BOOT + " now)");
        assertThat(result.details()).containsKey("baseline");
    }

    @Test
    void aCounterLowerThanBeforeWithoutARebootHasNoDeltaButAnotherPortsFaultStillShows() {
        var before = ports("mlx5_0/1", mlx5(0, Map.of(Counter.PORT_RCV_ERRORS, 500L)), "mlx5_1/1", mlx5(0, Map.of()));
        var now = ports("mlx5_0/1", mlx5(0, Map.of(Counter.PORT_RCV_ERRORS, 3L)), "mlx5_1/1",
                mlx5(0, Map.of(Counter.LINK_DOWNED, 1L)));

        CheckResult reset = judge(before, Map.of("mlx5_0/1", now.get("mlx5_0/1")));
        assertThat(reset.status()).isEqualTo(Status.UNKNOWN);
        assertThat(reset.reason()).isEqualTo("NoCounterDelta");
        assertThat(reset.message()).contains("port_rcv_errors has no delta since the previous round: went backwards from 500 "
                + "to 3 (reset or reloaded in between); this round's value is the new baseline");

        CheckResult both = judge(before, now);
        assertThat(both.status()).isEqualTo(Status.FALSE);
        assertThat(both.reason()).isEqualTo("LinkErrorsBetweenRounds");
        assertThat(both.message()).contains("port_rcv_errors no delta");
    }

    @Test
    void aSaturatedLegacyRegisterHasNoDelta() {
        // symbol_error is a 16-bit PortCounters register: it stops at 65535
        CheckResult result = judge(ports("mlx5_0/1", mlx5(0, Map.of(Counter.SYMBOL_ERROR, 65_000L))),
                ports("mlx5_0/1", mlx5(0, Map.of(Counter.SYMBOL_ERROR, 65_535L))));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).contains("symbol_error has no delta since the previous round: at its maximum 65535");
    }

    @Test
    void aPortThatAppearedHasNoBaselineAndOneThatWentHasNoDelta() {
        var before = ports("mlx5_0/1", mlx5(0, Map.of()), "mlx5_1/1", mlx5(0, Map.of()));
        var now = ports("mlx5_0/1", mlx5(0, Map.of()), "mlx5_2/1", mlx5(0, Map.of()));

        CheckResult result = judge(before, now);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).startsWith("mlx5_1/1 was read by the previous round and is gone now").contains("mlx5_2/1 new");
        assertThat(result.details().get("problems").toString()).contains("NoCounterBaseline");
    }

    @Test
    void softRoceRnrRetriesExhaustedIsFatalWhereMlx5CountersAreAbsent() {
        // rxe has hw_counters only: link_downed and retry_rnr_exceeded_err (as rnr_nak_retry_err)
        Map<Counter, CounterReading> before = new EnumMap<>(Map.of(Counter.LINK_DOWNED, CounterReading.of(0),
                Counter.RNR_NAK_RETRY_ERR, CounterReading.of(0)));
        Map<Counter, CounterReading> now = new EnumMap<>(Map.of(Counter.LINK_DOWNED, CounterReading.of(0),
                Counter.RNR_NAK_RETRY_ERR, CounterReading.of(2)));

        CheckResult result = judge(ports("rxe0/1", before), ports("rxe0/1", now));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("RnrRetriesExceeded");
        assertThat(result.message()).startsWith("rxe0/1: rnr_nak_retry_err grew by 2");
    }

    @Test
    void anUnreadableBootIdJudgesNothingAndKeepsNoBaseline() {
        var now = ports("mlx5_0/1", mlx5(0, Map.of()));
        Facts facts = new Facts("/host", true, true, Optional.empty(), NOW, now, Optional.of(baseline(BOOT, now)), "");

        CheckResult result = CHECK.result(facts, SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("NoCounterDelta");
        assertThat(result.message()).contains("boot id");
        assertThat(result.details()).doesNotContainKey("baseline");
    }

    @Test
    void anAbsentProcIsHostViewMissing() {
        Facts facts = new Facts("/host", true, false, Optional.empty(), NOW, Map.of(), Optional.empty(), "");

        CheckResult result = CHECK.result(facts, SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("HostViewMissing");
    }
}
