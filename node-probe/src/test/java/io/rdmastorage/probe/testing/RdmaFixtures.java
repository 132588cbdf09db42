package io.rdmastorage.probe.testing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The RDMA part of the shared fixture node gpu-01: two ConnectX-7 HCAs, mlx5_0 and mlx5_1, one
 * InfiniBand NDR port each, behind the same PCIe switch as the GPU (0000:01:00.0 upstream;
 * mlx5_0 at 0000:03:00.0, GPU at 0000:04:00.0, mlx5_1 at 0000:05:00.0).
 *
 * <p>Laid out as the kernel does it: the device lives in the PCI tree under /sys/devices and
 * /sys/class/infiniband/mlx5_0 is a relative link to it, so .../mlx5_0/device resolves to the PCI
 * function. Attribute values are those of real ConnectX-7 ports (see samples/rdma: sysfs
 * "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)"; a port without a subnet manager is
 * "2: INIT" with the link up, lid 0xffff and SM lid 0 as ibstat_cx4_state-initializing_no-sm shows;
 * a port without a link partner is "1: DOWN" / "2: Polling" at the 10 Gb/sec SDR rate, as in
 * ibstat_port-states_polling-vs-initializing).
 */
public final class RdmaFixtures {

    private static final String SWITCH = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";
    public static final String MLX5_0_PCI = SWITCH + "/0000:02:00.0/0000:03:00.0";
    public static final String MLX5_1_PCI = SWITCH + "/0000:02:02.0/0000:05:00.0";
    public static final String RATE_NDR = "400 Gb/sec (4X NDR)";
    /** The firmware of the healthy node's HCAs (ConnectX-7). */
    public static final String FIRMWARE = "28.39.1002";
    /** The healthy node's /proc/uptime: up four hours. */
    public static final String QUIET_UPTIME = "14400.00 226871.34\n";

    /**
     * The spec that passes on the healthy node: the DESIGN.md example's rdma section without
     * {@code userspaceVerbs}. User-space verbs run against the probe process's own libibverbs and
     * /dev/infiniband, never the fixture root, so on a machine without an HCA they answer
     * VerbsUnavailable whatever the fixture says.
     */
    public static final String SPEC = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"]}}";

    private RdmaFixtures() {
    }

    /** Both HCAs, port 1 ACTIVE / LinkUp at NDR. */
    public static FixtureHost healthy(FixtureHost host) {
        hca(host, "mlx5_0", MLX5_0_PCI, "0", "a088:c203:0045:6f10");
        hca(host, "mlx5_1", MLX5_1_PCI, "1", "a088:c203:0045:6f20");
        port(host, "mlx5_0", "4: ACTIVE", "5: LinkUp", RATE_NDR, "0x11");
        port(host, "mlx5_1", "4: ACTIVE", "5: LinkUp", RATE_NDR, "0x12");
        return host;
    }

    /** The healthy node's HCAs on another firmware: a node the fleet comparison finds odd, the node itself fine. */
    public static FixtureHost firmware(FixtureHost host, String version) {
        for (String[] hca : new String[][] {{MLX5_0_PCI, "mlx5_0"}, {MLX5_1_PCI, "mlx5_1"}}) {
            host.file(hca[0] + "/infiniband/" + hca[1] + "/fw_ver", version + "\n");
        }
        return host;
    }

    /** mlx5_1 port 1 lost its cable or switch port: DOWN / Polling, back at the SDR rate. */
    public static FixtureHost portDown(FixtureHost host) {
        healthy(host);
        port(host, "mlx5_1", "1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)", "0xffff");
        host.file(classDir("mlx5_1") + "/ports/1/sm_lid", "0x0\n");
        return host;
    }

    /**
     * No subnet manager on the fabric: both links are up but the ports stay INIT with no LID. The
     * silent failure of a fresh InfiniBand fabric or a crashed opensm.
     */
    public static FixtureHost portInit(FixtureHost host) {
        healthy(host);
        for (String device : new String[] {"mlx5_0", "mlx5_1"}) {
            port(host, device, "2: INIT", "5: LinkUp", RATE_NDR, "0xffff");
            host.file(classDir(device) + "/ports/1/sm_lid", "0x0\n");
        }
        return host;
    }

