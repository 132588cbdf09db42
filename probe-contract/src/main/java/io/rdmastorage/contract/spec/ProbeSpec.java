package io.rdmastorage.contract.spec;

import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/**
 * The check part of an RdmaStorageProfile's spec: field names are those of the profile. Each
 * section is optional; an absent section is not checked. Defaults are applied here, once.
 *
 * <p>The records are the spec model: node-probe's SpecReader reads a document by their components
 * (names, types, order), and the operator writes the document of a profile by them. A section's
 * rules live in its {@link Section#validate()}. The component name of a section is the
 * {@code section} of its check's descriptor.
 */
public record ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce,
                        Traffic traffic, Nfs nfs, PortErrors portErrors, Lustre lustre, Beegfs beegfs) {

    /** Filesystem names of gdscheck's "FILESYSTEM and DRIVER CONFIGURATION" rows. */
    public static final List<String> GDS_FILESYSTEMS =
            List.of("nvme", "nvmeof", "scsi", "gpfs", "nfs", "lustre", "beegfs", "wekafs");

    private static final List<RecordComponent> SECTIONS = List.of(ProbeSpec.class.getRecordComponents());

    /** One check section: a record whose components are the section's fields. */
    public interface Section {
        /** Checks every value before any of it is used; the first broken rule wins. */
        void validate() throws InvalidSpecException;
    }

    /**
     * {@code minMtu}: the smallest acceptable RDMA path MTU (one of {@link Rules#IB_MTUS}); on RoCE
     * the netdev MTU must also carry it with the RoCE headers. {@code minRate}: the slowest
     * acceptable port rate as sysfs writes it ("400 Gb/sec"). Both absent = not checked.
     * {@code kernelLogWindow}: how far back the host's kernel log is searched for mlx5 fault
     * signatures (default 15m, the profile's default interval: "since the previous round").
     * {@code storageNics}: which devices carry storage ({@link StorageNics}); when given, the checks
     * judge those and leave the node's other RDMA devices (compute NICs) out. Absent: every device.
     */
    public record Rdma(List<String> devices, Boolean userspaceVerbs, Integer minMtu, String minRate,
                       String kernelLogWindow, StorageNics storageNics) implements Section {
        /**
         * How far back the host's kernel log is searched for mlx5 fault signatures: the profile's
         * default interval, so a probe round sees what the log gained since the round before.
         */
        public static final String DEFAULT_KERNEL_LOG_WINDOW = "15m";
        public static final java.time.Duration MIN_KERNEL_LOG_WINDOW = java.time.Duration.ofSeconds(1);
        public static final java.time.Duration MAX_KERNEL_LOG_WINDOW = java.time.Duration.ofDays(1);

        public Rdma {
            devices = devices == null ? List.of() : List.copyOf(devices);
            userspaceVerbs = userspaceVerbs != null && userspaceVerbs;
            kernelLogWindow = kernelLogWindow == null ? DEFAULT_KERNEL_LOG_WINDOW : kernelLogWindow;
        }

        /** Without storage NICs: every RDMA device carries storage. */
        public Rdma(List<String> devices, Boolean userspaceVerbs, Integer minMtu, String minRate, String kernelLogWindow) {
            this(devices, userspaceVerbs, minMtu, minRate, kernelLogWindow, null);
        }

        /** Without the kernel-log window: its default. */
        public Rdma(List<String> devices, Boolean userspaceVerbs, Integer minMtu, String minRate) {
            this(devices, userspaceVerbs, minMtu, minRate, null);
        }

        /** Without the link expectations: the section as it was before minMtu and minRate existed. */
        public Rdma(List<String> devices, Boolean userspaceVerbs) {
            this(devices, userspaceVerbs, null, null);
        }

        public List<DevicePort> devicePorts() {
            return devices.stream().map(DevicePort::parse).toList();
        }

        /** The kernel-log window as a duration; only for a validated section. */
        public java.time.Duration kernelLogWindowDuration() {
            return Rules.windowDuration(kernelLogWindow)
                    .orElseThrow(() -> new IllegalStateException("unvalidated kernelLogWindow " + kernelLogWindow));
        }

        /** minRate in Gb/s; empty when not required. */
        public java.util.OptionalDouble minRateGbps() {
            return minRate == null ? java.util.OptionalDouble.empty() : Rules.linkRateGbps(minRate);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.devicePorts("rdma.devices", devices);
            for (int i = 0; i < devices.size(); i++) {
                SpecValidator.portInRange("rdma.devices[" + i + "]", DevicePort.parse(devices.get(i)).port());
            }
            if (minMtu != null && !Rules.IB_MTUS.contains(minMtu)) {
                throw new InvalidSpecException("rdma.minMtu", minMtu + " must be one of 256, 512, 1024, 2048, 4096");
            }
            if (minRate != null && !Rules.LINK_RATE.matcher(minRate).matches()) {
                throw new InvalidSpecException("rdma.minRate", Rules.show(minRate) + " must be a rate as sysfs writes it, "
                        + "such as 400 Gb/sec");
            }
            java.util.Optional<java.time.Duration> w = Rules.windowDuration(kernelLogWindow);
            if (w.isEmpty() || w.get().compareTo(MIN_KERNEL_LOG_WINDOW) < 0 || w.get().compareTo(MAX_KERNEL_LOG_WINDOW) > 0) {
                throw new InvalidSpecException("rdma.kernelLogWindow", Rules.show(kernelLogWindow) + " must be a duration "
                        + "from 1s to 1440m such as 15m, 90s or 1440m");
            }
            if (storageNics != null) {
                storageNics.validate();
            }
        }
    }

    public record Gpfs(List<String> verbsPorts, List<String> requiredPeers, Boolean requireVerbsRdmaSend,
                       String minPagepool) implements Section {
        public Gpfs {
            verbsPorts = verbsPorts == null ? List.of() : List.copyOf(verbsPorts);
            requiredPeers = requiredPeers == null ? List.of() : List.copyOf(requiredPeers);
            requireVerbsRdmaSend = requireVerbsRdmaSend != null && requireVerbsRdmaSend;
        }

        /** Minimum pagepool in bytes, or 0 when not required. */
        public long minPagepoolBytes() {
            return minPagepool == null ? 0 : ByteQuantity.parse(minPagepool).orElse(0L);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.devicePorts("gpfs.verbsPorts", verbsPorts);
            SpecValidator.eachMatches("gpfs.requiredPeers", requiredPeers, v -> Rules.isNodeName(v) || Rules.isIpAddress(v),
                    "must be a GPFS node name or IP address");
            if (minPagepool != null && ByteQuantity.parse(minPagepool).filter(b -> b > 0).isEmpty()) {
                throw new InvalidSpecException("gpfs.minPagepool",
                        Rules.show(minPagepool) + " must be a positive size such as 16Gi or 512Mi");
            }
        }
    }

    public record Nvmeof(List<Target> targets) implements Section {
        public Nvmeof {
            targets = targets == null ? List.of() : List.copyOf(targets);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.bounded("nvmeof.targets", targets);
            for (int i = 0; i < targets.size(); i++) {
                targets.get(i).validate("nvmeof.targets[" + i + "]");
            }
        }
    }

    /** An NVMe-oF subsystem that must be connected over RDMA; 4420 is the IANA NVMe-oF port. */
    public record Target(String nqn, String address, Integer port) {
        public static final int DEFAULT_PORT = 4420;

        public Target {
            port = port == null ? DEFAULT_PORT : port;
        }

        void validate(String field) throws InvalidSpecException {
            SpecValidator.required(field + ".nqn", nqn);
            if (!Rules.isNqn(nqn)) {
                throw new InvalidSpecException(field + ".nqn", Rules.show(nqn)
                        + " must be an NVMe Qualified Name such as nqn.2014-08.org.example:target1 (at most 223 characters)");
            }
            SpecValidator.required(field + ".address", address);
            if (!Rules.isIpAddress(address)) {
                throw new InvalidSpecException(field + ".address", Rules.show(address)
                        + " must be an IPv4 or IPv6 address (the controller's traddr)");
            }
            if (port < 1 || port > 65535) {
                throw new InvalidSpecException(field + ".port", port + " must be between 1 and 65535");
            }
        }

        @Override
        public String toString() {
            return nqn + " at " + address + ":" + port;
        }
    }

    /**
     * {@code requireUserspaceRdma}: cuFile's own RDMA path (libcufile_rdma, the devices of cufile.json's
     * {@code rdma_dev_addr_list}, used by distributed file systems) must be loaded, configured and up.
     * {@code verifyDataPath}: nvidia-fs's counters must show GDS I/O really served by it (IO stats
     * enabled, reads or writes counted, not compat mode).
     */
    public record Gds(List<String> filesystems, Boolean requireIommuDisabled, Boolean requireNicGpuSameSwitch,
                      Boolean forbidCompatMode, Boolean requireUserspaceRdma, Boolean verifyDataPath) implements Section {
        public Gds {
            filesystems = filesystems == null ? List.of() : List.copyOf(filesystems);
            // GDS with the IOMMU on bounces through host memory: required unless said otherwise
            requireIommuDisabled = requireIommuDisabled == null || requireIommuDisabled;
            requireNicGpuSameSwitch = requireNicGpuSameSwitch != null && requireNicGpuSameSwitch;
            forbidCompatMode = forbidCompatMode != null && forbidCompatMode;
            requireUserspaceRdma = requireUserspaceRdma != null && requireUserspaceRdma;
            verifyDataPath = verifyDataPath != null && verifyDataPath;
        }

        /** Without the RDMA backend and the data path: the section as it was before those fields existed. */
        public Gds(List<String> filesystems, Boolean requireIommuDisabled, Boolean requireNicGpuSameSwitch,
                   Boolean forbidCompatMode) {
            this(filesystems, requireIommuDisabled, requireNicGpuSameSwitch, forbidCompatMode, null, null);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.eachMatches("gds.filesystems", filesystems, GDS_FILESYSTEMS::contains,
                    "must be one of " + String.join(", ", GDS_FILESYSTEMS));
        }
    }

    /**
     * perftest ib_write_lat parameters; defaults are perftest's own except the iteration count.
     * {@code transportComparison}: also time a plain TCP ping-pong over the same pair, to show what
     * RDMA gains (off by default; it never changes the verdict).
     */
    public record Latency(String device, Integer port, Integer size, Integer iterations, Double maxTypicalMicros,
                          Boolean transportComparison) implements Section {
        /* The ranges of validate(); the operator's CRD schema states the same constants. */
        public static final int MIN_SIZE = 1;
        public static final int MAX_SIZE = 8 * 1024 * 1024;
        public static final int MIN_ITERATIONS = 5;
        public static final int MAX_ITERATIONS = 10_000_000;
        public static final int MAX_TYPICAL_MICROS = 1_000_000;

        public Latency {
            port = port == null ? 1 : port;
            size = size == null ? 2 : size;
            iterations = iterations == null ? 1000 : iterations;
            maxTypicalMicros = maxTypicalMicros == null ? 5.0 : maxTypicalMicros;
            transportComparison = transportComparison != null && transportComparison;
        }

        /** Without the transport comparison: the section as it was before that field existed. */
        public Latency(String device, Integer port, Integer size, Integer iterations, Double maxTypicalMicros) {
            this(device, port, size, iterations, maxTypicalMicros, null);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.required("latency.device", device);
            if (!Rules.DEVICE.matcher(device).matches()) {
                throw new InvalidSpecException("latency.device", Rules.show(device) + " must be an RDMA device name such as mlx5_0");
            }
            SpecValidator.portInRange("latency.port", port);
            SpecValidator.range("latency.size", size, MIN_SIZE, MAX_SIZE);
            SpecValidator.range("latency.iterations", iterations, MIN_ITERATIONS, MAX_ITERATIONS);
            if (!(maxTypicalMicros > 0 && maxTypicalMicros <= MAX_TYPICAL_MICROS)) {
                throw new InvalidSpecException("latency.maxTypicalMicros", maxTypicalMicros + " must be > 0 and ≤ 1000000");
            }
            // transportComparison is a plain switch: any boolean will do
        }
    }

    /** Present = inspect /etc/ceph/ceph.conf; it has no settings. */
    public record Ceph() implements Section {
        @Override
        public void validate() {
        }
    }

    /**
     * The lossless traffic class of RoCE storage traffic: the DSCP storage traffic carries, the
     * priority it must land in (PFC on, ECN on), the ports to judge ({@code mlx5_0/1};
     * every Ethernet RDMA port when empty) and further priorities whose PFC may be
     * on (others must be off).
     */
    public record Roce(Integer dscp, Integer priority, List<String> devices, List<Integer> pfcPriorities) implements Section {
        /* The ranges of validate(); the operator's CRD schema states the same constants. */
        public static final int MAX_DSCP = 63;
        public static final int MAX_PRIORITY = 7;

        public Roce {
            devices = devices == null ? List.of() : List.copyOf(devices);
            pfcPriorities = pfcPriorities == null ? List.of() : List.copyOf(pfcPriorities);
        }

        public List<DevicePort> devicePorts() {
            return devices.stream().map(DevicePort::parse).toList();
        }

        /** The ToS byte whose DSCP is the storage DSCP: DSCP &lt;&lt; 2 (the two low bits are ECN's). */
        public int tos() {
            return dscp << 2;
        }

        @Override
        public void validate() throws InvalidSpecException {
            if (dscp == null) {
                throw new InvalidSpecException("roce.dscp", "is required (the DSCP of the storage traffic, 0–63, e.g. 26)");
            }
            SpecValidator.range("roce.dscp", dscp, 0, MAX_DSCP);
            if (priority == null) {
                throw new InvalidSpecException("roce.priority", "is required (the lossless priority, 0–7, e.g. 3)");
            }
            SpecValidator.range("roce.priority", priority, 0, MAX_PRIORITY);
            SpecValidator.devicePorts("roce.devices", devices);
            for (int i = 0; i < devices.size(); i++) {
                SpecValidator.portInRange("roce.devices[" + i + "]", DevicePort.parse(devices.get(i)).port());
            }
            SpecValidator.bounded("roce.pfcPriorities", pfcPriorities);
            for (int i = 0; i < pfcPriorities.size(); i++) {
                SpecValidator.range("roce.pfcPriorities[" + i + "]", pfcPriorities.get(i), 0, MAX_PRIORITY);
            }
        }
    }

    /**
     * Which transport carried the storage bytes, from counters read twice {@code window} apart
     * ({@code 10s}, 1s–60s; the operator adds it to the probe pod's deadline). {@code devices}: the
     * RDMA ports to sample ({@code mlx5_0/1}; every port when empty). A port carried storage traffic
     * when its packets per second reached {@code minRdmaPacketsPerSecond} (every RDMA counter source
     * counts packets; soft-RoCE counts nothing else); a TCP storage peer may move
     * {@code maxTcpBytesPerSecond} (control traffic). {@code priority}: the lossless priority RoCE
     * bytes must ride (not judged when absent). Fabric errors: an error counter may grow by
     * {@code maxErrorCount} over the window, congestion signals (ECN marks, CNPs, pause frames)
     * reach {@code maxCongestionPerSecond}. Rails: each storage client's RDMA rails (its own
     * configuration's ports) must each carry at least {@code minRailSharePercent} of the bytes the
     * client's rails moved (0: only a rail that moved nothing while its siblings moved is idle).
     */
    public record Traffic(String window, List<String> devices, Integer maxTcpBytesPerSecond, Integer minRdmaPacketsPerSecond,
                          Integer priority, Integer maxErrorCount, Integer maxCongestionPerSecond, Integer minRailSharePercent)
            implements Section {
        /* The defaults and ranges of validate(); the operator's CRD schema states the same constants. */
        public static final String DEFAULT_WINDOW = "10s";
        public static final java.time.Duration MIN_WINDOW = java.time.Duration.ofSeconds(1);
        public static final java.time.Duration MAX_WINDOW = java.time.Duration.ofSeconds(60);
        /** 1 MiB/s: GPFS leases and tokens, NVMe keep-alives and NFS getattrs stay far below it. */
        public static final int DEFAULT_MAX_TCP_BYTES_PER_SECOND = 1024 * 1024;
        /** NVMe keep-alives and GPFS verbs control messages stay below it; storage I/O is far above. */
        public static final int DEFAULT_MIN_RDMA_PACKETS_PER_SECOND = 100;
        public static final int DEFAULT_MAX_ERROR_COUNT = 0;
        public static final int DEFAULT_MAX_CONGESTION_PER_SECOND = 10_000;
        public static final int MAX_PRIORITY = 7;
        public static final int DEFAULT_MIN_RAIL_SHARE_PERCENT = 0;
        /** Above it, two rails could not both reach their share: the ceiling of an even split of two. */
        public static final int MAX_MIN_RAIL_SHARE_PERCENT = 50;

        /** Without the rail share (the form before it existed). */
        public Traffic(String window, List<String> devices, Integer maxTcpBytesPerSecond, Integer minRdmaPacketsPerSecond,
                       Integer priority, Integer maxErrorCount, Integer maxCongestionPerSecond) {
            this(window, devices, maxTcpBytesPerSecond, minRdmaPacketsPerSecond, priority, maxErrorCount, maxCongestionPerSecond,
                    null);
        }

        public Traffic {
            window = window == null ? DEFAULT_WINDOW : window;
            devices = devices == null ? List.of() : List.copyOf(devices);
            maxTcpBytesPerSecond = maxTcpBytesPerSecond == null ? DEFAULT_MAX_TCP_BYTES_PER_SECOND : maxTcpBytesPerSecond;
            minRdmaPacketsPerSecond = minRdmaPacketsPerSecond == null ? DEFAULT_MIN_RDMA_PACKETS_PER_SECOND : minRdmaPacketsPerSecond;
            maxErrorCount = maxErrorCount == null ? DEFAULT_MAX_ERROR_COUNT : maxErrorCount;
            maxCongestionPerSecond = maxCongestionPerSecond == null ? DEFAULT_MAX_CONGESTION_PER_SECOND : maxCongestionPerSecond;
            minRailSharePercent = minRailSharePercent == null ? DEFAULT_MIN_RAIL_SHARE_PERCENT : minRailSharePercent;
        }

        public List<DevicePort> devicePorts() {
            return devices.stream().map(DevicePort::parse).toList();
        }

        /** The window as a duration; only for a validated section. */
        public java.time.Duration windowDuration() {
            return Rules.windowDuration(window).orElseThrow(() -> new IllegalStateException("unvalidated window " + window));
        }

        @Override
        public void validate() throws InvalidSpecException {
            java.util.Optional<java.time.Duration> w = Rules.windowDuration(window);
            if (w.isEmpty() || w.get().compareTo(MIN_WINDOW) < 0 || w.get().compareTo(MAX_WINDOW) > 0) {
                throw new InvalidSpecException("traffic.window", Rules.show(window) + " must be a duration from 1s to 60s "
                        + "such as 10s, 1500ms or 1m");
            }
            SpecValidator.devicePorts("traffic.devices", devices);
            for (int i = 0; i < devices.size(); i++) {
                SpecValidator.portInRange("traffic.devices[" + i + "]", DevicePort.parse(devices.get(i)).port());
            }
            SpecValidator.range("traffic.maxTcpBytesPerSecond", maxTcpBytesPerSecond, 0, Integer.MAX_VALUE);
            SpecValidator.range("traffic.minRdmaPacketsPerSecond", minRdmaPacketsPerSecond, 1, Integer.MAX_VALUE);
            if (priority != null) {
                SpecValidator.range("traffic.priority", priority, 0, MAX_PRIORITY);
            }
            SpecValidator.range("traffic.maxErrorCount", maxErrorCount, 0, Integer.MAX_VALUE);
            SpecValidator.range("traffic.maxCongestionPerSecond", maxCongestionPerSecond, 0, Integer.MAX_VALUE);
            SpecValidator.range("traffic.minRailSharePercent", minRailSharePercent, 0, MAX_MIN_RAIL_SHARE_PERCENT);
        }
    }

    /**
     * NFS mounts, by mount point, that must use the rdma transport (port 20049 by convention); empty =
     * every NFS mount the node has.
     */
    public record Nfs(List<String> mounts) implements Section {
        public Nfs {
            mounts = mounts == null ? List.of() : List.copyOf(mounts);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.eachMatches("nfs.mounts", mounts, Rules::isMountPoint,
                    "must be an absolute mount point such as /mnt/data (letters, digits, ._@+- ; no trailing slash, "
                            + "no segment starting with a dot; at most " + Rules.MOUNT_POINT_MAX_LENGTH + " characters)");
            for (int i = 0; i < mounts.size(); i++) {
                if (mounts.indexOf(mounts.get(i)) < i) {
                    throw new InvalidSpecException("nfs.mounts[" + i + "]", Rules.show(mounts.get(i)) + " is listed twice");
                }
            }
        }
    }

    /**
     * Error counters between two rounds (RdmaPortErrors): the rate per hour each may grow at, from
     * the previous round's reading to this one's, on {@code devices} (empty = every RDMA port). A
     * field per {@link io.rdmastorage.contract.checks.RdmaPortErrors.Counter}, named by its
     * {@code field()}, defaulting to its {@code defaultPerHour()}.
     */
    public record PortErrors(List<String> devices, Integer maxLinkDownedPerHour, Integer maxBufferOverrunErrorsPerHour,
                             Integer maxLinkIntegrityErrorsPerHour, Integer maxSymbolErrorsPerHour,
                             Integer maxRnrRetriesExceededPerHour, Integer maxLinkErrorRecoveriesPerHour,
                             Integer maxReceiveErrorsPerHour, Integer maxAckTimeoutsPerHour, Integer maxTransmitDiscardsPerHour,
                             Integer maxCarrierChangesPerHour) implements Section {

        public PortErrors {
            devices = devices == null ? List.of() : List.copyOf(devices);
            maxLinkDownedPerHour = orDefault(maxLinkDownedPerHour, Counter.LINK_DOWNED);
            maxBufferOverrunErrorsPerHour = orDefault(maxBufferOverrunErrorsPerHour, Counter.EXCESSIVE_BUFFER_OVERRUN_ERRORS);
            maxLinkIntegrityErrorsPerHour = orDefault(maxLinkIntegrityErrorsPerHour, Counter.LOCAL_LINK_INTEGRITY_ERRORS);
            maxSymbolErrorsPerHour = orDefault(maxSymbolErrorsPerHour, Counter.SYMBOL_ERROR);
            maxRnrRetriesExceededPerHour = orDefault(maxRnrRetriesExceededPerHour, Counter.RNR_NAK_RETRY_ERR);
            maxLinkErrorRecoveriesPerHour = orDefault(maxLinkErrorRecoveriesPerHour, Counter.LINK_ERROR_RECOVERY);
            maxReceiveErrorsPerHour = orDefault(maxReceiveErrorsPerHour, Counter.PORT_RCV_ERRORS);
            maxAckTimeoutsPerHour = orDefault(maxAckTimeoutsPerHour, Counter.LOCAL_ACK_TIMEOUT_ERR);
            maxTransmitDiscardsPerHour = orDefault(maxTransmitDiscardsPerHour, Counter.PORT_XMIT_DISCARDS);
            maxCarrierChangesPerHour = orDefault(maxCarrierChangesPerHour, Counter.CARRIER_CHANGES);
        }

        /** Every rate at its default, on every port. */
        public static PortErrors defaults() {
            return new PortErrors(null, null, null, null, null, null, null, null, null, null, null);
        }

        private static Integer orDefault(Integer value, Counter counter) {
            return value == null ? counter.defaultPerHour() : value;
        }

        public List<DevicePort> devicePorts() {
            return devices.stream().map(DevicePort::parse).toList();
        }

        /** The bound of {@code counter}'s rate, per hour. */
        public int maxPerHour(Counter counter) {
            return switch (counter) {
                case LINK_DOWNED -> maxLinkDownedPerHour;
                case EXCESSIVE_BUFFER_OVERRUN_ERRORS -> maxBufferOverrunErrorsPerHour;
                case LOCAL_LINK_INTEGRITY_ERRORS -> maxLinkIntegrityErrorsPerHour;
                case SYMBOL_ERROR -> maxSymbolErrorsPerHour;
                case RNR_NAK_RETRY_ERR -> maxRnrRetriesExceededPerHour;
                case LINK_ERROR_RECOVERY -> maxLinkErrorRecoveriesPerHour;
                case PORT_RCV_ERRORS -> maxReceiveErrorsPerHour;
                case LOCAL_ACK_TIMEOUT_ERR -> maxAckTimeoutsPerHour;
                case PORT_XMIT_DISCARDS -> maxTransmitDiscardsPerHour;
                case CARRIER_CHANGES -> maxCarrierChangesPerHour;
            };
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.devicePorts("portErrors.devices", devices);
            for (int i = 0; i < devices.size(); i++) {
                SpecValidator.portInRange("portErrors.devices[" + i + "]", DevicePort.parse(devices.get(i)).port());
            }
            for (Counter c : Counter.values()) {
                SpecValidator.range("portErrors." + c.field(), maxPerHour(c), 0, Integer.MAX_VALUE);
            }
        }
    }

    /**
     * Lustre over LNet o2ib (LustreLnet): {@code mounts}, the Lustre mount points that must reach their
     * servers over o2ib (empty = every Lustre mount of the node); {@code networks}, the o2ib LNet
     * networks that must be up (empty = the o2ib networks the mounts name); {@code minHealthValue},
     * the lowest acceptable LNet health value of an o2ib NI (LNet's best is 1000, and any failure
     * lowers it).
     */
    public record Lustre(List<String> mounts, List<String> networks, Integer minHealthValue, Integer tcpPort) implements Section {
        /** LNet's health value when nothing has failed (lnet_health_sensitivity lowers it on each failure). */
        public static final int FULL_HEALTH = 1000;
        /** LNet's socklnd acceptor port (the lnet accept_port option): where a Lustre client's TCP traffic goes. */
        public static final int DEFAULT_TCP_PORT = 988;

        public Lustre {
            mounts = mounts == null ? List.of() : List.copyOf(mounts);
            networks = networks == null ? List.of() : List.copyOf(networks);
            minHealthValue = minHealthValue == null ? FULL_HEALTH : minHealthValue;
            tcpPort = tcpPort == null ? DEFAULT_TCP_PORT : tcpPort;
        }

        /** Without tcpPort: the section as it was before the data path counted LNet's sockets. */
        public Lustre(List<String> mounts, List<String> networks, Integer minHealthValue) {
            this(mounts, networks, minHealthValue, null);
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.eachMatches("lustre.mounts", mounts, Rules::isMountPoint,
                    "must be an absolute mount point such as /mnt/lustre (letters, digits, ._@+- ; no trailing slash, "
                            + "no segment starting with a dot; at most " + Rules.MOUNT_POINT_MAX_LENGTH + " characters)");
            SpecValidator.eachMatches("lustre.networks", networks, v -> Rules.O2IB_NETWORK.matcher(v).matches(),
                    "must be an o2ib LNet network: o2ib, o2ib1, ... (the RDMA networks; a tcp network is not RDMA)");
            SpecValidator.range("lustre.minHealthValue", minHealthValue, 0, FULL_HEALTH);
            SpecValidator.range("lustre.tcpPort", tcpPort, 1, Rules.MAX_TCP_PORT);
        }
    }

    /**
     * BeeGFS over RDMA (BeegfsRdma): {@code mounts}, the BeeGFS mount points whose clients must reach
     * their storage and metadata servers over RDMA (empty = every BeeGFS mount of the node);
     * {@code tcpPorts}, the servers' TCP ports, whose sockets the data path (RdmaTraffic) counts as
     * BeeGFS on TCP (empty = BeeGFS's defaults 8003 to 8008; other ports with connPortShift or
     * per-service settings).
     */
    public record Beegfs(List<String> mounts, List<Integer> tcpPorts) implements Section {
        /** BeeGFS's service ports by default: storage 8003, client 8004, metadata 8005, helperd 8006, mon 8007, management 8008. */
        public static final List<Integer> DEFAULT_TCP_PORTS = List.of(8003, 8004, 8005, 8006, 8007, 8008);
        /** Fewer than the usual list bound: the uniqueness rules' CEL cost grows with the square of it. */
        public static final int MAX_ITEMS = 32;

        public Beegfs {
            mounts = mounts == null ? List.of() : List.copyOf(mounts);
            tcpPorts = tcpPorts == null ? List.of() : List.copyOf(tcpPorts);
        }

        /** The ports the data path counts as BeeGFS: the listed ones, else BeeGFS's defaults. */
        public List<Integer> ports() {
            return tcpPorts.isEmpty() ? DEFAULT_TCP_PORTS : tcpPorts;
        }

        @Override
        public void validate() throws InvalidSpecException {
            SpecValidator.eachMatches("beegfs.mounts", mounts, Rules::isMountPoint,
                    "must be an absolute mount point such as /mnt/beegfs (letters, digits, ._@+- ; no trailing slash, "
                            + "no segment starting with a dot; at most " + Rules.MOUNT_POINT_MAX_LENGTH + " characters)");
            if (mounts.size() > MAX_ITEMS || tcpPorts.size() > MAX_ITEMS) {
                throw new InvalidSpecException("beegfs", "mounts and tcpPorts take at most " + MAX_ITEMS + " entries each");
            }
            for (int i = 0; i < tcpPorts.size(); i++) {
                if (tcpPorts.get(i) == null) {
                    throw new InvalidSpecException("beegfs.tcpPorts[" + i + "]", "must be a port number");
                }
                SpecValidator.range("beegfs.tcpPorts[" + i + "]", tcpPorts.get(i), 1, Rules.MAX_TCP_PORT);
            }
        }
    }

    /** Without a roce section: the spec as it was before that section existed (most checks' tests build these). */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, null, null, null);
    }

    /** Without the traffic and nfs sections: the spec as it was before they existed. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, null, null);
    }

    /** With a traffic section and no nfs section. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce, Traffic traffic) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, traffic, null);
    }

    /** With an nfs section and no traffic section. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce, Nfs nfs) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, null, nfs);
    }

    /** Without a portErrors section: the spec as it was before that section existed. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce, Traffic traffic,
                     Nfs nfs) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, traffic, nfs, null);
    }

    /** Without a lustre section: the spec as it was before that section existed. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce, Traffic traffic,
                     Nfs nfs, PortErrors portErrors) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, traffic, nfs, portErrors, null);
    }

    /** Without a beegfs section: the spec as it was before that section existed. */
    public ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph, Roce roce, Traffic traffic,
                     Nfs nfs, PortErrors portErrors, Lustre lustre) {
        this(rdma, gpfs, nvmeof, gds, latency, ceph, roce, traffic, nfs, portErrors, lustre, null);
    }

    /** No spec given: every check looks at what the node has. */
    public static ProbeSpec discover() {
        return new ProbeSpec(null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** The names of the sections, in order: {@code rdma}, {@code gpfs}, ... */
    public static List<String> sectionNames() {
        return SECTIONS.stream().map(RecordComponent::getName).toList();
    }

    /** The record type of a section. */
    public static Class<?> sectionType(String name) {
        return component(name).getType();
    }

    /** The section of that name; null when absent (not checked). */
    public Section section(String name) {
        try {
            return (Section) component(name).getAccessor().invoke(this);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read section " + name, e);
        }
    }

    /** The sections present, in order. */
    public List<Section> sections() {
        return SECTIONS.stream().map(c -> section(c.getName())).filter(s -> s != null).toList();
    }

    public boolean isEmpty() {
        return sections().isEmpty();
    }

    private static RecordComponent component(String name) {
        return SECTIONS.stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no spec section " + name + "; the sections are "
                        + Arrays.toString(sectionNames().toArray())));
    }
}
