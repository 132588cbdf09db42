package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class MpstatTest {

    @Test
    void twelveHourClockOneCoreSaturated() {
        Mpstat m = Mpstat.parse(Samples.body("mpstat/mpstat-P-ALL-1_2cpu_12h-AMPM_one-core-saturated.txt")).orElseThrow();

        assertThat(m.cpus()).isEqualTo(2);
        assertThat(m.intervals()).hasSize(2);
        assertThat(m.intervals().get(0).coresBusy()).isCloseTo(1.0, within(1e-9));
        assertThat(m.intervals().get(0).sysPercent()).isZero();
        assertThat(m.average()).isEmpty();
    }

    @Test
    void twentyFourHourClockOnThirtyTwoCpus() {
        Mpstat m = Mpstat.parse(Samples.body("mpstat/mpstat-P-ALL-1-130_32cpu-aarch64_24h-time_fragment.txt")).orElseThrow();

        assertThat(m.cpus()).isEqualTo(32);
        assertThat(m.intervals()).singleElement().satisfies(u -> {
            assertThat(u.coresBusy()).isCloseTo((100 - 99.72) / 100 * 32, within(1e-9));
            assertThat(u.sysPercent()).isEqualTo(0.12);
            assertThat(u.softPercent()).isZero();
        });
    }

    @Test
    void theAverageBlockIsTheSummary() {
        Mpstat m = Mpstat.parse(Samples.body("mpstat/mpstat-P-ALL-1_4cpu_with-Average-block_parser-javadoc.txt")).orElseThrow();

        assertThat(m.cpus()).isEqualTo(4);
        assertThat(m.intervals()).hasSize(1);
        assertThat(m.average()).hasValueSatisfying(u -> {
            assertThat(u.coresBusy()).isCloseTo(0.75 / 100 * 4, within(1e-9));
            assertThat(u.sysPercent()).isEqualTo(0.25);
        });
    }

    @Test
    void agreesWithProcStatOnTheSameInterval() {
        // constructed: the mpstat "all" row the kernel counters of CpuUsageTest give (4 CPUs, 1 s)
        CpuUsage fromProcStat = CpuUsage.between(new ProcStat(1000, 0, 1000, 1000, 1000, 0, 1000, 0, 4),
                new ProcStat(1100, 0, 1060, 1150, 1050, 0, 1040, 0, 4)).orElseThrow();
        String mpstat = """
                Linux 6.1.0-27-amd64 (node) \t12/01/26 \t_x86_64_\t(4 CPU)

                16:00:00     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
                16:00:01     all   25.00    0.00   15.00   12.50    0.00   10.00    0.00    0.00    0.00   37.50
                """;

        CpuUsage fromMpstat = Mpstat.parse(mpstat).orElseThrow().intervals().get(0);

        assertThat(fromMpstat.coresBusy()).isCloseTo(fromProcStat.coresBusy(), within(1e-9));
        assertThat(fromMpstat.softPercent()).isCloseTo(fromProcStat.softPercent(), within(1e-9));
        assertThat(fromMpstat.sysPercent()).isCloseTo(fromProcStat.sysPercent(), within(1e-9));
    }

    @Test
    void garbageGivesNothing() {
        assertThat(Mpstat.parse("")).isEmpty();
        assertThat(Mpstat.parse("16:00:01     all   25.00\n")).isEmpty();
    }
}
