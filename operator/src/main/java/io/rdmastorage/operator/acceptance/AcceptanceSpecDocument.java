package io.rdmastorage.operator.acceptance;

import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.contract.spec.SpecDocument;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptanceTransport;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.AcceptanceWorkloadSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import java.time.Duration;
import java.util.List;

/**
 * An acceptance run's spec as node-probe's {@code acceptance} command reads it ({@link AcceptanceSpec}):
 * validated by the contract's rules here too, so a value the CRD schema let through by mistake
 * never reaches the privileged pod. Also what the run takes: its deadline. One of {@code spec}
 * (an NVMe-oF or a path target) and {@code verbs} (the verbs target) is set.
 */
public record AcceptanceSpecDocument(AcceptanceSpec spec, VerbsAcceptanceSpec verbs, String json, Integer timeoutSeconds) {

    /** Per transport: connecting, the namespace scan, fio's start and exit for three workloads. */
    static final Duration PER_TRANSPORT_OVERHEAD = Duration.ofSeconds(60);
    /** Once per run: pulling the image, starting the pod and the JVM. */
    static final Duration START_OVERHEAD = Duration.ofSeconds(120);
    /** The slowest write rate a path run's deadline allows for laying out its file. */
    static final int LAYOUT_MIB_PER_SECOND = 50;
    /** The verbs target's latency workload: a round trip is microseconds; this leaves room for a slow soft-RoCE. */
    static final Duration PER_PING_PONG = Duration.ofMillis(1);

    public static AcceptanceSpecDocument of(RdmaStorageAcceptanceSpec spec) throws InvalidSpecException {
        return of(spec, null);
    }

    /** @param runName the run's name, which names a path run's file (null: no path target allowed) */
    public static AcceptanceSpecDocument of(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException {
        if (spec.getVerbs() != null) {
            return verbs(spec);
        }
        AcceptanceNvmeofTarget t = spec.getNvmeof();
        AcceptancePathTarget p = spec.getPath();
        if (p != null && runName == null) {
            throw new InvalidSpecException("path", "needs the run's name, which names its file");
        }
        List<String> transports = t == null || t.getTransports() == null ? null
                : t.getTransports().stream().map(AcceptanceTransport::value).toList();
        AcceptanceSpec contract = new AcceptanceSpec(
                t == null ? null : new AcceptanceSpec.Nvmeof(t.getNqn(), t.getAddress(), t.getPort(), transports, t.getConnect()),
                p == null ? null : new AcceptanceSpec.Path(p.getDirectory(), p.getFileSizeMiB(), AcceptanceSpec.Path.fileNameFor(runName)),
                run(spec.getLatency()), run(spec.getIops()), run(spec.getBandwidth())).validate();
        // derived from the validated record, defaults applied: node-probe reads the same record back
        return new AcceptanceSpecDocument(contract, null, Json.write(SpecDocument.of(contract)), spec.getTimeoutSeconds());
    }

    /**
     * The verbs target's document ({@link VerbsAcceptanceSpec}: the device, port and lengths; the
     * peer node stays here, node-probe gets its address).
     */
    private static AcceptanceSpecDocument verbs(RdmaStorageAcceptanceSpec spec) throws InvalidSpecException {
        AcceptanceVerbsTarget t = spec.getVerbs();
        if (t.getPeerNode() == null || !Rules.isNodeName(t.getPeerNode()) || t.getPeerNode().equals(spec.getNodeName())) {
            throw new InvalidSpecException("verbs.peerNode", "must be a node name other than nodeName");
        }
        VerbsAcceptanceSpec contract = new VerbsAcceptanceSpec(new VerbsAcceptanceSpec.Verbs(t.getDevice(), t.getPort(),
                t.getIterations(), t.getDurationSeconds())).validate();
        return new AcceptanceSpecDocument(null, contract, Json.write(SpecDocument.of(contract)), spec.getTimeoutSeconds());
    }

    /** Whether this is the verbs target's run (two pods), not an NVMe-oF target's. */
    public boolean isVerbs() {
        return verbs != null;
    }

    /**
     * How long the whole run may take: spec.timeoutSeconds, else every workload on every transport
     * plus the overheads (the verbs target: a generous {@link #PER_PING_PONG} per latency ping-pong;
     * a path run: laying out its file too).
     */
    public Duration deadline() {
        if (timeoutSeconds != null) {
            return Duration.ofSeconds(timeoutSeconds);
        }
        if (verbs != null) {
            Duration perTransport = PER_PING_PONG.multipliedBy(verbs.verbs().iterations())
                    .plusSeconds(verbs.verbs().durationSeconds()).plus(PER_TRANSPORT_OVERHEAD);
            return perTransport.multipliedBy(2).plus(START_OVERHEAD);
        }
        Duration workloads = Duration.ZERO;
        for (Workload w : Workload.values()) {
            workloads = workloads.plusSeconds(spec.run(w).durationSeconds());
        }
        if (spec.path() != null) {
            return workloads.plus(PER_TRANSPORT_OVERHEAD).plus(layout(spec.path())).plus(START_OVERHEAD);
        }
        return workloads.plus(PER_TRANSPORT_OVERHEAD).multipliedBy(spec.nvmeof().transports().size()).plus(START_OVERHEAD);
    }

    /** Writing a path run's file, at no less than {@value #LAYOUT_MIB_PER_SECOND} MiB/s. */
    static Duration layout(AcceptanceSpec.Path path) {
        return Duration.ofSeconds((path.fileSizeMiB() + LAYOUT_MIB_PER_SECOND - 1) / LAYOUT_MIB_PER_SECOND);
    }

    /** What the run measures, for its conditions: the transports of the NVMe-oF target, the verbs device, or the directory. */
    public String what() {
        if (verbs != null) {
            return "rdma then tcp from " + verbs.verbs().device() + " port " + verbs.verbs().port();
        }
        return spec.path() != null
                ? spec.path().directory() + " (over the transport its file system uses; one file of " + spec.path().fileSizeMiB()
                        + " MiB, " + spec.path().fileName() + ", written there and removed afterwards)"
                : String.join(" then ", spec.nvmeof().transports()) + " of " + spec.nvmeof().target();
    }

    private static AcceptanceSpec.Run run(AcceptanceWorkloadSpec w) {
        return w == null ? null : new AcceptanceSpec.Run(w.getDurationSeconds(), w.getJobs(), w.getIodepth());
    }
}