    /**
     * Two rails, each its own InfiniBand subnet (the GPU cluster's usual layout): the subnet manager
     * of mlx5_1's rail is gone, so its port stays INIT with no LID while mlx5_0's rail carries the
     * storage. The node works, on half its links.
     */
    public static FixtureHost railWithoutSubnetManager(FixtureHost host) {
        healthy(host);
        port(host, "mlx5_1", "2: INIT", "5: LinkUp", RATE_NDR, "0xffff");
        host.file(classDir("mlx5_1") + "/ports/1/sm_lid", "0x0\n");
        return host;
    }

    /** Only mlx5_0: mlx5_1 is gone (dead card, driver failed to probe it, or renamed). */
    public static FixtureHost deviceMissing(FixtureHost host) {
        hca(host, "mlx5_0", MLX5_0_PCI, "0", "a088:c203:0045:6f10");
        port(host, "mlx5_0", "4: ACTIVE", "5: LinkUp", RATE_NDR, "0x11");
        return host;
    }

    /** mlx5_1 trained at x4 of its x16 PCIe Gen5 link: a reseated card in the wrong slot. */
    public static FixtureHost pcieDegraded(FixtureHost host) {
        healthy(host);
        return host.file(MLX5_1_PCI + "/current_link_width", "4\n");
    }

