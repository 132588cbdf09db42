package io.rdmastorage.probe.testing;

import java.util.List;

/**
 * A GB200 compute tray's RDMA devices as samples/gb200 records them (the sirius-db host-facts run on
 * a 4×GB200 tray, NVIDIA's Mission Control port table): four ConnectX-7 compute NICs, mlx5_0, mlx5_1,
 * mlx5_4, mlx5_5, one port each at 400 Gb/sec on Ethernet (RoCE), and two BlueField-3 storage NICs
 * with two functions each, mlx5_2/mlx5_3 at 0006:03:00.0/.1 and mlx5_6/mlx5_7 at 0016:03:00.0/.1.
 * The names, netdevs, PCI functions and the compute ports' state and rate are the capture's; the
 * BlueField-3 ports' state and rate (ACTIVE, 200 Gb/sec), the GIDs, addresses and MTUs are
 * constructed (the capture has none of them), as is the PCIe tree: each NIC alone under a root
 * port of its own PCI domain, as {@code nvidia-smi topo -m} shows (SYS to every GPU and every other
 * NIC, the two functions of a BlueField-3 PIX to each other).
 */
public final class Gb200Fixtures {

    /** A tray RDMA device: name, PCI function, netdev, whether it is a BlueField-3 storage NIC. */
    public record Nic(String device, String bdf, String netdev, boolean storage) {
        /** The function's place in sysfs: under the root port of its domain. */
        public String pci() {
            String domain = bdf.substring(0, 4);
            return "/sys/devices/pci" + domain + ":00/" + domain + ":00:00.0/" + bdf;
        }
    }

    public static final List<Nic> NICS = List.of(
            new Nic("mlx5_0", "0000:03:00.0", "enp3s0np0", false),
            new Nic("mlx5_1", "0002:03:00.0", "enP2p3s0np0", false),
            new Nic("mlx5_2", "0006:03:00.0", "enP6p3s0f0np0", true),
            new Nic("mlx5_3", "0006:03:00.1", "enP6p3s0f1np1", true),
            new Nic("mlx5_4", "0010:03:00.0", "enP16p3s0np0", false),
            new Nic("mlx5_5", "0012:03:00.0", "enP18p3s0np0", false),
            new Nic("mlx5_6", "0016:03:00.0", "enP22p3s0f0np0", true),
            new Nic("mlx5_7", "0016:03:00.1", "enP22p3s0f1np1", true));

    /** The compute NICs' rate in the capture. */
    public static final String RATE_400 = "400 Gb/sec (4X NDR)";
    public static final String RATE_200 = "200 Gb/sec (4X HDR)";

    private Gb200Fixtures() {
    }

    /** The whole tray, every port ACTIVE with a RoCE v2 GID on its netdev (10.0.N.1, MTU 9000). */
    public static FixtureHost tray(FixtureHost host) {
        for (int i = 0; i < NICS.size(); i++) {
            Nic nic = NICS.get(i);
            RdmaFixtures.hca(host, nic.device(), nic.pci(), String.valueOf(i), "b83f:d203:00a1:" + String.format("%04x", i),
                    nic.storage() ? "0xa2dc" : "0x1021");
            host.mkdir(nic.pci() + "/net/" + nic.netdev());
            port(host, nic, "4: ACTIVE", "5: LinkUp");
            String address = String.format("0000:0000:0000:0000:0000:ffff:0a00:%02x01", i);
            String p = RdmaFixtures.classDir(nic.device()) + "/ports/1/";
            String[][] gids = {{"fe80:0000:0000:0000:ba3f:d2ff:fea1:" + String.format("%04x", i), "IB/RoCE v1"},
                    {"fe80:0000:0000:0000:ba3f:d2ff:fea1:" + String.format("%04x", i), "RoCE v2"},
                    {address, "IB/RoCE v1"}, {address, "RoCE v2"}};
            for (int g = 0; g < gids.length; g++) {
                host.file(p + "gids/" + g, gids[g][0] + "\n").file(p + "gid_attrs/types/" + g, gids[g][1] + "\n")
                        .file(p + "gid_attrs/ndevs/" + g, nic.netdev() + "\n");
            }
            host.file("/sys/class/net/" + nic.netdev() + "/mtu", "9000\n");
        }
        return host;
    }

    /** One device's port lost its link: DOWN / Polling. */
    public static FixtureHost portDown(FixtureHost host, String device) {
        return port(host, nic(device), "1: DOWN", "2: Polling");
    }

    /** One device's port back: ACTIVE / LinkUp, as {@link #tray} has it. */
    public static FixtureHost portUp(FixtureHost host, String device) {
        return port(host, nic(device), "4: ACTIVE", "5: LinkUp");
    }

    public static Nic nic(String device) {
        return NICS.stream().filter(n -> n.device().equals(device)).findFirst().orElseThrow();
    }

    private static FixtureHost port(FixtureHost host, Nic nic, String state, String physState) {
        String p = RdmaFixtures.classDir(nic.device()) + "/ports/1/";
        return host.file(p + "state", state + "\n").file(p + "phys_state", physState + "\n")
                .file(p + "rate", (nic.storage() ? RATE_200 : RATE_400) + "\n").file(p + "link_layer", "Ethernet\n")
                .file(p + "lid", "0x0\n").file(p + "sm_lid", "0x0\n");
    }
}
