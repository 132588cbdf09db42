package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.acceptance.Workload;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What one acceptance run measures: its target (an NVMe-oF subsystem and the transports to compare
 * on it, or a file-system directory measured over whatever transport its file system uses), and
 * the three read-only workloads ({@link Workload}). Field names are those of the RdmaStorageAcceptance
 * spec; the operator writes this document from it and node-probe's {@code acceptance} command reads
 * it. Defaults are applied here, once; {@link #validate()} holds every rule, and the CRD's schema
 * states the same bounds.
 */
public record AcceptanceSpec(Nvmeof nvmeof, Path path, Run latency, Run iops, Run bandwidth) {

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
        int targets = (nvmeof != null ? 1 : 0) + (path != null ? 1 : 0);
        if (targets == 0) {
            throw new InvalidSpecException("nvmeof", "is required: the target to measure (or path: a directory)");
        }
        if (targets > 1) {
            throw new InvalidSpecException("spec", "names " + targets + " targets; give exactly one (nvmeof or path)");
        }
        if (nvmeof != null) {
            nvmeof.validate();
        } else {
            path.validate();
        }
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
     * A directory on a file system (GPFS, NFS, ...), measured over whatever transport the file system
     * uses now: the run lays out one file of its own there ({@code fileName}, derived from the run's
     * name by {@link #fileNameFor}, {@code fileSizeMiB} large), reads it with the read-only workloads,
     * and removes it; an existing file of that name is refused, never overwritten.
     */
    public record Path(String directory, Integer fileSizeMiB, String fileName) {

        public static final int MIN_FILE_SIZE_MIB = 16;
        public static final int MAX_FILE_SIZE_MIB = 65536;
        /** Large enough that the file system's and the servers' caches do not hold all of it. */
        public static final int DEFAULT_FILE_SIZE_MIB = 4096;
        static final String FILE_PREFIX = "rdmastorage-acceptance-";
        static final String FILE_SUFFIX = ".fio";
        /** A run's name is a DNS subdomain of at most 63 characters: the name never starts with a dot, has no slash. */
        static final Pattern FILE_NAME = Pattern.compile(
                "^" + FILE_PREFIX + "[a-z0-9]([a-z0-9.-]{0,62})\\" + FILE_SUFFIX + "$");

        public Path {
            fileSizeMiB = fileSizeMiB == null ? DEFAULT_FILE_SIZE_MIB : fileSizeMiB;
        }

        /** {@code rdmastorage-acceptance-<run>.fio}. */
        public static String fileNameFor(String run) {
            return FILE_PREFIX + run + FILE_SUFFIX;
        }

        /** The file's path on the host: the directory, a slash, the file's name. */
        public String file() {
            return (directory.endsWith("/") ? directory : directory + "/") + fileName;
        }

        void validate() throws InvalidSpecException {
            SpecValidator.required("path.directory", directory);
            if (!Rules.isAcceptanceDirectory(directory)) {
                throw new InvalidSpecException("path.directory", Rules.show(directory) + " must be an absolute directory of "
                        + "letters, digits and ._@+- (no .. or white space, at most " + Rules.ACCEPTANCE_DIRECTORY_MAX_LENGTH
                        + " characters), not under /proc, /sys or /dev");
            }
            SpecValidator.range("path.fileSizeMiB", fileSizeMiB, MIN_FILE_SIZE_MIB, MAX_FILE_SIZE_MIB);
            SpecValidator.required("path.fileName", fileName);
            if (!FILE_NAME.matcher(fileName).matches()) {
                throw new InvalidSpecException("path.fileName", Rules.show(fileName) + " must be " + FILE_PREFIX
                        + "<run name>" + FILE_SUFFIX);
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
