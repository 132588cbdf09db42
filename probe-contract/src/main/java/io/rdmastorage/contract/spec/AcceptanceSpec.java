package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.acceptance.Workload;
import java.util.List;

/**
 * What one acceptance run measures: the NVMe-oF target, the transports to compare on it, and the
 * three read-only workloads ({@link Workload}). Field names are those of the RdmaStorageAcceptance
 * spec; the operator writes this document from it and node-probe's {@code acceptance} command reads
 * it. Defaults are applied here, once; {@link #validate()} holds every rule, and the CRD's schema
 * states the same bounds.
 */
public record AcceptanceSpec(Nvmeof nvmeof, Run latency, Run iops, Run bandwidth) {

    public static final List<String> TRANSPORTS = List.of("rdma", "tcp");
    public static final int MIN_DURATION_SECONDS = 5;
    public static final int MAX_DURATION_SECONDS = 300;
    public static final int DEFAULT_DURATION_SECONDS = 30;
    public static final int MAX_JOBS = 64;
    public static final int MAX_IODEPTH = 256;

    public AcceptanceSpec {
        latency = (latency == null ? new Run(null, null, null) : latency).withDefaults(Workload.LATENCY);
        iops = (iops == null ? new Run(null, null, null) : iops).withDefaults(Workload.IOPS);
        bandwidth = (bandwidth == null ? new Run(null, null, null) : bandwidth).withDefaults(Workload.BANDWIDTH);
    }

    /** The run of one workload, in the order they are measured. */
    public Run run(Workload workload) {
        return switch (workload) {
            case LATENCY -> latency;
            case IOPS -> iops;
            case BANDWIDTH -> bandwidth;
        };
    }

    public AcceptanceSpec validate() throws InvalidSpecException {
        if (nvmeof == null) {
            throw new InvalidSpecException("nvmeof", "is required: the target to measure");
        }
        nvmeof.validate();
        for (Workload w : Workload.values()) {
            run(w).validate(w);
        }
        return this;
    }

    /**
     * An NVMe-oF subsystem measured over each of {@code transports}. {@code connect}: connect a
     * transport that has no live controller yet (and disconnect it afterwards); false measures only
     * controllers that are already connected.
     */
    public record Nvmeof(String nqn, String address, Integer port, List<String> transports, Boolean connect) {
        public Nvmeof {
            port = port == null ? ProbeSpec.Target.DEFAULT_PORT : port;
            transports = transports == null || transports.isEmpty() ? TRANSPORTS : List.copyOf(transports);
            connect = connect != null && connect;
        }

        public ProbeSpec.Target target() {
            return new ProbeSpec.Target(nqn, address, port);
        }

        void validate() throws InvalidSpecException {
            target().validate("nvmeof");
            SpecValidator.eachMatches("nvmeof.transports", transports, TRANSPORTS::contains, "must be rdma or tcp");
            if (transports.stream().distinct().count() != transports.size()) {
                throw new InvalidSpecException("nvmeof.transports", transports + " names a transport twice");
            }
        }
    }

    /**
     * How long one workload runs and at what concurrency; the latency workload is always one job at
     * depth 1 (that is what "small-I/O latency" means), so only its duration can be set.
     */
    public record Run(Integer durationSeconds, Integer jobs, Integer iodepth) {

        Run withDefaults(Workload w) {
            return new Run(durationSeconds == null ? DEFAULT_DURATION_SECONDS : durationSeconds,
                    jobs == null ? w.defaultJobs() : jobs, iodepth == null ? w.defaultIodepth() : iodepth);
        }

        void validate(Workload w) throws InvalidSpecException {
            String field = w.field();
            SpecValidator.range(field + ".durationSeconds", durationSeconds, MIN_DURATION_SECONDS, MAX_DURATION_SECONDS);
            if (w == Workload.LATENCY && (jobs != 1 || iodepth != 1)) {
                throw new InvalidSpecException(field, "runs one job at iodepth 1; only durationSeconds can be set");
            }
            SpecValidator.range(field + ".jobs", jobs, 1, MAX_JOBS);
            SpecValidator.range(field + ".iodepth", iodepth, 1, MAX_IODEPTH);
        }
    }
}
