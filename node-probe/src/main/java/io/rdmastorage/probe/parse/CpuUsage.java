package io.rdmastorage.probe.parse;

import java.util.Optional;

/**
 * The host's CPU use over one interval: how many cores were busy on average (all CPU time but
 * idle, iowait and steal), and the shares of softirq and system time in percent of all CPUs (as
 * mpstat's {@code all} row prints them). The same record from two sources: {@code /proc/stat}
 * snapshots around a run ({@link #between}) and mpstat's output ({@link Mpstat}).
 */
public record CpuUsage(double coresBusy, double softPercent, double sysPercent, int cpus) {

    /**
     * From two snapshots, {@code before} taken first. Empty when no time passed or a counter went
     * backwards (another boot, a CPU taken offline between the reads): no delta, rather than a wrong one.
     */
    public static Optional<CpuUsage> between(ProcStat before, ProcStat after) {
        long total = after.total() - before.total();
        long idle = (after.idle() - before.idle()) + (after.iowait() - before.iowait()) + (after.steal() - before.steal());
        long[] deltas = {after.user() - before.user(), after.nice() - before.nice(), after.system() - before.system(),
                after.idle() - before.idle(), after.iowait() - before.iowait(), after.irq() - before.irq(),
                after.softirq() - before.softirq(), after.steal() - before.steal()};
        for (long d : deltas) {
            if (d < 0) {
                return Optional.empty();
            }
        }
        if (total <= 0 || before.cpus() != after.cpus()) {
            return Optional.empty();
        }
        int cpus = after.cpus();
        return Optional.of(new CpuUsage((double) (total - idle) / total * cpus,
                100.0 * (after.softirq() - before.softirq()) / total,
                100.0 * (after.system() - before.system()) / total, cpus));
    }
}
