package io.rdmastorage.probe.check;

import static io.rdmastorage.probe.testing.LustreFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LustreFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LustreLnet through the real probe CLI on fixture hosts: each recorded lnetctl sample gives its status and reason. */
class LustreLnetCheckTest {

    @TempDir
    Path dir;

    private JsonNode check(FixtureHost host) {
        return ProbeRun.withSpec(host, SPEC).check("LustreLnet");
    }

    @Test
    void aMountThroughO2ibNidsWithHealthyNisAndPeersIsTrue() {
        JsonNode check = check(LustreFixtures.healthy(FixtureHost.at(dir)));

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("MountsOverRdma");
        assertThat(check.path("message").asText()).contains("/mnt/lustre (" + O2IB_DEVICE + ")", "o2ib (2 NI(s) up, lowest health 1000)",
                "2 peer(s) with an o2ib NID up");
    }

    @Test
    void theRealMultiRailClientIsTrue() {
        FixtureHost host = LustreFixtures.base(FixtureHost.at(dir), part(MULTIRAIL, "/proc/1/mounts").split(" ")[0]);
        host.tool(LNETCTL).on("net", "show", "-v", "3").prints(part(MULTIRAIL, "lnetctl net show"))
                .on("peer", "show", "-v", "3").prints(part(MULTIRAIL, "lnetctl peer show"));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        // the recorded lnetctl ran without -v: the message says the health values were not shown
        assertThat(check.path("message").asText()).contains("o2ib (4 NI(s) up, health not shown by this lnetctl)", "o2ib1 (4 NI(s) up");
    }

    /** The MGS on tcp only, the object and metadata servers on o2ib: the peers of the MGS-on-tcp site. */
    private static final String MGS_TCP_PEERS = """
            peer:
                - primary nid: 10.1.0.5@tcp
                  Multi-Rail: True
                  peer ni:
                    - nid: 10.1.0.5@tcp
                      state: up
                - primary nid: 10.2.0.10@o2ib
                  Multi-Rail: True
                  peer ni:
                    - nid: 10.2.0.10@o2ib
                      state: up
                - primary nid: 10.2.0.12@o2ib
                  Multi-Rail: True
                  peer ni:
                    - nid: 10.2.0.12@o2ib
                      state: up
                - primary nid: 10.2.0.13@o2ib
                  Multi-Rail: True
                  peer ni:
                    - nid: 10.2.0.13@o2ib
                      state: up
            """;

    @Test
    void aMountThroughAnMgsOnTcpWhoseTargetsAreConnectedOverO2ibIsTrueAndSaysTheMgsCarriesNoFileData() {
        FixtureHost host = LustreFixtures.withImports(FixtureHost.at(dir), IMPORTS_MGS_TCP, MGS_TCP_PEERS);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("/mnt/lustre (3 target(s) over o2ib; its MGS 10.1.0.5@tcp is "
                + "reached over tcp, which carries the configuration log, no file data)", "3 peer(s) with an o2ib NID up");
    }

    @Test
    void anOstWhoseImportFellBackToATcpNidIsMountOverTcpNamingItAndItsO2ibNid() {
        String peers = MGS_TCP_PEERS.replace("10.1.0.5@tcp", "10.1.0.13@tcp");   // the OSS's tcp NID is a peer of its own
        FixtureHost host = LustreFixtures.withImports(FixtureHost.at(dir), IMPORTS_OST_ON_TCP, peers);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MountOverTcp");
        assertThat(check.path("message").asText()).contains("1 of its 4 target(s) are connected through non-o2ib NIDs "
                + "(lustrefs-OST0001 via 10.1.0.13@tcp (FULL))", "Their o2ib NIDs are configured (10.2.0.13@o2ib)",
                "lctl --device <import name> recover");
    }

    @Test
    void aTcpNidOfAMultiRailPeerWhoseO2ibNidIsUpIsNoEvidenceOfTcp() {
        // OST0001's server answers on both: LNet Multi-Rail picks the network per message, not the import's NID
        String peers = MGS_TCP_PEERS.replace("10.1.0.5@tcp", "10.2.0.11@o2ib").replace("""
                    - nid: 10.2.0.13@o2ib
                      state: up
            """, """
                    - nid: 10.2.0.13@o2ib
                      state: up
                    - nid: 10.1.0.13@tcp
                      state: up
            """);
        FixtureHost host = LustreFixtures.withImports(FixtureHost.at(dir), IMPORTS_OST_ON_TCP, peers);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
    }

