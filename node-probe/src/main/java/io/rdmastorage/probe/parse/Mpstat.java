package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mpstat -P ALL INTERVAL [COUNT]} (sysstat): the {@code all} row of each interval and of
 * the closing {@code Average:} block, as {@link CpuUsage}; a second source for the CPU numbers
 * that the acceptance run takes from {@code /proc/stat}, for a site that records mpstat beside it.
 *
 * <p>Columns are found by the header row of each block ({@code %usr %nice %sys %iowait %irq %soft
 * %steal %guest %gnice %idle}), because sysstat releases add columns; the time in front of them
 * is one token in a 24-hour locale ({@code 08:21:40}), two in a 12-hour one ({@code 09:13:15 PM}),
 * and {@code Average:} in the summary. The CPU count comes from the banner's {@code (N CPU)}.
 */
public record Mpstat(int cpus, List<CpuUsage> intervals, Optional<CpuUsage> average) {

    private static final Pattern BANNER_CPUS = Pattern.compile("\\((\\d{1,5}) CPU\\)");

    public Mpstat {
        intervals = List.copyOf(intervals);
    }

    /** Empty when there is no banner with a CPU count or no {@code all} row under a header. */
    public static Optional<Mpstat> parse(String text) {
        int cpus = 0;
        List<String> header = null;
        List<CpuUsage> intervals = new ArrayList<>();
        CpuUsage average = null;
        for (String line : text.split("\n")) {
            Matcher banner = BANNER_CPUS.matcher(line);
            if (cpus == 0 && line.startsWith("Linux ") && banner.find()) {
                cpus = Integer.parseInt(banner.group(1));
                continue;
            }
            List<String> tokens = List.of(line.strip().split("\\s+"));
            if (tokens.contains("CPU") && tokens.contains("%idle")) {
                header = tokens;
                continue;
            }
            int cpuColumn = header == null ? -1 : header.indexOf("CPU");
            if (cpus == 0 || cpuColumn < 0 || tokens.size() != header.size() || !tokens.get(cpuColumn).equals("all")) {
                continue;
            }
            Optional<CpuUsage> usage = usage(header, tokens, cpus);
            if (usage.isEmpty()) {
                continue;
            }
            if (tokens.get(0).equals("Average:")) {
                average = usage.get();
            } else {
                intervals.add(usage.get());
            }
        }
        if (intervals.isEmpty() && average == null) {
            return Optional.empty();
        }
        return Optional.of(new Mpstat(cpus, intervals, Optional.ofNullable(average)));
    }

    private static Optional<CpuUsage> usage(List<String> header, List<String> row, int cpus) {
        Double idle = percent(header, row, "%idle");
        Double soft = percent(header, row, "%soft");
        Double sys = percent(header, row, "%sys");
        if (idle == null || soft == null || sys == null) {
            return Optional.empty();
        }
        double iowait = orZero(percent(header, row, "%iowait"));
        double steal = orZero(percent(header, row, "%steal"));
        return Optional.of(new CpuUsage((100.0 - idle - iowait - steal) / 100.0 * cpus, soft, sys, cpus));
    }

    private static Double percent(List<String> header, List<String> row, String column) {
        int i = header.indexOf(column);
        if (i < 0) {
            return null;
        }
        try {
            return Double.parseDouble(row.get(i));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static double orZero(Double value) {
        return value == null ? 0 : value;
    }
}
