package io.rdmastorage.contract;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The inventory facts: a small, fixed set of short strings every node-probe report carries beside
 * its checks ({@link ReportSchema#F_INVENTORY}), so that the operator can compare the nodes of a
 * profile and name the one that differs (the profile's FleetConsistent, each node's MatchesFleet).
 * No node can tell that it is the odd one out; only the comparison can. A fact's key is what a
 * profile's {@code fleet.allowMixed} names, so the CRD's enum is this list.
 *
 * <p>A fact the probe looked for and the host does not have is {@link #NOT_INSTALLED}, a value like
 * any other (a node without rdma-core differs from one with it); a fact the probe could not look
 * for (the section is not checked, the source is not mounted) is left out and compared with nothing.
 */
public enum InventoryFact {
    KERNEL("kernel", "kernel", "/proc/sys/kernel/osrelease"),
    RDMA_CORE("rdmaCore", "rdma-core", "`ofed_info -s` (MLNX_OFED), else the rdma-core package (dpkg status or rpm)"),
    HCA_MODEL("hcaModel", "HCA board id", "/sys/class/infiniband/*/board_id"),
    HCA_FIRMWARE("hcaFirmware", "HCA firmware", "/sys/class/infiniband/*/fw_ver"),
    MLX5_DRIVER("mlx5Driver", "mlx5_core driver", "/sys/module/mlx5_core/version"),
    IB_CORE_DRIVER("ibCoreDriver", "ib_core driver", "/sys/module/ib_core/version"),
    RDMA_MTU("rdmaMtu", "RDMA netdev MTU", "/sys/class/net/<netdev of an Ethernet RDMA port>/mtu"),
    /**
     * How many RDMA ports are ACTIVE with the link up, at which rate: a node with a port fewer, or one
     * trained at a lower rate, than its role peers (NVSentinel's homogeneity check), which no single
     * node can tell about itself when the profile names no ports and no minimum rate.
     */
    RDMA_PORTS("rdmaPorts", "active RDMA ports", "/sys/class/infiniband/*/ports/*/{state,phys_state,rate}: the ports ACTIVE with the link up, counted per rate"),
    ROCE_LOSSLESS("roceLossless", "RoCE lossless settings", "the RoceLossless check's trust, PFC and ECN per port"),
    GPFS_VERSION("gpfsVersion", "GPFS daemon", "`mmdiag --version`"),
    GPFS_VERBS("gpfsVerbs", "GPFS verbs settings", "`mmdiag --config -Y` verbsRdma, verbsRdmaCm, verbsRdmaSend"),
    NVIDIA_FS("nvidiaFs", "nvidia-fs", "`gdscheck -p` nvidia_fs version"),
    GDS("gds", "GDS", "`gdscheck -p` GDS release version"),
    LUSTRE_VERSION("lustreVersion", "Lustre client", "/sys/fs/lustre/version"),
    LNET_NETWORKS("lnetNetworks", "LNet networks", "`lnetctl net show -v 3` net types, lo left out"),
    BEEGFS_VERSION("beegfsVersion", "BeeGFS client", "/var/lib/dkms/beegfs/<version> (the DKMS client module)");

    /** The value of a fact the probe looked for and the host does not have. */
    public static final String NOT_INSTALLED = "not installed";
    /**
     * The keys as one regular expression, for the CRD's {@code fleet.allowMixed} items (an annotation
     * needs a constant; InventoryFactTest holds it equal to {@link #keys()}).
     */
    public static final String KEY_REGEX = "^(kernel|rdmaCore|hcaModel|hcaFirmware|mlx5Driver|ibCoreDriver|rdmaMtu"
            + "|rdmaPorts|roceLossless|gpfsVersion|gpfsVerbs|nvidiaFs|gds|lustreVersion|lnetNetworks|beegfsVersion)$";
    /** Each value is at most this long: 16 facts stay a small part of the report's 4 KiB. */
    public static final int MAX_VALUE_CHARS = 80;

    private final String key;
    private final String label;
    private final String source;

    InventoryFact(String key, String label, String source) {
        this.key = key;
        this.label = label;
        this.source = source;
    }

    /** Its name in the report, in RdmaStorageNode status and in {@code fleet.allowMixed}: {@code hcaFirmware}. */
    public String key() {
        return key;
    }

    /** How messages name it: {@code HCA firmware}. */
    public String label() {
        return label;
    }

    /** Where node-probe reads it, for the docs. */
    public String source() {
        return source;
    }

    public static Optional<InventoryFact> ofKey(String key) {
        return Arrays.stream(values()).filter(f -> f.key.equals(key)).findFirst();
    }

    /** Every key, in report order. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(InventoryFact::key).toList();
    }
}
