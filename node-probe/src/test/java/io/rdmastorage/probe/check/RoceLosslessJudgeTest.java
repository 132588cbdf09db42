package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.check.RoceLosslessCheck.Facts;
import io.rdmastorage.probe.check.RoceLosslessCheck.RocePort;
import io.rdmastorage.probe.check.RoceLosslessCheck.Source;
import io.rdmastorage.probe.parse.DcbAppTrust;
import io.rdmastorage.probe.parse.MlnxQos;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** RoceLossless's rules on fact records: one port, each setting from its sources. */
class RoceLosslessJudgeTest {

    private static final ProbeSpec SPEC = spec(List.of(), List.of());
    /** The real healthy mlnx_qos output: trust dscp, default dscp2prio (26 → 3), PFC on 3 only. */
    private static final MlnxQos HEALTHY_QOS = MlnxQos.parse(Samples.body("roce/mlnx_qos_dscp_pfc-prio3_xtrace.txt")).orElseThrow();
    private static final Map<Integer, Boolean> ALL_ON = Map.of(0, true, 1, true, 2, true, 3, true, 4, true, 5, true, 6, true, 7, true);

    private static ProbeSpec spec(List<String> devices, List<Integer> pfc) {
        return new ProbeSpec(null, null, null, null, null, null, new ProbeSpec.Roce(26, 3, devices, pfc));
    }

    private static <T> Source<T> absent(String tool) {
        return Source.absent(tool, tool + " not found under the host root");
    }

    /** A port where mlnx_qos, ECN sysfs and configfs all show the healthy setup; dcb absent. */
    private static RocePort healthy() {
        return new RocePort("mlx5_0", 1, Optional.of("eth0"), Source.of("mlnx_qos -i eth0", HEALTHY_QOS), absent("dcb"), absent("dcb"), absent("dcb"),
                ALL_ON, ALL_ON, Optional.of(48), Optional.of(106), Optional.empty(), false);
    }

    private static RocePort with(RocePort p, Source<MlnxQos> qos, Source<Set<Integer>> pfc, Source<Map<Integer, Set<Integer>>> app) {
        return new RocePort(p.device(), p.port(), p.netdev(), qos, pfc, app, p.dcbAppTrust(), p.ecnNp(), p.ecnRp(), p.cnpDscp(), p.configfsTos(),
                p.trafficClassTos(), p.trafficClassUnset());
    }

    private static RocePort tos(RocePort p, Optional<Integer> configfs, Optional<Integer> tc, boolean tcUnset) {
        return new RocePort(p.device(), p.port(), p.netdev(), p.mlnxQos(), p.dcbPfc(), p.dcbApp(), p.dcbAppTrust(), p.ecnNp(), p.ecnRp(), p.cnpDscp(),
                configfs, tc, tcUnset);
    }

    private static CheckResult verdict(ProbeSpec spec, RocePort... ports) {
        return new RoceLosslessCheck().result(new Facts("/host", true, List.of("mlx5_0"), List.of(), List.of(ports)), spec);
    }

    private static CheckResult verdict(RocePort... ports) {
        return verdict(SPEC, ports);
    }

    private static Source<MlnxQos> qos(String trust, Map<Integer, Integer> map, Set<Integer> pfc) {
        return Source.of("mlnx_qos -i eth0", new MlnxQos(Optional.ofNullable(trust), map, Optional.ofNullable(pfc)));
    }

    @Test
    void healthyPortIsLosslessAndShowsTheFleetFacts() {
        CheckResult result = verdict(healthy());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("LosslessConfigured");
        assertThat(result.message()).isEqualTo("mlx5_0/1 (eth0): trust dscp, DSCP 26 on priority 3, PFC on priority 3, ECN on, "
                + "default ToS with DSCP 26");
        @SuppressWarnings("unchecked")
        Map<String, Object> port = ((List<Map<String, Object>>) result.details().get("ports")).get(0);
        assertThat(port).containsEntry("trust", "dscp").containsEntry("pfc", List.of(3)).containsEntry("ecnNp", true)
                .containsEntry("cnpDscp", 48).containsEntry("defaultTos", 106).containsEntry("netdev", "eth0");
    }

