package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.parse.PcieLink;
import io.rdmastorage.probe.parse.RoceGid;
import io.rdmastorage.probe.parse.SysfsIbPort;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * RdmaDevices' link expectations on fact records: GIDs, MTUs, rate, PCIe. GID, rate and netdev
 * values are the real ones of samples/rdma/sysfs_infiniband_rxe0_active_vm-6.1 and the show_gids
 * samples; the PCIe speeds are written as the kernel's sysfs writes them ("16.0 GT/s PCIe").
 */
class RdmaLinksJudgeTest {

    private static final String NDR = "400 Gb/sec (4X NDR)";
    private static final RoceGid LINK_LOCAL = RoceGid.of(0, "fe80:0000:0000:0000:7cb7:80ff:fee2:4b1c", "RoCE v2", "veth0");
    private static final RoceGid IPV4 = RoceGid.of(1, "0000:0000:0000:0000:0000:ffff:c000:0201", "RoCE v2", "veth0");
    private static final RoceGid IPV4_V1 = RoceGid.of(1, "0000:0000:0000:0000:0000:ffff:c000:0201", "IB/RoCE v1", "veth0");

    private static SysfsIbPort rxe() {
        return SysfsIbPort.of("rxe0", 1, "4: ACTIVE", "5: LinkUp", "10 Gb/sec (1X FDR10)", "Ethernet", "0x0");
    }

    private static SysfsIbPort ib(String rate) {
        return SysfsIbPort.of("mlx5_0", 1, "4: ACTIVE", "5: LinkUp", rate, "InfiniBand", "0x1");
    }

    private static RdmaLinks.Facts roce(List<RoceGid> gids, int mtu) {
        return new RdmaLinks.Facts(Map.of("rxe0/1", gids), Map.of("rxe0/1", "veth0"), Map.of("veth0", mtu),
                Map.of("rxe0", new RdmaLinks.Hca("0.0.0", "", Optional.empty())));
    }

    private static RdmaLinks.Facts hca(Optional<PcieLink> link) {
        return new RdmaLinks.Facts(Map.of(), Map.of(), Map.of(),
                Map.of("mlx5_0", new RdmaLinks.Hca("28.39.1002", "MT_0000000834", link)));
    }

    private static CheckResult verdict(SysfsIbPort port, RdmaLinks.Facts links, ProbeSpec.Rdma rdma,
                                       Optional<RdmaDevicesCheck.VerbsAttempt> verbs) {
        RdmaDevicesCheck.Facts facts = new RdmaDevicesCheck.Facts("/host", true, List.of(port.device()),
                Map.of(port.name(), port), verbs, links);
        return new RdmaDevicesCheck().result(facts, new ProbeSpec(rdma, null, null, null, null, null));
    }

    private static ProbeSpec.Rdma rdma(String device, Integer minMtu, String minRate) {
        return new ProbeSpec.Rdma(List.of(device), false, minMtu, minRate);
    }

