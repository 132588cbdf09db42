package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sysfs part of RdmaDevices, through the real CLI on fixture host roots. */
class RdmaDevicesCheckTest {

    @TempDir
    Path dir;

    /** A host whose kernel log shows no mlx5 fault: RdmaDevicesKernelLogCheckTest judges the log. */
    private FixtureHost host() {
        return RdmaFixtures.quietKernelLog(FixtureHost.at(dir.resolve("root")));
    }

    @Test
    void healthyNodePassesTheProfileSpec() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.healthy(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("PortsActive");
        assertThat(check.path("message").asText())
                .isEqualTo("mlx5_0/1, mlx5_1/1 ACTIVE with the link up (400 Gb/sec (4X NDR), InfiniBand)");
        assertThat(check.path("details").path("ports").toString()).contains("mlx5_0/1: ACTIVE/LinkUp, 400 Gb/sec (4X NDR), InfiniBand");
    }

    @Test
    void classLinksResolveToThePciFunction() {
        FixtureHost host = RdmaFixtures.healthy(host());

        HostRoot root = new HostRoot(host.root());
        assertThat(root.hostRealPath("/sys/class/infiniband/mlx5_1/device")).isEqualTo(RdmaFixtures.MLX5_1_PCI);
        assertThat(root.readAttribute("/sys/class/infiniband/mlx5_0/device/vendor")).contains("0x15b3");
    }

    @Test
    void portDownSaysCheckTheCable() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.portDown(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PortDown");
        assertThat(check.path("message").asText())
                .startsWith("mlx5_1/1 is DOWN/Polling: no physical link: check the cable, the transceiver and the switch port");
    }

    @Test
    void initWithoutSubnetManagerIsCalledOut() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.portInit(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PortNotActivated");
        assertThat(check.path("message").asText())
                .startsWith("mlx5_0/1 is INIT/LinkUp: the link is up but no subnet manager has configured the port (SM lid 0)")
                .contains("No subnet manager? run `sminfo` and `ibstat mlx5_0 1`")
                .endsWith("; also 1 more: mlx5_1/1 INIT/LinkUp");
    }

    @Test
    void armedPortWithSubnetManagerPointsAtTheSm() {
        // constructed: the SM (lid 1) armed the port but has not activated it
        FixtureHost host = RdmaFixtures.healthy(host()).file("/sys/class/infiniband/mlx5_0/ports/1/state", "3: ARMED\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("message").asText())
                .startsWith("mlx5_0/1 is ARMED/LinkUp: the subnet manager (lid 1) has not activated it yet; run `sminfo`");
    }

    @Test
    void missingHcaIsNamedWithWhatWasFound() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.deviceMissing(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("DeviceMissing");
        assertThat(check.path("message").asText())
                .startsWith("expected mlx5_1/1 but /sys/class/infiniband has no mlx5_1 (found mlx5_0)")
                .contains("`lspci -d 15b3:`").contains("`rdma link`");
    }

    @Test
    void missingDeviceOutranksADownPort() {
        FixtureHost host = RdmaFixtures.deviceMissing(host())
                .file("/sys/class/infiniband/mlx5_0/ports/1/state", "1: DOWN\n")
                .file("/sys/class/infiniband/mlx5_0/ports/1/phys_state", "3: Disabled\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("reason").asText()).isEqualTo("DeviceMissing");
        assertThat(check.path("message").asText()).endsWith("; also 1 more: mlx5_0/1 DOWN/Disabled");
    }

    @Test
    void wrongPortNumberInTheSpec() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.healthy(host()), "{\"rdma\":{\"devices\":[\"mlx5_0/2\"]}}")
                .check("RdmaDevices");

        assertThat(check.path("reason").asText()).isEqualTo("DeviceMissing");
        assertThat(check.path("message").asText()).startsWith("mlx5_0 has no port 2 (its ports: 1)");
    }

    @Test
    void noDevicesWithASpec() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.noDevices(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("NoRdmaDevices");
        assertThat(check.path("message").asText()).contains("modprobe mlx5_ib");
    }

