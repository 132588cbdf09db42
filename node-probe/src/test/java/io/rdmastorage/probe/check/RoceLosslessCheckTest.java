package io.rdmastorage.probe.check;

import static io.rdmastorage.probe.testing.RoceFixtures.DCB;
import static io.rdmastorage.probe.testing.RoceFixtures.ECN;
import static io.rdmastorage.probe.testing.RoceFixtures.SPEC;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.RoceFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RoceLossless through the CLI on fixture hosts, one per reason. */
class RoceLosslessCheckTest {

    private static final String CRLF = "roce/mlnx_qos_pcp-then-dscp_traffic_class_crlf.txt";

    @TempDir
    Path dir;

    private FixtureHost host() {
        return FixtureHost.at(dir.resolve("root"));
    }

    private static JsonNode check(FixtureHost host, String spec) {
        ProbeRun run = ProbeRun.withSpec(host, spec);
        assertThat(run.stdout().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
        return run.check("RoceLossless");
    }

    private static JsonNode check(FixtureHost host) {
        return check(host, SPEC);
    }

    @Test
    void healthyRoceNodeIsLosslessFromMlnxQosAlone() {
        JsonNode check = check(RoceFixtures.healthy(host()));

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigured");
        JsonNode port = check.path("details").path("ports").get(0);
        assertThat(port.path("port").asText()).isEqualTo("mlx5_0/1");
        assertThat(port.path("trust").asText()).isEqualTo("dscp");
        assertThat(port.path("pfc").toString()).isEqualTo("[3]");
        assertThat(port.path("cnpDscp").asInt()).isEqualTo(48);
        assertThat(port.path("defaultTos").asInt()).isEqualTo(106);
    }

    @Test
    void withoutARoceSectionTheCheckIsNotRun() {
        assertThat(ProbeRun.withSpec(RoceFixtures.healthy(host()), "{\"rdma\":{}}").hasCheck("RoceLossless")).isFalse();
    }

    @Test
    void trustPcp() {
        FixtureHost host = RoceFixtures.mlnxQos(RoceFixtures.healthy(host()), Samples.body("roce/mlnx_qos_pcp_ratelimit.txt"));
        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("TrustNotDscp");
        assertThat(check.path("message").asText()).contains("mlnx_qos -i eth0 --trust dscp");
    }

    @Test
    void trustDscpWithPfcStillOffEverywhere() {
        String run = RoceFixtures.lastRun(Samples.body(CRLF), "root@centos12:/home/centos12# mlnx_qos -i ens6 --trust dscp");
        JsonNode check = check(RoceFixtures.mlnxQos(RoceFixtures.healthy(host()), run));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PfcNotOnStoragePriority");
        assertThat(check.path("message").asText()).contains("--pfc 0,0,0,1,0,0,0,0");
    }

    @Test
    void storageDscpOnAnotherPriority() {
        // DSCP 40 is in the default table's prio:5 row
        JsonNode check = check(RoceFixtures.healthy(host()), "{\"roce\":{\"dscp\":40,\"priority\":3}}");

        assertThat(check.path("reason").asText()).isEqualTo("DscpNotMappedToLossless");
        assertThat(check.path("message").asText()).contains("maps the storage DSCP 40 to priority 5");
    }

    @Test
    void ecnReactionPointOff() {
        JsonNode check = check(RoceFixtures.healthy(host()).file(ECN + "roce_rp/enable/3", "0\n"));

        assertThat(check.path("reason").asText()).isEqualTo("EcnDisabled");
    }

    @Test
    void defaultTosZero() {
        JsonNode check = check(RoceFixtures.healthy(host()).file(RoceFixtures.CONFIGFS_TOS, "0\n"));

        assertThat(check.path("reason").asText()).isEqualTo("DefaultTosMismatch");
        assertThat(check.path("message").asText()).contains("cma_roce_tos -d mlx5_0 -t 106");
    }

    @Test
    void noQosToolAndNoConfigfsIsUnreadable() {
        FixtureHost host = RoceFixtures.healthy(host()).delete(RoceFixtures.MLNX_QOS).delete("/sys/kernel/config");
        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigUnreadable");
        assertThat(check.path("message").asText()).contains("install MLNX_OFED's mlnx_qos (mlnx-tools) or iproute2's dcb");
    }

    @Test
    void dcbAloneIsEnough() {
        // constructed: dcb answers in the format of the iproute2 man pages (samples/roce/dcb-*), for eth0's lossless setup
        FixtureHost host = RoceFixtures.healthy(host()).delete(RoceFixtures.MLNX_QOS);
        host.tool(DCB).on("pfc", "show", "dev", "eth0").prints("pfc-cap 8 macsec-bypass off delay 0\n"
                        + "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off\n")
                .on("-N", "app", "show", "dev", "eth0", "dscp-prio").prints("dscp-prio 26:3\n");

        assertThat(check(host).path("status").asText()).isEqualTo("True");
    }

    @Test
    void dcbApptrustWithoutDscpFirstIsTrustNotDscp() {
        FixtureHost host = RoceFixtures.healthy(host()).delete(RoceFixtures.MLNX_QOS);
        host.tool(DCB).on("pfc", "show", "dev", "eth0").prints("pfc-cap 8 macsec-bypass off delay 0\n"
                        + "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off\n")
                .on("-N", "app", "show", "dev", "eth0", "dscp-prio").prints("dscp-prio 26:3\n")
                .on("apptrust", "show", "dev", "eth0").printsSample("roce/dcb-apptrust_order-port-pcp-ethtype_man-page-example.txt");
        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("TrustNotDscp");
        assertThat(check.path("message").asText()).contains("(dcb apptrust order: port pcp ethtype)")
                .contains("dcb apptrust set dev eth0 order dscp pcp");
        assertThat(check.path("details").path("ports").get(0).path("trust").asText()).isEqualTo("pcp");
    }

    @Test
    void dcbOnANetdevWithoutDcbIsAnAbsentSourceSayingSo() {
        // the real answers of iproute2 6.1 on the VM node's veth, whose driver has no DCB operations
        String unsupported = Samples.body("roce/dcb_veth_operation-not-supported_vm-6.1.txt");
        FixtureHost host = RoceFixtures.healthy(host()).delete(RoceFixtures.MLNX_QOS);
        host.tool(DCB).on("pfc", "show", "dev", "eth0").fails(1, unsupported)
                .on("-N", "app", "show", "dev", "eth0", "dscp-prio").fails(1, unsupported)
                .on("apptrust", "show", "dev", "eth0").fails(1, Samples.body("roce/dcb-apptrust_iproute2-6.1_object-unknown_vm-6.1.txt"));
        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigUnreadable");
        assertThat(check.path("message").asText()).contains("'dcb apptrust show dev eth0' exited 1: Object \"apptrust\" is unknown")
                .contains("eth0's driver answers no DCB request");
    }

    @Test
    void mlnxQosAndDcbDisagreeOnPfc() {
        FixtureHost host = RoceFixtures.healthy(host());
        host.tool(DCB).on("pfc", "show", "dev", "eth0").printsSample("roce/dcb-pfc_prio6-7_man-page-example.txt")
                .on("-N", "app", "show", "dev", "eth0", "dscp-prio").prints("");
        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("SourcesDisagree");
        assertThat(check.path("message").asText()).contains("mlnx_qos").contains("dcb pfc show dev eth0");
    }

    @Test
    void aFailingMlnxQosIsAnAbsentSource() {
        FixtureHost host = RoceFixtures.healthy(host());
        host.tool(RoceFixtures.MLNX_QOS).on("-i", "eth0").fails(1, "Netlink error: Operation not supported\n");
        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigUnreadable");
        assertThat(check.path("message").asText()).contains("exited 1: Netlink error: Operation not supported");
    }

    @Test
    void sixteenFailingPortsStayWithinTheReportLimit() {
        FixtureHost host = host();
        for (int d = 0; d < 16; d++) {
            String port = "/sys/class/infiniband/mlx5_" + d + "/ports/1/";
            host.file(port + "link_layer", "Ethernet\n").file(port + "gid_attrs/ndevs/0", "enp" + d + "s0f0np0\n");
        }
        host.tool(RoceFixtures.MLNX_QOS).otherwise().printsSample("roce/mlnx_qos_pcp_ratelimit.txt");
        JsonNode check = check(host);   // asserts the 4 KiB limit

        assertThat(check.path("reason").asText()).isEqualTo("TrustNotDscp");
        assertThat(check.path("message").asText()).contains("also ");
        assertThat(check.path("details").path("ports").size()).isEqualTo(CheckResult.MAX_LIST_ITEMS);
        assertThat(check.path("details").path("portsTotal").asInt()).isEqualTo(16);
    }

    @Test
    void infinibandOnlyNodeHasNoRocePort() {
        JsonNode check = check(RdmaFixtures.healthy(host()));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("NoRocePort");
    }

    @Test
    void aPortWhoseLinkLayerCannotBeReadIsUnknownNotInfiniband() {
        JsonNode check = check(RoceFixtures.healthy(host()).delete(RoceFixtures.PORT + "link_layer"));

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("NoRocePort");
        assertThat(check.path("message").asText()).contains("mlx5_0/1 unreadable link_layer");
    }

    @Test
    void aRoceLagPortIsJudgedOnTheBondsSlaves() {
        // mlnx_qos answers for the Ethernet ports (the stub only for eth0); bond0 itself has no DCB
        FixtureHost host = RoceFixtures.healthy(host()).file(RoceFixtures.PORT + "gid_attrs/ndevs/0", "bond0\n")
                .file("/sys/class/net/bond0/bonding/slaves", "eth0\n");

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("message").asText()).startsWith("mlx5_0/1 (eth0): trust dscp");
    }

    @Test
    void withoutTheHostsSysfs() {
        JsonNode check = check(host().mkdir("/etc"));

        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
    }
}