    @Test
    void trustPcpIsFalse() {
        CheckResult result = verdict(with(healthy(), qos("pcp", Map.of(), Set.of(3)), absent("dcb"), absent("dcb")));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("TrustNotDscp");
        assertThat(result.message()).contains("mlnx_qos -i eth0 --trust dscp").contains("expected 'Priority trust state: dscp'");
    }

    @Test
    void dscpOnAnotherPriorityIsNotMapped() {
        CheckResult result = verdict(with(healthy(), qos("dscp", Map.of(26, 0), Set.of(3)), absent("dcb"), absent("dcb")));

        assertThat(result.reason()).isEqualTo("DscpNotMappedToLossless");
        assertThat(result.message()).contains("maps the storage DSCP 26 to priority 0").contains("dcb app replace dev eth0 dscp-prio 26:3");
    }

    @Test
    void pfcOffOnTheStoragePriorityOrOnAnUnlistedOne() {
        CheckResult off = verdict(with(healthy(), qos("dscp", Map.of(26, 3), Set.of()), absent("dcb"), absent("dcb")));
        CheckResult extra = verdict(with(healthy(), qos("dscp", Map.of(26, 3), Set.of(3, 4)), absent("dcb"), absent("dcb")));
        CheckResult listed = verdict(spec(List.of(), List.of(4)),
                with(healthy(), qos("dscp", Map.of(26, 3), Set.of(3, 4)), absent("dcb"), absent("dcb")));

        assertThat(off.reason()).isEqualTo("PfcNotOnStoragePriority");
        assertThat(off.message()).contains("not on the lossless priority 3").contains("--pfc 0,0,0,1,0,0,0,0")
                .contains("dcb pfc set dev eth0 prio-pfc all:off 3:on");
        assertThat(extra.reason()).isEqualTo("PfcNotOnStoragePriority");
        assertThat(extra.message()).contains("and on priority 4 the spec does not list");
        assertThat(listed.status()).isEqualTo(Status.TRUE);
    }

    @Test
    void ecnOffOnThePriorityIsFalse() {
        RocePort p = healthy();
        RocePort off = new RocePort(p.device(), p.port(), p.netdev(), p.mlnxQos(), p.dcbPfc(), p.dcbApp(), p.dcbAppTrust(), Map.of(3, true),
                Map.of(3, false), p.cnpDscp(), p.configfsTos(), p.trafficClassTos(), false);

        CheckResult result = verdict(off);
        assertThat(result.reason()).isEqualTo("EcnDisabled");
        assertThat(result.message()).contains("roce_rp (reaction point)").contains("echo 1 > /sys/class/net/eth0/ecn/roce_rp/enable/3");
    }

    @Test
    void defaultTosWithoutTheStorageDscpIsFalseAndSaysTheShift() {
        CheckResult result = verdict(tos(healthy(), Optional.of(0), Optional.empty(), false));

        assertThat(result.reason()).isEqualTo("DefaultTosMismatch");
        assertThat(result.message()).contains("ToS 0 (DSCP 0").contains("cma_roce_tos -d mlx5_0 -t 106")
                .contains("ToS 104 (= DSCP 26 << 2; 106 also marks ECT(0))");
        // the global traffic class alone is a source too
        assertThat(verdict(tos(healthy(), Optional.empty(), Optional.of(106), false)).status()).isEqualTo(Status.TRUE);
    }

    @Test
    void absentSourcesAreNoFailureButNoSourceIsUnknown() {
        // dcb alone answers everything mlnx_qos would
        RocePort dcbOnly = with(healthy(), absent("mlnx_qos"), Source.of("dcb pfc show dev eth0", Set.of(3)),
                Source.of("dcb -N app show dev eth0 dscp-prio", Map.of(26, Set.of(3))));
        assertThat(verdict(dcbOnly).status()).isEqualTo(Status.TRUE);

        RocePort none = with(healthy(), absent("mlnx_qos"), absent("dcb"), absent("dcb"));
        CheckResult result = verdict(none);
        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("LosslessConfigUnreadable");
        assertThat(result.message()).contains("install MLNX_OFED's mlnx_qos (mlnx-tools) or iproute2's dcb")
                .contains("mlnx_qos not found under the host root");

        CheckResult noTos = verdict(tos(healthy(), Optional.empty(), Optional.empty(), true));
        assertThat(noTos.reason()).isEqualTo("LosslessConfigUnreadable");
        assertThat(noTos.message()).contains("traffic_class is empty").contains("mkdir /sys/kernel/config/rdma_cm/mlx5_0");
    }

