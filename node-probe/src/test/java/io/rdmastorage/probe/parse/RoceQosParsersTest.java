package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The RoCE lossless-class parsers on the real outputs of samples/roce/ (man page examples where no capture exists). */
class RoceQosParsersTest {

    private static final String CRLF_SAMPLE = "roce/mlnx_qos_pcp-then-dscp_traffic_class_crlf.txt";

    /** The runs of a terminal copy whose prompt line ends with that command, split at the prompts, CRs kept. */
    private static List<String> runs(String sample, String command) {
        return Arrays.stream(Samples.body(sample).split("\n(?=root@)"))
                .filter(r -> r.lines().findFirst().orElse("").strip().endsWith("# " + command)).toList();
    }

    @Test
    void mlnxQosTrustDscpWithPfcOnPriority3() {
        MlnxQos qos = MlnxQos.parse(Samples.body("roce/mlnx_qos_dscp_pfc-prio3_xtrace.txt")).orElseThrow();

        assertThat(qos.trust()).contains("dscp");
        assertThat(qos.dscpToPrio()).hasSize(64).containsEntry(26, 3).containsEntry(24, 3).containsEntry(0, 0).containsEntry(63, 7);
        assertThat(qos.pfcEnabled()).contains(Set.of(3));
    }

    @Test
    void mlnxQosRealTabsFragmentHasNoPfcTable() {
        MlnxQos qos = MlnxQos.parse(Samples.body("roce/mlnx_qos_dscp2prio_real-tabs_fragment.txt")).orElseThrow();

        assertThat(qos.trust()).contains("dscp");
        assertThat(qos.dscpToPrio()).containsEntry(26, 3).containsEntry(40, 5);
        assertThat(qos.pfcEnabled()).isEmpty();   // cut before "PFC configuration": not "PFC off"
    }

    @Test
    void mlnxQosPcpThenDscpWithCrlfAndPfcAllOff() {
        MlnxQos pcp = MlnxQos.parse(runs(CRLF_SAMPLE, "mlnx_qos -i ens6").get(0)).orElseThrow();
        MlnxQos dscp = MlnxQos.parse(runs(CRLF_SAMPLE, "mlnx_qos -i ens6 --trust dscp").get(0)).orElseThrow();

        assertThat(pcp.trust()).contains("pcp");
        assertThat(pcp.dscpToPrio()).isEmpty();
        assertThat(pcp.pfcEnabled()).contains(Set.of());
        assertThat(dscp.trust()).contains("dscp");
        assertThat(dscp.dscpToPrio()).containsEntry(26, 3);
        assertThat(dscp.pfcEnabled()).contains(Set.of());   // trust dscp alone is still lossy
    }

    @Test
    void mlnxQosRateLimitsAndEmptyDefaultPriorityLineAreSkipped() {
        MlnxQos qos = MlnxQos.parse(Samples.body("roce/mlnx_qos_pcp_ratelimit.txt")).orElseThrow();

        assertThat(qos.trust()).contains("pcp");
        assertThat(qos.pfcEnabled()).contains(Set.of());
    }

    @Test
    void mlnxQosInsideAQueryScriptsIndentedOutput() {
        MlnxQos qos = MlnxQos.parse(Samples.body("roce/rdma-qos-script_ecn_tos_prio5.txt")).orElseThrow();

        assertThat(qos.trust()).contains("dscp");
        assertThat(qos.pfcEnabled()).contains(Set.of(5));
    }

    @Test
    void mlnxQosGarbageAndFailureOutputsAreNotSettings() {
        assertThat(MlnxQos.parse("")).isEmpty();
        assertThat(MlnxQos.parse("Netlink error: Operation not supported\n")).isEmpty();
        assertThat(MlnxQos.parse("usage: mlnx_qos -i <interface> [options]\nmlnx_qos: error: no such interface\n")).isEmpty();
        // a PFC row of the wrong width or with other values is not a PFC answer
        MlnxQos cut = MlnxQos.parse("Priority trust state: dscp\nPFC configuration:\n\tpriority 0 1 2 3\n\tenabled 0 0 0 1\n")
                .orElseThrow();
        assertThat(cut.pfcEnabled()).isEmpty();
        assertThat(MlnxQos.parse("PFC configuration:\n\tenabled 0 0 0 x 0 0 0 0\n")).isEmpty();
        // a malformed mapping row adds nothing
        assertThat(MlnxQos.parse("Priority trust state: dscp\ndscp2prio mapping:\n\tprio:9 dscp:26,\n\tprio:3 dscp:99,\n")
                .orElseThrow().dscpToPrio()).isEmpty();
    }

