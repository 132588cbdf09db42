package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GdsReady.*;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.parse.NvfsStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * GdsReady's data path: what nvidia-fs itself counted ({@code /proc/driver/nvidia-fs/stats}), which
 * shows whether GDS I/O really went through it. gdscheck shows what could work; these counters show
 * what did. Their failure counters are printed whether or not IO stats are on, and are judged
 * whenever they can be read; that reads and writes were served (and not bounced through compat mode)
 * is judged only with {@code verifyDataPath}, as it needs IO stats on and a workload.
 */
final class GdsDataPath {

    static final String STATS = "/proc/driver/nvidia-fs/stats";
    static final String RW_STATS_PARAM = "/sys/module/nvidia_fs/parameters/rw_stats_enabled";
    private static final String ENABLE_STATS = "`echo 1 > " + RW_STATS_PARAM + "`";
    private static final String CLEAR_STATS = "`echo 1 > " + STATS + "`";

    /**
     * What the host shows of the data path.
     *
     * @param stats          the text of /proc/driver/nvidia-fs/stats; empty when it cannot be read
     * @param rwStatsEnabled the module parameter rw_stats_enabled as read ("0", "1"); empty when unreadable
     */
    record View(Optional<String> stats, Optional<String> rwStatsEnabled) {
        static final View NOT_READ = new View(Optional.empty(), Optional.empty());
    }

    private GdsDataPath() {
    }

    /**
     * Judges the counters into {@code findings}; what they prove goes to {@code passed}.
     *
     * @param procMissing the finding to give when the host's /proc is not visible at all
     */
    static void judge(View view, ProbeSpec.Gds gds, Optional<Finding> procMissing, Details details,
                      List<Finding> findings, List<String> passed) {
        Optional<NvfsStats> parsed = view.stats().flatMap(NvfsStats::parse);
        if (parsed.isEmpty()) {
            if (gds.verifyDataPath()) {
                findings.add(procMissing.orElseGet(() -> Finding.of(Status.UNKNOWN, NVFS_STATS_UNREADABLE,
                        STATS + (view.stats().isPresent() ? " has no nvidia-fs counters the probe can read"
                                : " cannot be read although nvidia_fs is loaded")
                                + ", so whether GDS I/O goes through nvidia-fs cannot be told. Run `cat " + STATS
                                + "` on the node")));
            }
            return;
        }
        NvfsStats stats = parsed.get();
        errors(stats, details, findings);
        if (gds.verifyDataPath()) {
            served(stats, view.rwStatsEnabled(), details, findings, passed);
            if (gds.requireNicGpuSameSwitch()) {
                crossRootPort(stats, details, findings);
            }
        }
    }

    /** Failed GDS I/O, counted since nvidia-fs was loaded or its stats were last cleared. */
    private static void errors(NvfsStats stats, Details details, List<Finding> findings) {
        Map<String, Long> errors = stats.errors();
        if (errors.isEmpty()) {
            return;
        }
        List<String> named = new ArrayList<>();
        errors.forEach((counter, value) -> named.add(counter + "=" + value));
        details.put("nvfsErrors", String.join(", ", named));
        findings.add(Finding.of(Status.FALSE, NVFS_IO_ERRORS,
                "nvidia-fs counted failed GDS I/O in " + STATS + ": " + String.join(", ", named) + " (counted since "
                        + "nvidia_fs was loaded or its stats were last cleared): reads or writes to GPU memory failed in "
                        + "the driver, which cuFile reports as errors or retries through compat mode. Look for nvidia-fs "
                        + "and storage driver errors with `dmesg | grep -i -e nvfs -e nvidia-fs`, fix the cause, clear the "
                        + "counters with " + CLEAR_STATS + " and probe again"));
    }