    @Test
    void roceWithAnIpv4MappedV2GidAndRoomyMtuPassesAndReportsTheFleetFacts() {
        CheckResult result = verdict(rxe(), roce(List.of(LINK_LOCAL, IPV4), 4200), rdma("rxe0/1", 4096, "10 Gb/sec"),
                Optional.empty());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).endsWith("; MTU ≥ 4096, rate ≥ 10 Gb/sec");
        assertThat(result.details()).containsEntry("netdevs", List.of("rxe0/1: veth0 mtu 4200"))
                .containsEntry("hcas", List.of("rxe0: fw 0.0.0"));
        // soft-RoCE has no board id: no value, rather than an empty one
        assertThat(result.inventory()).containsExactlyInAnyOrderEntriesOf(Map.of(InventoryFact.HCA_FIRMWARE, "0.0.0",
                InventoryFact.RDMA_MTU, "4200", InventoryFact.RDMA_PORTS, "1 × 10 Gb/sec (1X FDR10)"));
    }

    @Test
    void roceWithOnlyALinkLocalV2GidHasNoStorageAddress() {
        CheckResult result = verdict(rxe(), roce(List.of(LINK_LOCAL), 1500), null, Optional.empty());

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("NoRoceV2Gid");
        assertThat(result.message()).startsWith("rxe0/1 (RoCE) has no RoCE v2 GID for its netdev veth0 or a VLAN, macvlan or "
                        + "bond over it, carrying an IP address (its RoCE v2 GIDs are link-local only (fe80::) on veth0, no "
                        + "storage address)")
                .contains("Failed to modify QP to RTR").contains("`ip addr show veth0`").contains("`show_gids rxe0`")
                .contains("`ibv_devinfo -v -d rxe0`");
    }

    @Test
    void roceV1OnlyIsNoRoceV2Gid() {
        CheckResult result = verdict(rxe(), roce(List.of(IPV4_V1), 1500), null, Optional.empty());

        assertThat(result.reason()).isEqualTo("NoRoceV2Gid");
        assertThat(result.message()).contains("its GIDs are 1 IB/RoCE v1");
    }

    @Test
    void anEmptyGidTableIsNoRoceV2Gid() {
        CheckResult result = verdict(rxe(), roce(List.of(), 1500), null, Optional.empty());

        assertThat(result.reason()).isEqualTo("NoRoceV2Gid");
        assertThat(result.message()).contains("its GID table is empty");
    }

    @Test
    void anAddressGidWhoseTypeCannotBeReadIsUnknownNotNoRoceV2Gid() {
        // the sample's IPv4 GID with its gid_attrs/types entry unreadable (removed while the probe read the table)
        RoceGid untyped = RoceGid.of(1, IPV4.gid(), null, null);

        CheckResult result = verdict(rxe(), roce(List.of(LINK_LOCAL, untyped), 1500), null, Optional.empty());

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("GidTableUnreadable");
        assertThat(result.message()).contains("the type of GID 1 (0000:0000:0000:0000:0000:ffff:c000:0201) cannot be read",
                "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/<index>");
    }

    @Test
    void infinibandPortsNeedNoRoceGid() {
        CheckResult result = verdict(ib(NDR), hca(Optional.empty()), rdma("mlx5_0/1", null, null), Optional.empty());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.details()).containsEntry("hcas", List.of("mlx5_0: fw 28.39.1002, board MT_0000000834"));
    }

    @Test
    void aRoceNetdevMtuOf1500IsTooSmallForIbMtu4096() {
        CheckResult result = verdict(rxe(), roce(List.of(LINK_LOCAL, IPV4), 1500), rdma("rxe0/1", 4096, null), Optional.empty());

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("MtuTooSmall");
        assertThat(result.message()).startsWith("rxe0/1 (RoCE) sits on veth0 with MTU 1500, too small for the RDMA MTU 4096")
                .contains("netdev MTU ≥ 4192 (IB MTU 4096 needs ≥ 4200 as vendors set it)")
                .contains("`ip link set veth0 mtu 4200`");
    }

    @Test
    void aRoceNetdevMtuJustBelowTheHeadersIsTooSmallAndAtThemIsEnough() {
        assertThat(verdict(rxe(), roce(List.of(IPV4), 4191), rdma("rxe0/1", 4096, null), Optional.empty()).reason())
                .isEqualTo("MtuTooSmall");
        assertThat(verdict(rxe(), roce(List.of(IPV4), 4192), rdma("rxe0/1", 4096, null), Optional.empty()).status())
                .isEqualTo(Status.TRUE);
        assertThat(verdict(rxe(), roce(List.of(IPV4), 1500), rdma("rxe0/1", 1024, null), Optional.empty()).status())
                .isEqualTo(Status.TRUE);
    }

    @Test
    void anInfinibandPortWithoutVerbsHasNoMtuEvidence() {
        CheckResult result = verdict(ib(NDR), hca(Optional.empty()), rdma("mlx5_0/1", 4096, null), Optional.empty());

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("MtuUnreadable");
        assertThat(result.message()).contains("set rdma.userspaceVerbs");
    }

    @Test
    void theActiveMtuFromLibibverbsDecidesOnInfiniband() {
        // active_mtu 4 = IBV_MTU_2048: an opensm partition left at its default
        VerbsReport report = VerbsReport.tested(List.of("mlx5_0"), List.of(VerbsReport.DeviceTest.passed("mlx5_0",
                List.of(new VerbsReport.PortAttributes(1, 4, 5, 1, 0x11, 1, 4)), 1 << 20)), Optional.empty());
        Optional<RdmaDevicesCheck.VerbsAttempt> verbs = Optional.of(new RdmaDevicesCheck.VerbsAttempt(
                Map.of("mlx5_0", List.of(1)), Optional.of(report), Optional.empty()));

        CheckResult result = verdict(ib(NDR), hca(Optional.empty()),
                new ProbeSpec.Rdma(List.of("mlx5_0/1"), true, 4096, null), verbs);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("MtuTooSmall");
        assertThat(result.message()).startsWith("mlx5_0/1 runs at active MTU 2048, below rdma.minMtu 4096").contains("opensm");
    }

    @Test
    void aPortBelowMinRateIsNamedWithItsRate() {
        CheckResult result = verdict(ib("100 Gb/sec (4X EDR)"), hca(Optional.empty()), rdma("mlx5_0/1", null, "400 Gb/sec"),
                Optional.empty());

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("RateBelowExpected");
        assertThat(result.message()).startsWith("mlx5_0/1 runs at 100 Gb/sec (4X EDR), below rdma.minRate 400 Gb/sec");
        assertThat(verdict(ib(NDR), hca(Optional.empty()), rdma("mlx5_0/1", null, "400 Gb/sec"), Optional.empty()).status())
                .isEqualTo(Status.TRUE);
    }

    @Test
    void anUnreadableRateIsUnknown() {
        CheckResult result = verdict(ib(""), hca(Optional.empty()), rdma("mlx5_0/1", null, "400 Gb/sec"), Optional.empty());

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("RateBelowExpected");
    }

    @Test
    void aCardAtX4OfX16IsPcieLinkDegraded() {
        Optional<PcieLink> x4 = PcieLink.of("0000:03:00.0", "16.0 GT/s PCIe", "4", "16.0 GT/s PCIe", "16");

        CheckResult result = verdict(ib(NDR), hca(x4), rdma("mlx5_0/1", null, null), Optional.empty());

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("PcieLinkDegraded");
        assertThat(result.message()).startsWith("mlx5_0's PCIe link (0000:03:00.0) trained at 16 GT/s x4 (max 16 GT/s x16)")
                .contains("`lspci -vv -s 0000:03:00.0`");
    }

    @Test
    void aSlowerSpeedIsDegradedTooAndAFullLinkIsNot() {
        Optional<PcieLink> gen3 = PcieLink.of("0000:03:00.0", "8.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
        Optional<PcieLink> full = PcieLink.of("0000:03:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");

        assertThat(verdict(ib(NDR), hca(gen3), rdma("mlx5_0/1", null, null), Optional.empty()).reason())
                .isEqualTo("PcieLinkDegraded");
        CheckResult ok = verdict(ib(NDR), hca(full), rdma("mlx5_0/1", null, null), Optional.empty());
        assertThat(ok.status()).isEqualTo(Status.TRUE);
        assertThat(ok.details().get("hcas").toString()).contains("PCIe 0000:03:00.0 16 GT/s x16 (max 16 GT/s x16)");
    }

    @Test
    void absentOrUnknownPcieAttributesAreNoLink() {
        assertThat(PcieLink.of("0000:03:00.0", "", "", "", "")).isEmpty();
        assertThat(PcieLink.of("0000:03:00.0", "Unknown", "0", "16.0 GT/s PCIe", "16")).isEmpty();
        assertThat(PcieLink.of("0000:03:00.0", "8 GT/s", "8", "8 GT/s", "8")).hasValueSatisfying(l -> assertThat(l.degraded()).isFalse());
    }
}
