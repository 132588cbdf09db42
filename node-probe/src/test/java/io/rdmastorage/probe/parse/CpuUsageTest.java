package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class CpuUsageTest {

    private static ProcStat stat(String sample) {
        return ProcStat.parse(Samples.body(sample)).orElseThrow();
    }

    @Test
    void aRealPairOneSecondApartOnABusyTwoCpuHost() {
        ProcStat before = stat("proc/stat_2cpu_pair-1s_before.txt");
        ProcStat after = stat("proc/stat_2cpu_pair-1s_after.txt");

        assertThat(before).isEqualTo(new ProcStat(1063002, 12160, 166806, 574536, 13246, 0, 4840, 2165, 2));
        CpuUsage usage = CpuUsage.between(before, after).orElseThrow();

        // 198 ticks passed (2 CPUs x 1 s at USER_HZ 100, less scheduling slack), 3 of them idle
        assertThat(usage.cpus()).isEqualTo(2);
        assertThat(usage.coresBusy()).isCloseTo(2.0 * 195 / 198, within(1e-9));
        assertThat(usage.sysPercent()).isCloseTo(100.0 * 52 / 198, within(1e-9));
        assertThat(usage.softPercent()).isZero();
    }

    @Test
    void softirqAndIowaitAreTold() {
        // constructed: 4 CPUs for 1 s (400 ticks): 100 user, 60 system, 40 softirq, 50 iowait, 150 idle
        ProcStat before = new ProcStat(1000, 0, 1000, 1000, 1000, 0, 1000, 0, 4);
        ProcStat after = new ProcStat(1100, 0, 1060, 1150, 1050, 0, 1040, 0, 4);

        CpuUsage usage = CpuUsage.between(before, after).orElseThrow();

        assertThat(usage.coresBusy()).isCloseTo(4 * 200.0 / 400, within(1e-9));
        assertThat(usage.softPercent()).isCloseTo(10.0, within(1e-9));
        assertThat(usage.sysPercent()).isCloseTo(15.0, within(1e-9));
    }

    @Test
    void noTimeOrACounterGoingBackwardsGivesNoDelta() {
        ProcStat before = stat("proc/stat_2cpu_pair-1s_before.txt");
        ProcStat after = stat("proc/stat_2cpu_pair-1s_after.txt");

        assertThat(CpuUsage.between(before, before)).isEmpty();
        assertThat(CpuUsage.between(after, before)).isEmpty();
        ProcStat oneCpuLess = new ProcStat(after.user(), after.nice(), after.system(), after.idle(), after.iowait(),
                after.irq(), after.softirq(), after.steal(), 1);
        assertThat(CpuUsage.between(before, oneCpuLess)).as("a CPU went offline").isEmpty();
    }

    @Test
    void oldKernelsPrintFewerColumns() {
        assertThat(ProcStat.parse("cpu  10 0 5 100\ncpu0 10 0 5 100\n"))
                .contains(new ProcStat(10, 0, 5, 100, 0, 0, 0, 0, 1));
    }

    @Test
    void garbageGivesNothing() {
        assertThat(ProcStat.parse("")).isEmpty();
        assertThat(ProcStat.parse("cpu  10 x 5 100\ncpu0 10 0 5 100\n")).isEmpty();
        assertThat(ProcStat.parse("cpu  10 0\ncpu0 10 0\n")).isEmpty();
        assertThat(ProcStat.parse("cpu  10 0 5 100\n")).as("no per-CPU line").isEmpty();
    }
}
