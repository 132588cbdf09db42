package io.rdmastorage.contract.checks;

import static io.rdmastorage.contract.RecommendedAction.FIX_CONFIG;
import static io.rdmastorage.contract.RecommendedAction.INVESTIGATE_NODE;
import static io.rdmastorage.contract.RecommendedAction.NONE;
import static io.rdmastorage.contract.RecommendedAction.REPLACE_NIC;
import static io.rdmastorage.contract.RecommendedAction.RESEAT_CABLE;
import static io.rdmastorage.contract.Status.FALSE;
import static io.rdmastorage.contract.Status.TRUE;
import static io.rdmastorage.contract.Status.UNKNOWN;

import io.rdmastorage.contract.CheckDescriptor;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.Reason;
import java.util.List;
import java.util.Optional;

/**
 * HCAs and ports present, ACTIVE with the link up, at the expected MTU and rate, with a RoCE v2
 * GID on Ethernet and the full PCIe link; with {@code userspaceVerbs}, usable through libibverbs.
 */
public final class RdmaDevices {

    public static final String NO_RDMA_DEVICES = "NoRdmaDevices";
    public static final String DEVICE_MISSING = "DeviceMissing";
    public static final String STORAGE_NIC_MISSING = "StorageNicMissing";
    public static final String PORT_DOWN = "PortDown";
    public static final String PORT_DISABLED = "PortDisabled";
    public static final String PORT_NOT_ACTIVATED = "PortNotActivated";
    public static final String VERBS_PORT_NOT_ACTIVE = "VerbsPortNotActive";
    public static final String PORT_STATE_UNREADABLE = "PortStateUnreadable";
    public static final String VERBS_UNAVAILABLE = "VerbsUnavailable";
    public static final String MEMLOCK_TOO_LOW = "MemlockTooLow";
    public static final String MEMORY_REGISTRATION_FAILED = "MemoryRegistrationFailed";
    public static final String NO_ROCE_V2_GID = "NoRoceV2Gid";
    public static final String GID_TABLE_UNREADABLE = "GidTableUnreadable";
    public static final String MTU_TOO_SMALL = "MtuTooSmall";
    public static final String MTU_UNREADABLE = "MtuUnreadable";
    public static final String RATE_BELOW_EXPECTED = "RateBelowExpected";
    public static final String PCIE_LINK_DEGRADED = "PcieLinkDegraded";
    public static final String DEVICE_NODE_MISSING = "DeviceNodeMissing";
    public static final String DEVICE_FATAL_LOGGED = "DeviceFatalLogged";
    public static final String DEVICE_WARNING_LOGGED = "DeviceWarningLogged";
    public static final String KERNEL_LOG_UNREADABLE = "KernelLogUnreadable";
    public static final String PORTS_ACTIVE = "PortsActive";