    @Test
    void anEmptyDcbAppTableSaysNothingOnTrustOrMapping() {
        RocePort p = with(healthy(), absent("mlnx_qos"), Source.of("dcb pfc show dev eth0", Set.of(3)),
                Source.of("dcb -N app show dev eth0 dscp-prio", Map.of()));

        CheckResult result = verdict(p);
        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.message()).contains("trust state unreadable");
    }

    @Test
    void sourcesThatDisagreeAreUnknownNamingBoth() {
        RocePort pfc = with(healthy(), Source.of("mlnx_qos -i eth0", HEALTHY_QOS), Source.of("dcb pfc show dev eth0", Set.of(6, 7)),
                absent("dcb"));
        CheckResult result = verdict(pfc);
        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("mlnx_qos says on for priority 3").contains("`dcb pfc show dev eth0` for priority 6,7");

        CheckResult tos = verdict(tos(healthy(), Optional.of(106), Optional.of(0), false));
        assertThat(tos.reason()).isEqualTo("SourcesDisagree");
        assertThat(tos.message()).contains("default_roce_tos is 106").contains("'Global tclass=0'");

        RocePort trust = with(healthy(), qos("pcp", Map.of(), Set.of(3)), absent("dcb"),
                Source.of("dcb -N app show dev eth0 dscp-prio", Map.of(26, Set.of(3))));
        assertThat(verdict(trust).reason()).isEqualTo("SourcesDisagree");
    }

    private static RocePort appTrust(RocePort p, Source<List<String>> order) {
        return new RocePort(p.device(), p.port(), p.netdev(), p.mlnxQos(), p.dcbPfc(), p.dcbApp(), order, p.ecnNp(), p.ecnRp(),
                p.cnpDscp(), p.configfsTos(), p.trafficClassTos(), p.trafficClassUnset());
    }

    private static Source<List<String>> order(String sample) {
        return Source.of("dcb apptrust show dev eth0", DcbAppTrust.order(Samples.body(sample)).orElseThrow());
    }

    /** dcb alone, without mlnx_qos: PFC on 3, the APP table mapping 26 to 3. */
    private static RocePort dcbOnly() {
        return with(healthy(), absent("mlnx_qos"), Source.of("dcb pfc show dev eth0", Set.of(3)),
                Source.of("dcb -N app show dev eth0 dscp-prio", Map.of(26, Set.of(3))));
    }

    @Test
    void dcbApptrustWithDscpAheadOfPcpIsTrustDscp() {
        CheckResult result = verdict(appTrust(dcbOnly(), order("roce/dcb-apptrust_order-dscp-pcp_constructed-from-source.txt")));

        assertThat(result.status()).isEqualTo(Status.TRUE);
        @SuppressWarnings("unchecked")
        Map<String, Object> port = ((List<Map<String, Object>>) result.details().get("ports")).get(0);
        assertThat(port).containsEntry("trust", "dscp");
    }

    @Test
    void dcbApptrustWithoutDscpFirstIsTrustNotDscpAndOutranksTheAppTableEntries() {
        // the man page's order: port pcp ethtype. The APP table's DSCP entries would say dscp, but the
        // driver that has apptrust honours them only when dscp is trusted
        CheckResult result = verdict(appTrust(dcbOnly(), order("roce/dcb-apptrust_order-port-pcp-ethtype_man-page-example.txt")));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("TrustNotDscp");
        assertThat(result.message()).startsWith("mlx5_0/1 (eth0) trusts pcp (dcb apptrust order: port pcp ethtype), not dscp")
                .contains("`dcb apptrust set dev eth0 order dscp pcp`");

        CheckResult pcpFirst = verdict(appTrust(dcbOnly(), Source.of("dcb apptrust show dev eth0", List.of("pcp", "dscp"))));
        assertThat(pcpFirst.reason()).isEqualTo("TrustNotDscp");
        CheckResult nothingTrusted = verdict(appTrust(dcbOnly(), Source.of("dcb apptrust show dev eth0", List.of())));
        assertThat(nothingTrusted.message()).contains("trusts none (dcb apptrust order: empty)");
    }

    @Test
    void mlnxQosAndDcbApptrustThatDisagreeOnTrustAreUnknown() {
        RocePort p = appTrust(healthy(), Source.of("dcb apptrust show dev eth0", List.of("pcp")));

        CheckResult result = verdict(p);
        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("trust: mlnx_qos says dscp, `dcb apptrust show dev eth0` order: pcp (trust pcp)");
    }

    @Test
    void dcbThatRanOnANetdevWithoutDcbIsUnreadableSayingSo() {
        // the real answers of iproute2 6.1's dcb on the VM node's veth (samples/roce/*_vm-6.1.txt)
        String unsupported = Samples.body("roce/dcb_veth_operation-not-supported_vm-6.1.txt").strip();
        String unknown = Samples.body("roce/dcb-apptrust_iproute2-6.1_object-unknown_vm-6.1.txt").strip();
        RocePort p = new RocePort("rxe0", 1, Optional.of("veth0"), absent("mlnx_qos"),
                Source.absent("dcb pfc show dev veth0", "'dcb pfc show dev veth0' exited 1: " + unsupported),
                Source.absent("dcb -N app show dev veth0 dscp-prio", "'dcb -N app show dev veth0 dscp-prio' exited 1: " + unsupported),
                Source.absent("dcb apptrust show dev veth0", "'dcb apptrust show dev veth0' exited 1: " + unknown),
                Map.of(), Map.of(), Optional.empty(), Optional.of(104), Optional.empty(), false);

        CheckResult result = verdict(p);
        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("LosslessConfigUnreadable");
        assertThat(result.message()).contains("Attribute read: Operation not supported").contains("Object \"apptrust\" is unknown")
                .contains("veth0's driver answers no DCB request").doesNotContain("install MLNX_OFED");
    }

    @Test
    void aFalseSettingOutranksAnUnreadableOneAndBothAreNamed() {
        RocePort p = tos(with(healthy(), qos("pcp", Map.of(), null), absent("dcb"), absent("dcb")), Optional.empty(), Optional.empty(), false);

        CheckResult result = verdict(p);
        assertThat(result.reason()).isEqualTo("TrustNotDscp");
        assertThat(result.details().get("problems")).isEqualTo(List.of("TrustNotDscp", "LosslessConfigUnreadable"));
    }

    @Test
    void aPortWithoutNetdevIsUnreadable() {
        RocePort p = healthy();
        RocePort noNetdev = new RocePort(p.device(), p.port(), Optional.empty(), absent("mlnx_qos"), absent("dcb"), absent("dcb"), absent("dcb"),
                Map.of(), Map.of(), Optional.empty(), p.configfsTos(), Optional.empty(), false);

        CheckResult result = verdict(noNetdev);
        assertThat(result.reason()).isEqualTo("LosslessConfigUnreadable");
        assertThat(result.message()).contains("has no netdev");
    }

    @Test
    void noRocePort() {
        RoceLosslessCheck check = new RoceLosslessCheck();
        CheckResult ib = check.result(new Facts("/host", true, List.of("mlx5_0"), List.of("mlx5_0/1 InfiniBand"), List.of()), SPEC);
        CheckResult none = check.result(new Facts("/host", true, List.of(), List.of(), List.of()), SPEC);
        CheckResult listed = check.result(new Facts("/host", true, List.of("mlx5_0"), List.of(), List.of(healthy())),
                spec(List.of("mlx5_1/1"), List.of()));

        assertThat(ib.status()).isEqualTo(Status.FALSE);
        assertThat(ib.reason()).isEqualTo("NoRocePort");
        assertThat(ib.message()).contains("mlx5_0/1 InfiniBand");
        assertThat(none.status()).isEqualTo(Status.UNKNOWN);
        assertThat(none.reason()).isEqualTo("NoRocePort");
        assertThat(listed.status()).isEqualTo(Status.FALSE);
        assertThat(listed.message()).contains("mlx5_1/1 (roce.devices) is not an RDMA port with link layer Ethernet");
    }

    @Test
    void withoutTheHostsSysfsItIsHostViewMissing() {
        CheckResult result = new RoceLosslessCheck().result(new Facts("/host", false, List.of(), List.of(), List.of()), SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("HostViewMissing");
    }
}
