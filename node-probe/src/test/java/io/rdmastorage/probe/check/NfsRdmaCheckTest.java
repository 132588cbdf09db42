package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NfsFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NfsRdma through the real probe on fixture hosts: the host's /proc/1 files under the host root. */
class NfsRdmaCheckTest {

    @TempDir
    Path dir;

    @Test
    void anRdmaMountIsTrue() {
        JsonNode check = ProbeRun.withSpec(NfsFixtures.rdma(FixtureHost.at(dir)), NfsFixtures.SPEC).check("NfsRdma");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("proto=rdma port=20049, 16 rdma transport(s)");
    }

    @Test
    void theSameExportOverTcpIsMountNotRdma() {
        JsonNode check = ProbeRun.withSpec(NfsFixtures.tcp(FixtureHost.at(dir)), NfsFixtures.SPEC).check("NfsRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MountNotRdma");
        assertThat(check.path("message").asText()).contains("proto=tcp", "modprobe rpcrdma");
    }

    @Test
    void withoutASpecTheCheckRunsOnlyWhereAnRdmaMountExists() {
        assertThat(ProbeRun.on(NfsFixtures.rdma(FixtureHost.at(dir.resolve("rdma")))).check("NfsRdma")
                .path("status").asText()).isEqualTo("True");
        assertThat(ProbeRun.on(NfsFixtures.tcp(FixtureHost.at(dir.resolve("tcp")))).hasCheck("NfsRdma")).isFalse();
    }

    private static final String RDMA6 = "nfs/proc-1-mounts+mountstats_nfs4.2-over-rdma6_ipv6-server_constructed.txt";
    private static final String TCP6 = "nfs/proc-1-mounts+mountstats_nfs4.2-over-tcp6_ipv6-server_constructed.txt";

    @Test
    void rdma6ToAnIpv6ServerIsNfsOverRdma() {
        JsonNode check = ProbeRun.withSpec(NfsFixtures.ipv6(FixtureHost.at(dir), RDMA6), "{\"nfs\":{\"mounts\":[\"/mnt/nfs\"]}}")
                .check("NfsRdma");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("[2001:db8::1]:/srv/nfs", "proto=rdma6 port=20049",
                "1 rdma transport(s)");
    }

    @Test
    void withoutASpecAnRdma6MountIsFoundToo() {
        assertThat(ProbeRun.on(NfsFixtures.ipv6(FixtureHost.at(dir), RDMA6)).check("NfsRdma").path("status").asText())
                .isEqualTo("True");
    }

    @Test
    void tcp6ToAnIpv6ServerIsMountNotRdmaAndTheRemedyKeepsTheFamily() {
        JsonNode check = ProbeRun.withSpec(NfsFixtures.ipv6(FixtureHost.at(dir), TCP6), "{\"nfs\":{\"mounts\":[\"/mnt/nfs\"]}}")
                .check("NfsRdma");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("MountNotRdma");
        // proto=rdma cannot reach an IPv6 server: the remount must name rdma6
        assertThat(check.path("message").asText()).contains("its I/O goes over tcp6", "-o proto=rdma6,port=20049");
    }

    @Test
    void aBadMountPointIsRefusedBeforeAnythingIsRead() {
        ProbeRun run = ProbeRun.withSpec(NfsFixtures.rdma(FixtureHost.at(dir)), "{\"nfs\":{\"mounts\":[\"/data/../etc\"]}}");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("nfs.mounts[0]", "must be an absolute mount point");
    }
}
