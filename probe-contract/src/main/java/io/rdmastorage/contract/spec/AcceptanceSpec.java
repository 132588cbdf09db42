package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.acceptance.Workload;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one acceptance run measures: its target (an NVMe-oF subsystem and the transports to compare
 * on it, or a file-system directory measured over whatever transport its file system uses), the
 * three read-only workloads ({@link Workload}), and which RDMA devices are the storage rails whose
 * counters prove the transport ({@code storageNics}; every RDMA device when absent). Field names are those of the RdmaStorageAcceptance
 * spec; the operator writes this document from it and node-probe's {@code acceptance} command reads
 * it. Defaults are applied here, once; {@link #validate()} holds every rule, and the CRD's schema
 * states the same bounds.
 */
public record AcceptanceSpec(Nvmeof nvmeof, Path path, Run latency, Run iops, Run bandwidth, StorageNics storageNics,
                             Bounds bounds) {

    public static final List<String> TRANSPORTS = List.of("rdma", "tcp");
    public static final int MIN_DURATION_SECONDS = 5;
    public static final int MAX_DURATION_SECONDS = 300;
    public static final int DEFAULT_DURATION_SECONDS = 30;
    public static final int MAX_JOBS = 64;
    public static final int MAX_IODEPTH = 256;
    /**
     * Most fio I/O buffers one workload may hold (jobs × iodepth × block size): half the acceptance
     * pod's 1 GiB memory limit, the rest for fio itself and node-probe's JVM. Beyond it the pod is
     * OOM-killed in the middle of a run.
     */
    public static final long MAX_BUFFER_MIB = 512;
    /** The NVMe-oF discovery subsystem: a discovery controller carries no namespace to measure. */
    public static final String DISCOVERY_NQN = "nqn.2014-08.org.nvmexpress.discovery";

    /** Without the admin's bounds: a document written by hand for a run on the node itself. */
    public AcceptanceSpec(Nvmeof nvmeof, Path path, Run latency, Run iops, Run bandwidth) {
        this(nvmeof, path, latency, iops, bandwidth, null, null);
    }

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
        if (storageNics != null) {
            storageNics.validate("storageNics");
        }
        if (bounds != null) {
            bounds.validate();
            Optional<String> outside = bounds.refusal(this);
            if (outside.isPresent()) {
                throw new InvalidSpecException("bounds", outside.get());
            }
        }
        return this;
    }

    /** This spec within the admin's {@code bounds}, which node-probe checks again on the node. */
    public AcceptanceSpec withBounds(Bounds bounds) {
        return new AcceptanceSpec(nvmeof, path, latency, iops, bandwidth, storageNics, bounds);
    }

    /** The three workloads' durations, one after the other, on one transport. */
    public int workloadSeconds() {
        int seconds = 0;
        for (Workload w : Workload.values()) {
            seconds += run(w).durationSeconds();
        }
        return seconds;
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
            // never a target, whatever a profile or the admin names: no namespace there, or the node itself
            if (DISCOVERY_NQN.equals(nqn)) {
                throw new InvalidSpecException("nvmeof.nqn", DISCOVERY_NQN + " is the discovery subsystem, which has no "
                        + "namespace to measure; name the subsystem itself");
            }
            Optional<String> never = AddressRange.neverAllowed(address);
            if (never.isPresent()) {
                throw new InvalidSpecException("nvmeof.address", never.get() + ": never an acceptance target");
            }
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
            long buffers = w.bufferBytes(this);
            if (buffers > MAX_BUFFER_MIB * 1024 * 1024) {
                throw new InvalidSpecException(field, "jobs × iodepth × block size is " + buffers / (1024 * 1024)
                        + " MiB of fio buffers, more than the " + MAX_BUFFER_MIB + " MiB the acceptance pod's memory "
                        + "limit leaves for them; lower jobs or iodepth");
            }
        }
    }

    /**
     * Where the cluster admin lets acceptance runs act (the operator's configuration, from the
     * chart's {@code acceptance} values), written by the operator into the pod's document so that
     * node-probe checks them again on the node. Absent in a document written by hand on the node.
     *
     * @param pathPrefixes       directories a path run may write under; empty: the path target is off
     * @param nvmeofAddresses    the admin's addresses and CIDR ranges a run with {@code connect: true}
     *                           may connect to, each with the port it may use there or any
     *                           ({@link AddressBound})
     * @param nvmeofTargets      the NVMe-oF targets the profiles name, whole (NQN, address and port):
     *                           a run may connect to exactly these too
     * @param maxFileSizeMiB     the largest file a path run may lay out
     * @param maxDurationSeconds the longest a run may take
     */
    public record Bounds(List<String> pathPrefixes, List<String> nvmeofAddresses, List<ProbeSpec.Target> nvmeofTargets,
                         Integer maxFileSizeMiB, Integer maxDurationSeconds) {

        public Bounds {
            pathPrefixes = pathPrefixes == null ? List.of() : List.copyOf(pathPrefixes);
            nvmeofAddresses = nvmeofAddresses == null ? List.of() : List.copyOf(nvmeofAddresses);
            nvmeofTargets = nvmeofTargets == null ? List.of() : List.copyOf(nvmeofTargets);
        }

        void validate() throws InvalidSpecException {
            SpecValidator.eachMatches("bounds.pathPrefixes", pathPrefixes, Rules::isAcceptanceDirectory,
                    "must be an absolute directory, as path.directory");
            for (String address : nvmeofAddresses) {
                AddressBound.parse("bounds.nvmeofAddresses", address);
            }
            for (int i = 0; i < nvmeofTargets.size(); i++) {
                nvmeofTargets.get(i).validate("bounds.nvmeofTargets[" + i + "]");
            }
            if (maxFileSizeMiB == null || maxDurationSeconds == null) {
                throw new InvalidSpecException("bounds", "needs maxFileSizeMiB and maxDurationSeconds");
            }
        }

        /** Whether a run may connect to {@code target}: a profile names it whole, or an admin's entry allows its address and port. */
        public boolean allows(ProbeSpec.Target target) {
            boolean profiles = nvmeofTargets.stream().anyMatch(t -> t.nqn().equals(target.nqn()) && t.port().equals(target.port())
                    && sameAddress(t.address(), target.address()));
            return profiles || nvmeofAddresses.stream().anyMatch(entry -> {
                try {
                    return AddressBound.parse("bounds.nvmeofAddresses", entry).allows(target.address(), target.port());
                } catch (InvalidSpecException e) {
                    return false;   // validate() refused it already
                }
            });
        }

        /** The same IP address, however it is written (an IPv6 literal has many forms). */
        private static boolean sameAddress(String a, String b) {
            try {
                return AddressRange.parse("address", a).contains(b);
            } catch (InvalidSpecException e) {
                return false;
            }
        }

        /**
         * Why {@code spec} is outside these bounds, naming the admin's setting; empty when it is
         * inside. The run's node and its deadline are the operator's to check; the workloads' own
         * time on every transport is checked here, where node-probe can check it too.
         */
        public Optional<String> refusal(AcceptanceSpec spec) {
            if (spec.path() != null) {
                Path path = spec.path();
                if (pathPrefixes.isEmpty()) {
                    return Optional.of("the path target is off: the cluster admin has named no directory in "
                            + "acceptance.pathPrefixes (the operator's Helm values)");
                }
                if (pathPrefixes.stream().noneMatch(prefix -> under(path.directory(), prefix))) {
                    return Optional.of("path.directory " + path.directory() + " is under none of the directories "
                            + "the cluster admin allows in acceptance.pathPrefixes: " + String.join(", ", pathPrefixes));
                }
                if (path.fileSizeMiB() > maxFileSizeMiB) {
                    return Optional.of("path.fileSizeMiB " + path.fileSizeMiB() + " is above acceptance.maxFileSizeMiB "
                            + maxFileSizeMiB);
                }
            }
            if (spec.nvmeof() != null && spec.nvmeof().connect() && !allows(spec.nvmeof().target())) {
                return Optional.of("nvmeof target " + spec.nvmeof().target() + " is named by no profile's nvmeof targets "
                        + "(the same NQN, address and port) and not in acceptance.nvmeofAddresses (its address, and its "
                        + "port where the entry gives one); with connect: true a run connects only there");
            }
            int transports = spec.nvmeof() == null ? 1 : spec.nvmeof().transports().size();
            int seconds = spec.workloadSeconds() * transports;
            if (seconds > maxDurationSeconds) {
                return Optional.of("the workloads take " + seconds + " s, more than acceptance.maxDurationSeconds "
                        + maxDurationSeconds);
            }
            return Optional.empty();
        }

        /** Whether {@code directory} is {@code prefix} or below it, by whole path components. */
        static boolean under(String directory, String prefix) {
            String d = directory.endsWith("/") ? directory : directory + "/";
            String p = prefix.endsWith("/") ? prefix : prefix + "/";
            return d.startsWith(p);
        }
    }
}