    /** mlx5_0 port 1 trained at HDR instead of NDR (a 200G cable or switch port). */
    public static FixtureHost rateHdr(FixtureHost host) {
        healthy(host);
        port(host, "mlx5_0", "4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "0x11");
        return host;
    }

    /**
     * A RoCE node: the LAG device mlx5_bond_0 on bond0 with the GID table of the show_gids sample
     * (samples/roce: show_gids_mlx5_bond_0_4gids_real-TABs): link-local v1/v2 at 0/1, the
     * IPv4-mapped 10.96.83.26 v1/v2 at 2/3; unused slots are the zero GID. bond0 at MTU 9000.
     */
    public static FixtureHost roce(FixtureHost host) {
        hca(host, "mlx5_bond_0", MLX5_0_PCI, "0", "0c42:a103:00ad:479a");
        String p = classDir("mlx5_bond_0") + "/ports/1/";
        host.file(p + "state", "4: ACTIVE\n").file(p + "phys_state", "5: LinkUp\n")
                .file(p + "rate", "100 Gb/sec (4X EDR)\n").file(p + "link_layer", "Ethernet\n")
                .file(p + "lid", "0x0\n").file(p + "sm_lid", "0x0\n");
        gid(host, 0, "fe80:0000:0000:0000:0e42:a1ff:fead:479a", "IB/RoCE v1");
        gid(host, 1, "fe80:0000:0000:0000:0e42:a1ff:fead:479a", "RoCE v2");
        gid(host, 2, "0000:0000:0000:0000:0000:ffff:0a60:531a", "IB/RoCE v1");
        gid(host, 3, "0000:0000:0000:0000:0000:ffff:0a60:531a", "RoCE v2");
        host.file(p + "gids/4", "0000:0000:0000:0000:0000:0000:0000:0000\n");
        return host.file("/sys/class/net/bond0/mtu", "9000\n");
    }

    /** The RoCE node after bond0 lost its IPv4 address: only the link-local GIDs are left. */
    public static FixtureHost roceWithoutAddress(FixtureHost host) {
        roce(host);
        String p = classDir("mlx5_bond_0") + "/ports/1/";
        for (int i : new int[] {2, 3}) {
            host.file(p + "gids/" + i, "0000:0000:0000:0000:0000:0000:0000:0000\n");
            host.delete(p + "gid_attrs/types/" + i).delete(p + "gid_attrs/ndevs/" + i);
        }
        return host;
    }

    /** The RoCE node with bond0 at the Ethernet default MTU 1500. */
    public static FixtureHost roceMtu1500(FixtureHost host) {
        return roce(host).file("/sys/class/net/bond0/mtu", "1500\n");
    }

    /**
     * Lossless RoCE on a VLAN: mlx5_0 port 1 on eth4 (MTU 9000) with the GID table of
     * samples/roce/show_gids_mlx5_0_vlan-eth4.100_constructed (link-local v1/v2 on eth4, the storage
     * address 12.12.11.12 as v1/v2 on eth4.100), and eth4.100 over eth4 as sysfs links them
     * ({@code lower_eth4} / {@code upper_eth4.100}).
     */
    public static FixtureHost roceOnVlan(FixtureHost host, int vlanMtu) {
        hca(host, "mlx5_0", MLX5_0_PCI, "0", "268a:0703:008f:9bbc");
        String p = classDir("mlx5_0") + "/ports/1/";
        host.file(p + "state", "4: ACTIVE\n").file(p + "phys_state", "5: LinkUp\n")
                .file(p + "rate", "100 Gb/sec (4X EDR)\n").file(p + "link_layer", "Ethernet\n")
                .file(p + "lid", "0x0\n").file(p + "sm_lid", "0x0\n");
        showGids(host, "roce/show_gids_mlx5_0_vlan-eth4.100_constructed.txt");
        return host.file("/sys/class/net/eth4/mtu", "9000\n").file("/sys/class/net/eth4.100/mtu", vlanMtu + "\n")
                .symlink("/sys/class/net/eth4.100/lower_eth4", "../eth4")
                .symlink("/sys/class/net/eth4/upper_eth4.100", "../eth4.100");
    }

    /** The VLAN layout on a host whose sysfs shows mlx5_0 port 1 without its gids/ directory. */
    public static FixtureHost roceWithoutGidTable(FixtureHost host) {
        roceOnVlan(host, 9000);
        return host.delete(classDir("mlx5_0") + "/ports/1/gids");
    }

    /**
     * The GID table of a recorded {@code show_gids} listing written as sysfs holds it:
     * {@code gids/<i>}, {@code gid_attrs/types/<i>} ("IB/RoCE v1" for v1, "RoCE v2") and
     * {@code gid_attrs/ndevs/<i>}, per row's device and port.
     */
    public static FixtureHost showGids(FixtureHost host, String sample) {
        for (String line : Samples.body(sample).split("\n")) {
            String[] c = line.strip().split("\\s+");
            if (c.length < 6 || !c[1].chars().allMatch(Character::isDigit) || !c[2].chars().allMatch(Character::isDigit)) {
                continue;
            }
            String ver = c[c.length - 2];
            String p = classDir(c[0]) + "/ports/" + c[1] + "/";
            host.file(p + "gids/" + c[2], c[3] + "\n")
                    .file(p + "gid_attrs/types/" + c[2], (ver.equals("v2") ? "RoCE v2" : "IB/RoCE v1") + "\n")
                    .file(p + "gid_attrs/ndevs/" + c[2], c[c.length - 1] + "\n");
        }
        return host;
    }

    private static void gid(FixtureHost host, int index, String gid, String type) {
        String p = classDir("mlx5_bond_0") + "/ports/1/";
        host.file(p + "gids/" + index, gid + "\n").file(p + "gid_attrs/types/" + index, type + "\n")
                .file(p + "gid_attrs/ndevs/" + index, "bond0\n");
    }

    /** The host's kernel log with no mlx5 fault in it (a plain file stands in for /dev/kmsg), and its uptime. */
    public static FixtureHost quietKernelLog(FixtureHost host) {
        return host.file("/dev/kmsg", "").file("/proc/uptime", QUIET_UPTIME);
    }

    /** No RDMA at all: sysfs without /sys/class/infiniband (no HCA, or mlx5_ib not loaded). */
    public static FixtureHost noDevices(FixtureHost host) {
        return host.mkdir("/sys/class/net").mkdir("/sys/devices");
    }

    /**
     * The files of the recorded prometheus/procfs sysfs snapshot (hfi1_0, mlx4_0 with two ports,
     * mlx5_0 with the phys_state "4: ACTIVE" quirk), host path → content. The sample is a list of
     * "Path:" / "Lines: N" / N lines / "Mode:" blocks.
     */
    public static Map<String, String> procfsSampleFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        String[] lines = Samples.body("rdma/sysfs_infiniband_ports_procfs-fixture.txt").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("Path: fixtures/")) {
                String path = lines[i].substring("Path: fixtures".length());
                int count = Integer.parseInt(lines[i + 1].substring("Lines: ".length()).strip());
                files.put(path, String.join("\n", Arrays.copyOfRange(lines, i + 2, i + 2 + count)) + "\n");
                i += 1 + count;
            }
        }
        return files;
    }

    /** The procfs snapshot as a host: plain port directories, no PCI tree or class links. */
    public static FixtureHost procfsSample(FixtureHost host) {
        procfsSampleFiles().forEach(host::file);
        return host;
    }

    /** A device's directory under /sys/class/infiniband. */
    public static String classDir(String device) {
        return "/sys/class/infiniband/" + device;
    }

    private static void hca(FixtureHost host, String device, String pci, String uverbs, String guid) {
        hca(host, device, pci, uverbs, guid, "0x1021");        // ConnectX-7
    }

    /** An mlx5 device at {@code pci} (the PCI device id {@code 0x1021} ConnectX-7, {@code 0xa2dc} BlueField-3), as the kernel lays it out. */
    static void hca(FixtureHost host, String device, String pci, String uverbs, String guid, String pciDeviceId) {
        String dev = pci + "/infiniband/" + device;
        String function = pci.substring(pci.lastIndexOf('/') + 1);
        host.file(pci + "/vendor", "0x15b3\n")
                .file(pci + "/device", pciDeviceId + "\n")
                .file(pci + "/class", "0x020700\n")         // InfiniBand controller
                // ConnectX-7 is a PCIe Gen5 x16 card, trained at full width and speed
                .file(pci + "/current_link_speed", "32.0 GT/s PCIe\n")
                .file(pci + "/current_link_width", "16\n")
                .file(pci + "/max_link_speed", "32.0 GT/s PCIe\n")
                .file(pci + "/max_link_width", "16\n")
                .file(dev + "/node_type", "1: CA\n")
                .file(dev + "/hca_type", "MT4129\n")
                .file(dev + "/fw_ver", FIRMWARE + "\n")
                .file(dev + "/board_id", "MT_0000000834\n")
                .file(dev + "/node_guid", guid + "\n")
                .symlink(dev + "/device", "../../../" + function)
                .symlink(classDir(device), "../../devices" + pci.substring("/sys/devices".length()) + "/infiniband/" + device)
                // what libibverbs enumerates on a real host; node-probe's sysfs check does not need it
                .file(pci + "/infiniband_verbs/uverbs" + uverbs + "/ibdev", device + "\n")
                .symlink("/sys/class/infiniband_verbs/uverbs" + uverbs,
                        "../../devices" + pci.substring("/sys/devices".length()) + "/infiniband_verbs/uverbs" + uverbs)
                // the character device udev made for it (a plain file stands in for the char device)
                .file("/dev/infiniband/uverbs" + uverbs, "");
        quietKernelLog(host);
        String parent = pci.substring(0, pci.lastIndexOf('/'));
        for (String bridge : pci.startsWith(SWITCH) ? new String[] {"/sys/devices/pci0000:00/0000:00:01.0", SWITCH, parent}
                : new String[] {parent}) {
            host.file(bridge + "/class", "0x060400\n");    // PCI-to-PCI bridge
        }
    }

    /** Writes the port attributes through the class link, as a reader would find them. */
    private static void port(FixtureHost host, String device, String state, String physState, String rate, String lid) {
        String p = classDir(device) + "/ports/1/";
        host.file(p + "state", state + "\n")
                .file(p + "phys_state", physState + "\n")
                .file(p + "rate", rate + "\n")
                .file(p + "link_layer", "InfiniBand\n")
                .file(p + "lid", lid + "\n")
                .file(p + "sm_lid", "0x1\n")
                .file(p + "lid_mask_count", "0\n");
    }
}
