package io.rdmastorage.contract.acceptance;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The three read-only workloads of an acceptance run, measured in this order, and the one fio
 * command line each is (node-probe runs it; the operator's record shows it). Only the transport
 * changes between two runs of a workload; the command is the same.
 *
 * <p>Read-only by construction: {@code --readonly} makes fio refuse any write, {@code rw} is
 * randread or read, {@code --direct=1} bypasses the page cache so the fabric carries every I/O.
 */
public enum Workload {
    /** Small-I/O latency: 4 KiB random reads, one at a time. The criterion. */
    LATENCY("latency", "randread", "4k", 4096, 1, 1),
    /** 4 KiB random reads at depth: IOPS and what they cost in CPU. The criterion's second half. */
    IOPS("iops", "randread", "4k", 4096, 16, 32),
    /** 1 MiB sequential reads: bandwidth, a reference value (TCP reaches line rate too). */
    BANDWIDTH("bandwidth", "read", "1M", 1024 * 1024, 1, 16);

    private final String field;
    private final String rw;
    private final String blockSize;
    private final int blockBytes;
    private final int defaultJobs;
    private final int defaultIodepth;

    Workload(String field, String rw, String blockSize, int blockBytes, int defaultJobs, int defaultIodepth) {
        this.field = field;
        this.rw = rw;
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
        this.defaultJobs = defaultJobs;
        this.defaultIodepth = defaultIodepth;
    }

    /** Its field in the spec and in the result document. */
    public String field() {
        return field;
    }

    /**
     * The I/O buffers fio holds for this workload: one block per I/O in flight, of every job
     * ({@code --direct=1} buffers are fio's own memory, counted against the pod's limit).
     */
    public long bufferBytes(AcceptanceSpec.Run run) {
        return (long) blockBytes * run.jobs() * run.iodepth();
    }

    public int defaultJobs() {
        return defaultJobs;
    }

    public int defaultIodepth() {
        return defaultIodepth;
    }

    /** fio's arguments (after the program name) for this workload on {@code device}. */
    public List<String> fioArguments(AcceptanceSpec.Run run, String device) {
        List<String> args = new ArrayList<>(List.of(
                "--name=" + field,
                "--filename=" + device,
                "--readonly",
                "--direct=1",
                "--rw=" + rw,
                "--bs=" + blockSize,
                "--ioengine=libaio",
                "--iodepth=" + run.iodepth(),
                "--numjobs=" + run.jobs(),
                "--time_based",
                "--runtime=" + run.durationSeconds() + "s",
                "--group_reporting",
                "--output-format=json"));
        if (this != BANDWIDTH) {
            // random reads over the whole device, not the first blocks the target may have cached
            args.add("--randrepeat=0");
        }
        return List.copyOf(args);
    }

    /** The command as a person would type it, for the record: {@code fio --name=latency ...}. */
    public String fioCommandLine(AcceptanceSpec.Run run, String device) {
        return "fio " + String.join(" ", fioArguments(run, device));
    }
}