    public static final CheckDescriptor DESCRIPTOR = new CheckDescriptor("RdmaDevices", "rdma", Measurement.NODE_PROBE, List.of(
            Reason.probe(PORTS_ACTIVE, TRUE, "every expected port is ACTIVE with the link up (and usable through libibverbs when asked)", NONE),
            Reason.probe(NO_RDMA_DEVICES, FALSE, "no device under /sys/class/infiniband: driver not loaded, or no HCA", INVESTIGATE_NODE),
            Reason.probe(DEVICE_MISSING, FALSE, "an expected device/port does not exist", INVESTIGATE_NODE),
            Reason.probe(STORAGE_NIC_MISSING, FALSE, "the node has RDMA devices but none matches rdma.storageNics: the storage NIC (a BlueField-3 beside ConnectX compute NICs) is missing or unbound, or the selectors name another kind of node's NICs", INVESTIGATE_NODE),
            Reason.probe(PORT_DOWN, FALSE, "a port is not ACTIVE and its physical link is not up (Polling: no signal from the cable, transceiver or switch port; training or error recovery)", RESEAT_CABLE),
            Reason.probe(PORT_DISABLED, FALSE, "a port's physical link is Disabled (or Sleep): its netdev is administratively down (`ip link set ... down`), or the port was disabled on the switch or with ibportstate; no cable work brings it up", FIX_CONFIG),
            Reason.probe(PORT_NOT_ACTIVATED, FALSE, "an InfiniBand port's link is up but the port is INIT or ARMED: no subnet manager has configured it (SM lid 0), or the subnet manager has not activated it; the fabric's subnet manager is what to fix", FIX_CONFIG),
            Reason.probe(VERBS_PORT_NOT_ACTIVE, FALSE, "libibverbs in the probe reads a port not ACTIVE while the host's sysfs says ACTIVE: pods use libibverbs, so they would fail too; the probe's container may see another device (the RDMA device plugin, VF assignment), or the port changed between the reads", INVESTIGATE_NODE),
            Reason.probe(PORT_STATE_UNREADABLE, UNKNOWN, "a port's sysfs state cannot be read", NONE),
            Reason.probe(VERBS_UNAVAILABLE, FALSE, UNKNOWN, "libibverbs or the device cannot be opened from the probe", INVESTIGATE_NODE),
            Reason.probe(MEMLOCK_TOO_LOW, FALSE, "memory registration failed and RLIMIT_MEMLOCK is too low", FIX_CONFIG),
            Reason.probe(MEMORY_REGISTRATION_FAILED, FALSE, "registering 1 MiB with the device failed", INVESTIGATE_NODE),
            Reason.probe(NO_ROCE_V2_GID, FALSE, "an Ethernet (RoCE) port has no RoCE v2 GID with an IP address on its netdev or a VLAN, macvlan or bond over it: \"Failed to modify QP to RTR\"", FIX_CONFIG),
            Reason.probe(GID_TABLE_UNREADABLE, UNKNOWN, "a RoCE port has no gids/ directory in sysfs, or a GID carrying an "
                    + "address has no readable gid_attrs/types entry: its GID table is unknown, not empty or without RoCE v2", NONE),
            Reason.probe(MTU_TOO_SMALL, FALSE, "the port's active MTU, or the MTU of the netdev that carries its storage (a VLAN over the port's netdev included), is below rdma.minMtu", FIX_CONFIG),
            Reason.probe(MTU_UNREADABLE, UNKNOWN, "rdma.minMtu is set but neither libibverbs nor a netdev shows the port's MTU", NONE),
            Reason.probe(RATE_BELOW_EXPECTED, FALSE, UNKNOWN, "a port's rate is below rdma.minRate (Unknown: the rate cannot be read)", RESEAT_CABLE).withAction(UNKNOWN, NONE),
            Reason.probe(PCIE_LINK_DEGRADED, FALSE, "the HCA's PCIe link trained below its maximum speed or width", REPLACE_NIC),
            Reason.probe(DEVICE_NODE_MISSING, FALSE, "a port is ACTIVE but the host's /dev/infiniband lacks a uverbs, umad or issm node that /sys/class/infiniband_verbs or infiniband_mad announces for its device: every RDMA pod fails with \"lstat /dev/infiniband/...\"", FIX_CONFIG),
            Reason.probe(DEVICE_FATAL_LOGGED, FALSE, "the host's kernel log within rdma.kernelLogWindow has an mlx5 fatal signature for a device that the driver did not report recovered since: health compromised, a fatal error of the health poll, the PCIe link lost (PCI slot unavailable, registers all ones), a firmware error of severity ERROR or worse, an unrecoverable hardware error, the driver's error state or failed recovery, a firmware command timeout, or a failed initialisation", REPLACE_NIC),
            Reason.probe(DEVICE_WARNING_LOGGED, FALSE, "the host's kernel log within rdma.kernelLogWindow has an mlx5 warning for a device: insufficient power on the PCIe slot, a module's or the device's high temperature, a cable module error, a firmware health notice, a late command completion, a transmit queue timed out (NETDEV WATCHDOG), or a fatal signature the driver reported recovered since", INVESTIGATE_NODE),
            Reason.probe(KERNEL_LOG_UNREADABLE, UNKNOWN, "the host's kernel log (/dev/kmsg) or uptime cannot be read (absent, EPERM, dmesg_restrict), so mlx5 fault signatures are unknown", NONE)),
            Optional.empty());

    private RdmaDevices() {
    }
}
