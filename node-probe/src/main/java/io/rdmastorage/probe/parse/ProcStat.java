package io.rdmastorage.probe.parse;

import java.util.Optional;

/**
 * The host's CPU time so far, from the {@code cpu} lines of {@code /proc/stat}: the aggregate line
 * ({@code cpu  user nice system idle iowait irq softirq steal guest guest_nice}, in USER_HZ ticks)
 * and how many {@code cpuN} lines follow (the CPUs online). Two of them, taken before and after a
 * run, give {@link CpuUsage#between}. Kernels before 2.6.11 print fewer columns; the missing ones
 * count as 0.
 */
public record ProcStat(long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal,
                       int cpus) {

    private ProcStat() {
        this(0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** All ticks, guest time excluded: the kernel already counts it in user and nice. */
    public long total() {
        return user + nice + system + idle + iowait + irq + softirq + steal;
    }

    /** The snapshot, or empty when there is no aggregate cpu line with at least four numbers. */
    public static Optional<ProcStat> parse(String text) {
        long[] fields = null;
        int cpus = 0;
        for (String line : text.split("\n")) {
            String[] tokens = line.strip().split("\\s+");
            if (tokens[0].equals("cpu")) {
                fields = new long[8];
                for (int i = 1; i < tokens.length && i <= 8; i++) {
                    if (!tokens[i].matches("[0-9]{1,19}")) {
                        return Optional.empty();
                    }
                    fields[i - 1] = Long.parseLong(tokens[i]);
                }
                if (tokens.length < 5) {
                    return Optional.empty();
                }
            } else if (tokens[0].matches("cpu[0-9]+")) {
                cpus++;
            }
        }
        if (fields == null || cpus == 0) {
            return Optional.empty();
        }
        return Optional.of(new ProcStat(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6],
                fields[7], cpus));
    }
}