    @Test
    void dcbPfcManPageExample() {
        assertThat(DcbPfc.enabled(Samples.body("roce/dcb-pfc_prio6-7_man-page-example.txt"))).contains(Set.of(6, 7));
    }

    @Test
    void dcbPfcGarbageAndFailures() {
        assertThat(DcbPfc.enabled("")).isEmpty();
        assertThat(DcbPfc.enabled("Error: Device does not exist\n")).isEmpty();
        assertThat(DcbPfc.enabled("prio-pfc 0:off 1:off 2:off 3:on\n")).isEmpty();   // not all 8 priorities
        assertThat(DcbPfc.enabled("prio-pfc 0:off 1:off 2:off 3:maybe 4:off 5:off 6:off 7:off\n")).isEmpty();
        assertThat(DcbPfc.enabled("pfc-cap 8 macsec-bypass off delay 0\nprio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off\n"))
                .contains(Set.of(3));
    }

    @Test
    void dcbAppDscpPrioNamesAndNumbersReadTheSame() {
        String[] lines = Samples.body("roce/dcb-app_dscp-prio_man-page-example.txt").split("\n");
        Map<Integer, Set<Integer>> symbolic = DcbAppDscp.parse(lines[0]).orElseThrow();
        Map<Integer, Set<Integer>> numeric = DcbAppDscp.parse(lines[1]).orElseThrow();

        assertThat(symbolic).isEqualTo(numeric).containsEntry(24, Set.of(2, 3)).containsEntry(48, Set.of(6)).containsEntry(0, Set.of(0));
        assertThat(DcbAppDscp.parse(lines[2]).orElseThrow()).containsEntry(24, Set.of(4));
        assertThat(DcbAppDscp.parse("dscp-prio AF31:3\n").orElseThrow()).containsEntry(26, Set.of(3));
    }

    @Test
    void dcbAppEmptyTableAndGarbage() {
        assertThat(DcbAppDscp.parse("")).contains(Map.of());   // after `dcb app flush`: an empty table
        String[] lines = Samples.body("roce/dcb-app_dscp-prio_man-page-example.txt").split("\n");
        assertThat(DcbAppDscp.parse(lines[3])).isEmpty();      // pcp-prio is not the DSCP table
        assertThat(DcbAppDscp.parse("Error: Device does not exist\n")).isEmpty();
        assertThat(DcbAppDscp.parse("dscp-prio 26:9\n")).isEmpty();
        assertThat(DcbAppDscp.parse("dscp-prio XX1:3\n")).isEmpty();
    }

    @Test
    void ecnSwitchesAndCnpDscpOfTheQueryScript() {
        String body = Samples.body("roce/rdma-qos-script_ecn_tos_prio5.txt");
        // the script prints '<label>: <sysfs path> = <file content>': the content is what the file holds
        List<String> np5 = body.lines().filter(l -> l.contains("/ecn/roce_np/enable/5 = ")).toList();
        List<String> rp5 = body.lines().filter(l -> l.contains("/ecn/roce_rp/enable/5 = ")).toList();
        String cnp = body.lines().filter(l -> l.contains("/ecn/roce_np/cnp_dscp = ")).findFirst().orElseThrow();
        String tclass = body.lines().filter(l -> l.contains("/traffic_class = ")).findFirst().orElseThrow();

        assertThat(SysfsFlag.parse(value(np5.get(0)))).contains(true);
        assertThat(SysfsFlag.parse(value(rp5.get(0)))).contains(true);
        assertThat(RoceTos.dscpAttribute(value(cnp))).contains(48);
        assertThat(RoceTos.fromTrafficClass(value(tclass))).contains(160);
        assertThat(RoceTos.dscpOf(160)).isEqualTo(40);
    }

