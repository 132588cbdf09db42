package io.rdmastorage.probe.spec;

import java.util.List;

/**
 * The check part of an RdmaStorageProfile's spec: field names are those of the profile. Each
 * section is optional; an absent section is not checked. Defaults are applied here, once.
 */
public record ProbeSpec(Rdma rdma, Gpfs gpfs, Nvmeof nvmeof, Gds gds, Latency latency, Ceph ceph) {

    /** Filesystem names of gdscheck's "FILESYSTEM and DRIVER CONFIGURATION" rows. */
    public static final List<String> GDS_FILESYSTEMS =
            List.of("nvme", "nvmeof", "scsi", "gpfs", "nfs", "lustre", "beegfs", "wekafs");

    public record Rdma(List<String> devices, Boolean userspaceVerbs) {
        public Rdma {
            devices = devices == null ? List.of() : List.copyOf(devices);
            userspaceVerbs = userspaceVerbs != null && userspaceVerbs;
        }

        public List<DevicePort> devicePorts() {
            return devices.stream().map(DevicePort::parse).toList();
        }
    }

    public record Gpfs(List<String> verbsPorts, List<String> requiredPeers, Boolean requireVerbsRdmaSend,
                       String minPagepool) {
        public Gpfs {
            verbsPorts = verbsPorts == null ? List.of() : List.copyOf(verbsPorts);
            requiredPeers = requiredPeers == null ? List.of() : List.copyOf(requiredPeers);
            requireVerbsRdmaSend = requireVerbsRdmaSend != null && requireVerbsRdmaSend;
        }

        /** Minimum pagepool in bytes, or 0 when not required. */
        public long minPagepoolBytes() {
            return minPagepool == null ? 0 : ByteQuantity.parse(minPagepool).orElse(0L);
        }
    }

    public record Nvmeof(List<Target> targets) {
        public Nvmeof {
            targets = targets == null ? List.of() : List.copyOf(targets);
        }
    }

    /** An NVMe-oF subsystem that must be connected over RDMA; 4420 is the IANA NVMe-oF port. */
    public record Target(String nqn, String address, Integer port) {
        public static final int DEFAULT_PORT = 4420;

        public Target {
            port = port == null ? DEFAULT_PORT : port;
        }

        @Override
        public String toString() {
            return nqn + " at " + address + ":" + port;
        }
    }

    public record Gds(List<String> filesystems, Boolean requireIommuDisabled, Boolean requireNicGpuSameSwitch,
                      Boolean forbidCompatMode) {
        public Gds {
            filesystems = filesystems == null ? List.of() : List.copyOf(filesystems);
            // GDS with the IOMMU on bounces through host memory: required unless said otherwise
            requireIommuDisabled = requireIommuDisabled == null || requireIommuDisabled;
            requireNicGpuSameSwitch = requireNicGpuSameSwitch != null && requireNicGpuSameSwitch;
            forbidCompatMode = forbidCompatMode != null && forbidCompatMode;
        }
    }

    /**
     * perftest ib_write_lat parameters; defaults are perftest's own except the iteration count.
     * {@code transportComparison}: also time a plain TCP ping-pong over the same pair, to show what
     * RDMA gains (off by default; it never changes the verdict).
     */
    public record Latency(String device, Integer port, Integer size, Integer iterations, Double maxTypicalMicros,
                          Boolean transportComparison) {
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
    }

    /** Present = inspect /etc/ceph/ceph.conf; it has no settings. */
    public record Ceph() {
    }

    /** No spec given: every check looks at what the node has. */
    public static ProbeSpec discover() {
        return new ProbeSpec(null, null, null, null, null, null);
    }

    public boolean isEmpty() {
        return rdma == null && gpfs == null && nvmeof == null && gds == null && latency == null && ceph == null;
    }
}