    @Test
    void anMgsOnTcpWithoutReadableImportsIsUnknownNotMountOverTcp() {
        FixtureHost host = LustreFixtures.withImports(FixtureHost.at(dir), IMPORTS_MGS_TCP, MGS_TCP_PEERS);
        host.tool(LCTL).on(GET_IMPORTS).exits(2, "", io.rdmastorage.probe.testing.Samples.body(IMPORTS_ENOENT));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolFailed");
        assertThat(check.path("message").asText()).contains("names only the MGS's tcp NIDs, and the MGS carries no file data",
                "lctl get_param mdc.*.import osc.*.import").doesNotContain("PeerOnTcp", "10.1.0.5@tcp on tcp");
    }

    @Test
    void degradedHealthValuesAreHealthDegraded() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));
        host.tool(LNETCTL).on("net", "show", "-v", "3").printsSample(DEGRADED_NET);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("HealthDegraded");
        assertThat(check.path("message").asText()).contains("192.168.2.71@o2ib on ib1 up health 979", "1 more", "health 66");
    }

    @Test
    void aDownO2ibNiIsRdmaNetworkDown() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));
        host.tool(LNETCTL).on("net", "show", "-v", "3").printsSample(NI_DOWN_NET);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("RdmaNetworkDown");
        assertThat(check.path("message").asText()).contains("1 of its 2 local NI(s) down", "172.16.0.24@o2ib on ib0+ib3 down");
    }

    @Test
    void aClientMountedThroughTcpNidsIsMountOverTcpAndItsO2ibLessNetworkIsNamed() {
        FixtureHost host = LustreFixtures.base(FixtureHost.at(dir), "192.168.234.10@tcp:/demo");
        host.tool(LNETCTL).on("net", "show", "-v", "3").prints(part(TCP_CLIENT, "lnetctl net show"))
                .on("peer", "show", "-v", "3").prints(part(TCP_CLIENT, "lnetctl ping 192.168.234.10@tcp").replace("ping:", "peer:"));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MountOverTcp");
        // the MGS's own tcp NID is the mount's finding, not a second PeerOnTcp
        assertThat(check.path("message").asText()).contains("mounted through tcp NIDs only (192.168.234.10@tcp)", "port 988",
                "this client has no o2ib NI up").doesNotContain("also");
    }

    @Test
    void theO2ibNetworkMissingOnTheClientIsRdmaNetworkDownAndSaysKo2iblndIsNotLoaded() {
        FixtureHost host = LustreFixtures.base(FixtureHost.at(dir), O2IB_DEVICE);
        host.delete("/sys/module/ko2iblnd");
        host.tool(LNETCTL).on("net", "show", "-v", "3").prints(part(TCP_CLIENT, "lnetctl net show"))
                .on("peer", "show", "-v", "3").prints("");

        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("RdmaNetworkDown");
        assertThat(check.path("message").asText()).contains("lists only tcp", "modprobe ko2iblnd", "lnetctl net add --net o2ib");
    }

    @Test
    void aServerWhoseO2ibNidIsDownButTcpUpIsPeerOnTcp() {
        FixtureHost host = LustreFixtures.base(FixtureHost.at(dir), "10.10.0.11@o2ib:/lustre");
        host.tool(LNETCTL).on("net", "show", "-v", "3").prints(o2ibNet("10.10.0.2@o2ib"))
                .on("peer", "show", "-v", "3").printsSample(PEERS_V3);

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PeerOnTcp");
        assertThat(check.path("message").asText()).contains("10.10.0.11@o2ib is reachable by o2ib NID(s) that are all down",
                "192.168.0.11@tcp up", "10.10.0.12@o2ib health 400");
        assertThat(check.path("details").path("peersOnTcp").toString()).contains("10.10.0.11@o2ib");
    }

    @Test
    void tcpOnlyServersAreNamedPeerOnTcp() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));
        host.tool(LNETCTL).on("peer", "show", "-v", "3").printsSample(PEERS_TCP);

        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("PeerOnTcp");
        assertThat(check.path("message").asText()).contains("10.1.1.203@tcp is reachable only by 10.1.1.203@tcp, 1.203.71.0@efa",
                "6 more");
    }

    @Test
    void lnetDownWhileMountedIsSourcesDisagree() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));
        // lnetctl writes its error document to stderr and exits non-zero
        host.tool(LNETCTL).on("net", "show", "-v", "3").exits(255, "", io.rdmastorage.probe.testing.Samples.body(LNET_DOWN));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("SourcesDisagree");
        assertThat(check.path("message").asText()).contains("Network is down");
    }

    @Test
    void lnetNotLoadedAndNothingMountedAgreeAndAreNotMountedWithoutAnInventedDisagreement() {
        FixtureHost host = FixtureHost.at(dir).file("/proc/1/mounts", "/dev/sda2 / ext4 rw,relatime 0 0\n");
        host.mkdir("/sys/class/net/ib0");
        host.tool(LNETCTL).on("net", "show", "-v", "3").exits(255, "", io.rdmastorage.probe.testing.Samples.body(LNET_DOWN));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("NotMounted");
        assertThat(check.path("message").asText()).contains("/mnt/lustre has no Lustre client mount", "LNet is not up either")
                .doesNotContain("disagree", "has Lustre client mounts");
        assertThat(check.path("details").path("problems").toString()).doesNotContain("SourcesDisagree");
    }

    @Test
    void noLnetctlIsToolNotFoundUnknownAndTheInventorySaysNothingOfLnet() {
        FixtureHost host = LustreFixtures.base(FixtureHost.at(dir), O2IB_DEVICE);

        ProbeRun run = ProbeRun.withSpec(host, SPEC);
        JsonNode check = run.check("LustreLnet");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolNotFound");
        assertThat(run.report().path("inventory").path("lustreVersion").asText()).isEqualTo("2.15.4");
        assertThat(run.report().path("inventory").has("lnetNetworks")).isFalse();
    }

    @Test
    void garbageIsOutputUnparseable() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));
        host.tool(LNETCTL).on("net", "show", "-v", "3").prints("lnetctl: invalid option -- 'v'\nusage: ...\n");

        assertThat(check(host).path("reason").asText()).isEqualTo("OutputUnparseable");
    }

    @Test
    void aListedMountPointWithoutLustreIsNotMounted() {
        FixtureHost host = LustreFixtures.healthy(FixtureHost.at(dir));

        JsonNode check = ProbeRun.withSpec(host, "{\"lustre\":{\"mounts\":[\"/mnt/lustre\",\"/mnt/scratch\"]}}").check("LustreLnet");

        assertThat(check.path("reason").asText()).isEqualTo("NotMounted");
        assertThat(check.path("message").asText()).contains("/mnt/scratch has no Lustre client mount");
    }

    @Test
    void withoutASpecTheCheckRunsWhereALustreClientMountExistsAndReportsTheInventory() {
        ProbeRun run = ProbeRun.on(LustreFixtures.healthy(FixtureHost.at(dir)));

        assertThat(run.check("LustreLnet").path("status").asText()).isEqualTo("True");
        assertThat(run.report().path("inventory").path("lnetNetworks").asText()).isEqualTo("o2ib");
        assertThat(ProbeRun.on(FixtureHost.at(dir.resolve("bare")).file("/proc/1/mounts", "/dev/sda2 / ext4 rw 0 0\n"))
                .hasCheck("LustreLnet")).isFalse();
    }

    @Test
    void aNetworkThatIsNotO2ibIsRefusedBeforeAnythingRuns() {
        ProbeRun run = ProbeRun.withSpec(LustreFixtures.healthy(FixtureHost.at(dir)), "{\"lustre\":{\"networks\":[\"tcp0\"]}}");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("lustre.networks[0]", "must be an o2ib LNet network");
    }

    /** A one-NI o2ib network in net show's layout, NID given: the recorded healthy sample with its first NI renamed. */
    private static String o2ibNet(String nid) {
        return io.rdmastorage.probe.testing.Samples.body(HEALTHY_NET).replace("172.16.0.24@o2ib", nid);
    }
}