    @Test
    void sysfsFlagAndTosGarbage() {
        assertThat(SysfsFlag.parse("0\n")).contains(false);
        assertThat(SysfsFlag.parse("")).isEmpty();
        assertThat(SysfsFlag.parse("2")).isEmpty();
        assertThat(RoceTos.dscpAttribute("64")).isEmpty();
        assertThat(RoceTos.fromConfigfs("106\n")).contains(106);
        assertThat(RoceTos.fromConfigfs("256")).isEmpty();
        assertThat(RoceTos.fromConfigfs("-1")).isEmpty();
        assertThat(RoceTos.fromTrafficClass("Global tclass=abc")).isEmpty();
    }

    @Test
    void trafficClassEmptyUntilWrittenThenGlobalTclass() {
        List<String> cats = runs(CRLF_SAMPLE, "cat /sys/class/infiniband/mlx5_2/tc/1/traffic_class");
        // the cats before the echo printed nothing; the last one printed "Global tclass=106"
        assertThat(cats).hasSize(4);
        assertThat(cats.get(0).lines().skip(1).toList()).isEmpty();
        String last = cats.get(3).replace("\r", "");
        assertThat(RoceTos.trafficClassUnset("")).isTrue();
        assertThat(RoceTos.fromTrafficClass(last.lines().skip(1).findFirst().orElseThrow())).contains(106);
        assertThat(RoceTos.dscpOf(106)).isEqualTo(26);
    }

    private static String value(String scriptLine) {
        return scriptLine.substring(scriptLine.indexOf(" = ") + 3);
    }

    @Test
    void dcbApptrustOrderAsTheManPageAndTheSourcePrintIt() {
        List<String> manPage = DcbAppTrust.order(Samples.body("roce/dcb-apptrust_order-port-pcp-ethtype_man-page-example.txt")).orElseThrow();
        List<String> dscpFirst = DcbAppTrust.order(Samples.body("roce/dcb-apptrust_order-dscp-pcp_constructed-from-source.txt")).orElseThrow();

        assertThat(manPage).containsExactly("port", "pcp", "ethtype");
        assertThat(DcbAppTrust.trust(manPage)).isEqualTo("pcp");
        assertThat(dscpFirst).containsExactly("dscp", "pcp");   // the trailing space and the empty line after it
        assertThat(DcbAppTrust.trust(dscpFirst)).isEqualTo("dscp");
        assertThat(DcbAppTrust.trust(List.of("pcp", "dscp"))).isEqualTo("pcp");
        assertThat(DcbAppTrust.trust(List.of("port", "dscp"))).isEqualTo("dscp");
        // "set ... order" with no selectors removes trust entirely: dcb then prints the bare label
        assertThat(DcbAppTrust.order("order: \n\n")).contains(List.of());
        assertThat(DcbAppTrust.trust(List.of())).isEqualTo("none");
    }

    @Test
    void dcbApptrustErrorsAndOtherTextAreNoOrder() {
        // what iproute2 6.1 prints (on stderr; stdout stays empty) for an object it does not know
        assertThat(DcbAppTrust.order(Samples.body("roce/dcb-apptrust_iproute2-6.1_object-unknown_vm-6.1.txt"))).isEmpty();
        assertThat(DcbAppTrust.order("")).isEmpty();
        assertThat(DcbAppTrust.order("order: dscp bogus\n")).isEmpty();
        assertThat(DcbAppTrust.order("order: dscp dscp\n")).isEmpty();
    }

    @Test
    void configfsDefaultRoceTosReadBackFromTheRealKernel() {
        // samples/roce/configfs_*_vm-6.1.txt: "what: output" per step of the recording
        Map<String, String> steps = new java.util.LinkedHashMap<>();
        Samples.body("roce/configfs_rdma_cm_rxe0_default_roce_mode-tos_vm-6.1.txt").lines()
                .forEach(l -> steps.put(l.substring(0, l.indexOf(": ")), l.substring(l.indexOf(": ") + 2) + "\n"));

        assertThat(RoceTos.fromConfigfs(steps.get("default_roce_tos"))).contains(0);
        assertThat(RoceTos.fromConfigfs(steps.get("after 'echo 106 > default_roce_tos'"))).contains(106);
        assertThat(RoceTos.dscpOf(106)).isEqualTo(26);
        assertThat(RoceTos.fromConfigfs(steps.get("default_roce_mode"))).isEmpty();   // "RoCE v2" is no ToS
    }
}