    /**
     * Whether nvidia-fs served the reads and writes: only counted with IO stats on. Buffers mapped
     * (cuFile registered GPU memory with nvidia-fs) while no read or write was counted is I/O that
     * bypassed it: compat mode.
     */
    private static void served(NvfsStats stats, Optional<String> param, Details details, List<Finding> findings,
                               List<String> passed) {
        Optional<Boolean> counting = stats.ioStatsEnabled();
        Optional<Boolean> parameter = param.map(String::strip).filter(v -> v.matches("\\d+")).map(v -> !v.equals("0"));
        details.put("nvfsIoStats", counting.map(c -> c ? "enabled" : "disabled").orElse("unknown"));
        if (counting.isPresent() && parameter.isPresent() && !counting.equals(parameter)) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE,
                    STATS + " says IO stats are " + (counting.get() ? "enabled" : "disabled") + " but " + RW_STATS_PARAM
                            + " is " + param.get().strip() + ": the setting changed while the probe read them, or they "
                            + "are not the same host's. Run `cat " + RW_STATS_PARAM + " " + STATS + "` on the node and "
                            + "probe again", "nvidia-fs IO stats: the stats and rw_stats_enabled disagree"));
            return;
        }
        if (!counting.orElse(false)) {
            findings.add(Finding.of(Status.UNKNOWN, IO_STATS_DISABLED,
                    "nvidia-fs counts no reads or writes (IO stats disabled" + param.map(p -> ", " + RW_STATS_PARAM + " = "
                            + p.strip()).orElse("") + "), so whether GDS I/O goes through it or falls back to compat mode "
                            + "cannot be told. Enable the counters with " + ENABLE_STATS + " (or load nvidia_fs with "
                            + "rw_stats_enabled=1), run the GDS workload and probe again"));
            return;
        }
        long reads = stats.counter("Reads", "n").orElse(0);
        long writes = stats.counter("Writes", "n").orElse(0);
        long batches = stats.counter("Batches", "n").orElse(0);
        long mapped = stats.counter("Bar1-map", "n").orElse(0);
        long mmaps = stats.counter("Mmap", "n").orElse(0);
        details.put("nvfsIo", "reads " + reads + " (" + stats.counter("Reads", "readMiB").orElse(0) + " MiB), writes "
                + writes + " (" + stats.counter("Writes", "writeMiB").orElse(0) + " MiB), bar1 maps " + mapped);
        if (reads > 0 || writes > 0 || batches > 0) {
            passed.add("nvidia-fs served " + reads + " read(s) (" + stats.counter("Reads", "readMiB").orElse(0) + " MiB) and "
                    + writes + " write(s) (" + stats.counter("Writes", "writeMiB").orElse(0) + " MiB)");
        } else if (mapped > 0 || mmaps > 0) {
            findings.add(Finding.of(Status.FALSE, COMPAT_MODE_IO,
                    "cuFile mapped GPU memory through nvidia-fs (Mmap n=" + mmaps + ", Bar1-map n=" + mapped + " in " + STATS
                            + ") but nvidia-fs served no read or write (Reads n=0, Writes n=0): the I/O went through "
                            + "compat mode (POSIX reads into a bounce buffer) or failed. Check that the file system is "
                            + "served by GDS (`gdscheck -p`) and cuFile's log (cufile.log) for the fallback; if IO stats "
                            + "were enabled only after that I/O ran, clear the counters with " + CLEAR_STATS + ", run the "
                            + "workload again and probe"));
        } else {
            findings.add(Finding.of(Status.UNKNOWN, NO_GDS_IO,
                    "nvidia-fs has seen no cuFile I/O since it was loaded or its stats were cleared (Reads n=0, Writes "
                            + "n=0, Bar1-map n=0 in " + STATS + "): an idle node proves nothing about the data path. Run a "
                            + "GDS workload (e.g. `gdsio -f <file on the storage> -d 0 -w 4 -s 1G -x 0 -I 0`) and probe again"));
        }
    }

    /** nvidia-fs's measured share of each GPU's peer-to-peer DMA through the root complex (peer IO stats). */
    private static void crossRootPort(NvfsStats stats, Details details, List<Finding> findings) {
        List<String> crossing = new ArrayList<>();
        for (NvfsStats.Gpu gpu : stats.gpus()) {
            OptionalLong percent = gpu.crossRootPortPercent();
            if (percent.isPresent() && percent.getAsLong() > 0) {
                crossing.add("GPU " + gpu.address() + " " + percent.getAsLong() + "%");
            }
        }
        if (!crossing.isEmpty()) {
            details.put("crossRootPort", String.join(", ", crossing));
            findings.add(Finding.of(Status.FALSE, CROSS_SWITCH_TOPOLOGY,
                    "nvidia-fs measured GPU peer-to-peer DMA crossing the CPU root complex (cross_root_port(%) in " + STATS
                            + ": " + String.join(", ", crossing) + "): that traffic runs at a fraction of a PCIe switch's "
                            + "bandwidth. Use the NIC under the GPU's own switch (cufile.json rdma_dev_addr_list, "
                            + "`nvidia-smi topo -m` shows PIX or PXB for the pair)"));
        }
    }
}
