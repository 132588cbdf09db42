package io.rdmastorage.probe.check;

import static io.rdmastorage.probe.testing.BeegfsFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.BeegfsFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LustreFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BeegfsRdma through the real probe CLI on fixture hosts: each recorded /proc/fs/beegfs sample gives its status and reason. */
class BeegfsRdmaCheckTest {

    @TempDir
    Path dir;

    private JsonNode check(FixtureHost host) {
        return ProbeRun.withSpec(host, SPEC).check("BeegfsRdma");
    }

    @Test
    void everyServerOnRdmaOnlyIsTrue() {
        ProbeRun run = ProbeRun.withSpec(BeegfsFixtures.healthy(FixtureHost.at(dir)), SPEC);
        JsonNode check = run.check("BeegfsRdma");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("ServersOverRdma");
        assertThat(check.path("message").asText()).contains("/mnt/beegfs (3 server(s) on RDMA only)");
        assertThat(run.report().path("inventory").path("beegfsVersion").asText()).isEqualTo("7.4.5");
    }

    @Test
    void aTcpConnectionOnAFallbackRouteBesideRdmaIsServerOnTcpNamingTheServer() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file(CLIENT + "/meta_nodes", Samples.body(FALLBACK_ROUTE));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("ServerOnTcp");
        assertThat(check.path("message").asText()).contains("alias-mds1 [ID: 1]", "1 TCP (192.168.64.2:8005, fallback route)",
                "beside 63 RDMA", "fell back from RDMA", "1 more");
        assertThat(check.path("details").path("serversOnTcp").toString()).contains("alias-mds1 [ID: 1]", "mds3 [ID: 1]");
    }

    @Test
    void aStorageServerOnTcpOnlyIsServerOnTcpAndAMissingInterfacesFileIsTheWhy() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file(CLIENT + "/storage_nodes", Samples.body(TCP_ONLY));
        host.delete("/etc/beegfs/rdma-interfaces.conf");

        JsonNode check = check(host);

        assertThat(check.path("reason").asText()).isEqualTo("ServerOnTcp");
        assertThat(check.path("message").asText()).contains("localhost [ID: 1]", "4 TCP (10.193.113.4:8003)",
                "connRDMAInterfacesFile /etc/beegfs/rdma-interfaces.conf is absent on the host");
    }

    @Test
    void connUseRdmaOffIsRdmaDisabledAndItsServersOnTcpSayWhy() {
        FixtureHost host = BeegfsFixtures.base(FixtureHost.at(dir), LustreFixtures.part(CONFIG, "rdma off"));
        host.file(CLIENT + "/storage_nodes", Samples.body(TCP_ONLY));
        host.file(CLIENT + "/meta_nodes", "");

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("RdmaDisabled");
        assertThat(check.path("message").asText()).contains("connUseRDMA = 0", "/etc/beegfs/beegfs-client.conf",
                "1 more: localhost [ID: 1] on TCP");
    }

    @Test
    void rdmaConnectionsWhileConnUseRdmaIsOffAreSourcesDisagree() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file(CLIENT + "/config", LustreFixtures.part(CONFIG, "rdma off"));

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.toString()).contains("SourcesDisagree", "config and connections disagree");
    }

    @Test
    void noClientModuleEntryForAMountedBeegfsIsSourcesDisagree() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.delete("/proc/fs/beegfs");

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("SourcesDisagree");
        assertThat(check.path("message").asText()).contains("has no client directory");
    }

    @Test
    void idleServersAreNoConnectionsUnknownNeverTrue() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file(CLIENT + "/storage_nodes", "storage01 [ID: 1]\n   Connections: <none>\n");
        host.file(CLIENT + "/meta_nodes", "meta01 [ID: 1]\n   Root: <yes>\n   Connections: <none>\n");

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("NoConnections");
    }

    @Test
    void garbageIsOutputUnparseable() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file(CLIENT + "/storage_nodes", "cat: storage_nodes: Input/output error\n");

        JsonNode check = check(host);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("OutputUnparseable");
    }

    @Test
    void aListedMountPointWithoutBeegfsIsNotMounted() {
        JsonNode check = ProbeRun.withSpec(BeegfsFixtures.healthy(FixtureHost.at(dir)),
                "{\"beegfs\":{\"mounts\":[\"/mnt/beegfs\",\"/mnt/scratch\"]}}").check("BeegfsRdma");

        assertThat(check.path("reason").asText()).isEqualTo("NotMounted");
        assertThat(check.path("message").asText()).contains("/mnt/scratch has no BeeGFS mount");
    }

    @Test
    void twoMountsAreToldApartByTheirCfgFile() {
        FixtureHost host = BeegfsFixtures.healthy(FixtureHost.at(dir));
        host.file("/proc/1/mounts", Samples.body(MOUNTS));
        String other = "/proc/fs/beegfs/6B2C3D4E-789ABCDE-client01";
        host.file(other + "/config", LustreFixtures.part(CONFIG, "rdma on").replace("/etc/beegfs/beegfs-client.conf",
                "/etc/beegfs/2beegfs-client.conf"));
        host.file(other + "/storage_nodes", Samples.body(TCP_ONLY));
        host.file(other + "/meta_nodes", "");

        JsonNode check = ProbeRun.withSpec(host, "{\"beegfs\":{}}").check("BeegfsRdma");

        assertThat(check.path("reason").asText()).isEqualTo("ServerOnTcp");
        assertThat(check.path("message").asText()).contains("of /mnt/2beegfs");
        assertThat(check.path("details").path("mounts").toString()).contains("/mnt/beegfs: 5A1B2C3D", "/mnt/2beegfs: 6B2C3D4E");
    }

    @Test
    void withoutASpecTheCheckRunsWhereABeegfsMountExists() {
        ProbeRun run = ProbeRun.on(BeegfsFixtures.healthy(FixtureHost.at(dir)));

        assertThat(run.check("BeegfsRdma").path("status").asText()).isEqualTo("True");
        ProbeRun bare = ProbeRun.on(FixtureHost.at(dir.resolve("bare")).file("/proc/1/mounts", "/dev/sda2 / ext4 rw 0 0\n"));
        assertThat(bare.hasCheck("BeegfsRdma")).isFalse();
    }

    @Test
    void aMountPointThatIsNotAbsoluteIsRefusedBeforeAnythingRuns() {
        ProbeRun run = ProbeRun.withSpec(BeegfsFixtures.healthy(FixtureHost.at(dir)), "{\"beegfs\":{\"mounts\":[\"mnt;rm\"]}}");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("beegfs.mounts[0]");
    }
}