    @Test
    void discoveryAlwaysReportsRdma() {
        ProbeRun run = ProbeRun.on(RdmaFixtures.noDevices(host()));

        assertThat(run.check("RdmaDevices").path("reason").asText()).isEqualTo("NoRdmaDevices");
        assertThat(run.exitCode()).isEqualTo(1);
    }

    @Test
    void discoveryNeedsOneWorkingPortAndNamesTheOthers() {
        JsonNode check = ProbeRun.on(RdmaFixtures.portDown(host())).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText())
                .isEqualTo("mlx5_0/1 ACTIVE with the link up (400 Gb/sec (4X NDR), InfiniBand); "
                        + "not working (no rdma.devices required them): mlx5_1/1 DOWN/Polling");
        assertThat(check.path("details").path("ports")).hasSize(2);
    }

    @Test
    void discoveryWithEveryPortDown() {
        JsonNode check = ProbeRun.on(RdmaFixtures.portInit(host())).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PortNotActivated");
    }

    @Test
    void rdmaSectionWithoutDevicesJudgesLikeDiscovery() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.healthy(host()), "{\"rdma\":{}}").check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).startsWith("mlx5_0/1, mlx5_1/1 ACTIVE");
    }

    @Test
    void roceDisabledPortSaysIpLinkUp() {
        // constructed from ibv_devinfo_mlx5x4_roce_all-port-down_coyote2 / rdma-link "state DOWN physical_state DISABLED"
        FixtureHost host = host()
                .file("/sys/class/infiniband/mlx5_0/ports/1/state", "1: DOWN\n")
                .file("/sys/class/infiniband/mlx5_0/ports/1/phys_state", "3: Disabled\n")
                .file("/sys/class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n")
                .file("/sys/class/infiniband/mlx5_0/ports/1/link_layer", "Ethernet\n");

        JsonNode check = ProbeRun.withSpec(host, "{\"rdma\":{\"devices\":[\"mlx5_0/1\"]}}").check("RdmaDevices");

        // a setting, not the cable: the action remediation tools read is FixConfig, not ReseatCable
        assertThat(check.path("reason").asText()).isEqualTo("PortDisabled");
        assertThat(check.path("message").asText())
                .isEqualTo("mlx5_0/1 is DOWN/Disabled: the port is disabled: enable it on the switch and `ip link set <netdev> up`");
    }

    @Test
    void unreadableStateIsUnknownNotDown() {
        FixtureHost host = RdmaFixtures.healthy(host())
                .delete("/sys/class/infiniband/mlx5_1/ports/1/state")
                .file("/sys/class/infiniband/mlx5_0/ports/1/phys_state", "LinkUp?\n");

        JsonNode check = ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("PortStateUnreadable");
        assertThat(check.path("message").asText()).startsWith("cannot read the state of mlx5_0/1 (ACTIVE/?)")
                .contains("mounts the host's /sys");
    }

    @Test
    void procfsFixtureSysfsInDiscovery() {
        // the real prometheus/procfs snapshot laid out as a host (plain directories, no class links)
        JsonNode check = ProbeRun.on(RdmaFixtures.procfsSample(host())).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).isEqualTo("hfi1_0/1, mlx4_0/1, mlx4_0/2, mlx5_0/1 ACTIVE with the link up");
    }

    // ---- issue 13: a missing host view is not a broken host ---------------------------------

    @Test
    void aHostRootWithoutSysIsUnknownNotNoRdmaDevices() {
        FixtureHost host = host().mkdir("/etc").file("/etc/hostname", "gpu-01\n");

        for (ProbeRun run : new ProbeRun[] {ProbeRun.withSpec(host, RdmaFixtures.SPEC), ProbeRun.on(host)}) {
            JsonNode check = run.check("RdmaDevices");
            assertThat(check.path("status").asText()).isEqualTo("Unknown");
            assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
            assertThat(check.path("message").asText()).contains("the host's /sys is not visible").doesNotContain("modprobe");
        }
    }

    @Test
    void anEmptySysMountPointIsUnknownToo() {
        FixtureHost host = io.rdmastorage.probe.testing.NodeScenarios.sysNotMounted(RdmaFixtures.healthy(host()));

        assertThat(ProbeRun.withSpec(host, RdmaFixtures.SPEC).check("RdmaDevices").path("reason").asText())
                .isEqualTo("HostViewMissing");
    }

    // ---- link expectations: GID, MTU, rate, PCIe -------------------------------------------

    private static final String ROCE_SPEC = "{\"rdma\":{\"devices\":[\"mlx5_bond_0/1\"],\"minMtu\":4096,\"minRate\":\"100 Gb/sec\"}}";

    @Test
    void roceNodeWithAnAddressedV2GidAndJumboFramesPassesAndReportsTheFleetFacts() {
        FixtureHost host = RdmaFixtures.roce(host()).file("/proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
        ProbeRun run = ProbeRun.withSpec(host, ROCE_SPEC);
        JsonNode check = run.check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).isEqualTo("mlx5_bond_0/1 ACTIVE with the link up (100 Gb/sec (4X EDR), "
                + "Ethernet); MTU ≥ 4096, rate ≥ 100 Gb/sec");
        JsonNode details = check.path("details");
        assertThat(details.path("hcas").get(0).asText())
                .isEqualTo("mlx5_bond_0: fw 28.39.1002, board MT_0000000834, PCIe 0000:03:00.0 32 GT/s x16 (max 32 GT/s x16)");
        assertThat(details.path("netdevs").get(0).asText()).isEqualTo("mlx5_bond_0/1: bond0 mtu 9000");
        JsonNode inventory = run.report().path("inventory");
        assertThat(inventory.path("kernel").asText()).isEqualTo("6.8.0-45-generic");
        assertThat(inventory.path("hcaFirmware").asText()).isEqualTo("28.39.1002");
        assertThat(inventory.path("hcaModel").asText()).isEqualTo("MT_0000000834");
        assertThat(inventory.path("rdmaMtu").asText()).isEqualTo("9000");
        assertThat(run.stdout().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(io.rdmastorage.contract.ReportSchema.MAX_BYTES);
    }

    @Test
    void roceWhoseAddressGidsHaveNoReadableTypeIsUnknownNotNoRoceV2Gid() {
        FixtureHost host = RdmaFixtures.roce(host());
        String p = "/sys/class/infiniband/mlx5_bond_0/ports/1/gid_attrs/types/";
        host.delete(p + "2").delete(p + "3");

        JsonNode check = ProbeRun.withSpec(host, ROCE_SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("GidTableUnreadable");
        assertThat(check.path("message").asText()).contains("the type of GID 2 (0000:0000:0000:0000:0000:ffff:0a60:531a), "
                + "3 (0000:0000:0000:0000:0000:ffff:0a60:531a) cannot be read");
    }

    @Test
    void roceWithoutTheIpv4AddressIsNoRoceV2Gid() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.roceWithoutAddress(host()), ROCE_SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("NoRoceV2Gid");
        assertThat(check.path("message").asText())
                .startsWith("mlx5_bond_0/1 (RoCE) has no RoCE v2 GID for its netdev bond0 or a VLAN, macvlan or bond over it, "
                        + "carrying an IP address")
                .contains("`ip addr show bond0`");
    }

    @Test
    void roceOnAn1500ByteNetdevIsMtuTooSmallForMinMtu4096() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.roceMtu1500(host()), ROCE_SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MtuTooSmall");
        assertThat(check.path("message").asText()).contains("bond0 with MTU 1500").contains("`ip link set bond0 mtu 4200`");
    }

    @Test
    void anExpectedDeviceWithoutItsPortsDirectoryIsUnknownNotMissing() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.healthy(host()).delete("/sys/class/infiniband/mlx5_1/ports"),
                RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("PortStateUnreadable");
        assertThat(check.path("message").asText()).contains("mlx5_1 is listed under /sys/class/infiniband but shows no ports/");
    }

    private static final String VLAN_SPEC = "{\"rdma\":{\"devices\":[\"mlx5_0/1\"],\"minMtu\":4096}}";

    @Test
    void roceOnAVlanWithItsAddressAndJumboFramesIsTrueAndNamesTheVlan() {
        // the port's own eth4 has only link-local GIDs: the storage address lives on eth4.100
        ProbeRun run = ProbeRun.withSpec(RdmaFixtures.roceOnVlan(host(), 9000), VLAN_SPEC);
        JsonNode check = run.check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("RoCE storage on eth4.100 (over eth4)").contains("MTU ≥ 4096");
        assertThat(check.path("details").path("netdevs").get(0).asText())
                .isEqualTo("mlx5_0/1: eth4 mtu 9000, storage on eth4.100 (over eth4) mtu 9000");
        assertThat(run.report().path("inventory").path("rdmaMtu").asText()).isEqualTo("9000");
    }

    @Test
    void aVlanLeftAt1500OverAJumboParentIsMtuTooSmallNamingTheVlan() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.roceOnVlan(host(), 1500), VLAN_SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MtuTooSmall");
        assertThat(check.path("message").asText()).contains("eth4.100 (over eth4 at MTU 9000) with MTU 1500")
                .contains("`ip link set eth4.100 mtu 4200`");
    }

    @Test
    void aRocePortWithoutAGidsDirectoryIsUnknownNotAnEmptyTable() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.roceWithoutGidTable(host()), VLAN_SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("GidTableUnreadable");
        assertThat(check.path("message").asText()).contains("/sys/class/infiniband/mlx5_0/ports/1/gids");
    }

    @Test
    void roceLagWithItsAddressOnAnUpperDeviceIsTrue() {
        // samples/roce/show_gids_mlx5_bond_0_vxlan-upper-and-bond1_ucx-pr9484: the address on b3.vxlan.30100 and bond1
        FixtureHost host = RdmaFixtures.roce(host());
        host.delete("/sys/class/infiniband/mlx5_bond_0/ports/1/gids").delete("/sys/class/infiniband/mlx5_bond_0/ports/1/gid_attrs");
        RdmaFixtures.showGids(host, "roce/show_gids_mlx5_bond_0_vxlan-upper-and-bond1_ucx-pr9484.txt");
        JsonNode check = ProbeRun.withSpec(host, "{\"rdma\":{\"devices\":[\"mlx5_bond_0/1\"]}}").check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("RoCE storage on b3.vxlan.30100");
    }

    @Test
    void aPortBelowMinRateIsRateBelowExpected() {
        String spec = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"minRate\":\"400 Gb/sec\"}}";
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.rateHdr(host()), spec).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("RateBelowExpected");
        assertThat(check.path("message").asText()).startsWith("mlx5_0/1 runs at 200 Gb/sec (4X HDR), below rdma.minRate 400 Gb/sec");
    }

    @Test
    void aCardAtX4OfX16IsPcieLinkDegraded() {
        JsonNode check = ProbeRun.withSpec(RdmaFixtures.pcieDegraded(host()), RdmaFixtures.SPEC).check("RdmaDevices");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PcieLinkDegraded");
        assertThat(check.path("message").asText())
                .startsWith("mlx5_1's PCIe link (0000:05:00.0) trained at 32 GT/s x4 (max 32 GT/s x16)");
    }

    @Test
    void anInvalidMinMtuIsRefusedBeforeAnythingIsRead() {
        ProbeRun run = ProbeRun.withSpec(RdmaFixtures.healthy(host()), "{\"rdma\":{\"minMtu\":9000}}");

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.stderr()).contains("rdma.minMtu").contains("must be one of 256, 512, 1024, 2048, 4096");
    }

    @Test
    void iwarpPortsAreEthernetButNeedNoRoceGid() {
        // constructed: an iWARP RNIC (node_type as the kernel prints it) on an Ethernet port without GIDs
        FixtureHost host = host().file("/sys/class/infiniband/iwp0/node_type", "4: RNIC\n")
                .file("/sys/class/infiniband/iwp0/ports/1/state", "4: ACTIVE\n")
                .file("/sys/class/infiniband/iwp0/ports/1/phys_state", "0: <unknown>\n")
                .file("/sys/class/infiniband/iwp0/ports/1/rate", "25 Gb/sec (1X EDR)\n")
                .file("/sys/class/infiniband/iwp0/ports/1/link_layer", "Ethernet\n");

        JsonNode check = ProbeRun.withSpec(host, "{\"rdma\":{\"devices\":[\"iwp0/1\"]}}").check("RdmaDevices");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
    }
}
