package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CephMessengerCheckTest {

    @TempDir
    Path dir;

    @Test
    void asyncRdmaClusterMessengerIsExperimental() {
        FixtureHost host = FixtureHost.at(dir).sampleFile("/etc/ceph/ceph.conf", "ceph/ceph-conf_async+rdma_cluster-only_bond.txt");

        JsonNode check = ProbeRun.withSpec(host, "{\"ceph\":{}}").check("CephMessenger");

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("ExperimentalRdmaMessenger");
        assertThat(check.path("message").asText()).contains("ms_cluster_type = async+rdma").contains("async+posix");
    }

    @Test
    void xioIsExperimentalToo() {
        // constructed: no public ceph.conf with ms_type = xio was found (see samples/SOURCES.md)
        FixtureHost host = FixtureHost.at(dir).file("/etc/ceph/ceph.conf", "[global]\nms_type = xio\n");

        assertThat(ProbeRun.withSpec(host, "{\"ceph\":{}}").check("CephMessenger").path("reason").asText())
                .isEqualTo("ExperimentalRdmaMessenger");
    }

    @Test
    void defaultMessengerIsFine() {
        FixtureHost host = FixtureHost.at(dir).file("/etc/ceph/ceph.conf", "[global]\nfsid = 42\n");

        JsonNode check = ProbeRun.withSpec(host, "{\"ceph\":{}}").check("CephMessenger");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("default async+posix");
    }

    @Test
    void noCephConfNoCheck() {
        FixtureHost host = FixtureHost.at(dir).mkdir("/etc");

        assertThat(ProbeRun.withSpec(host, "{\"ceph\":{}}").hasCheck("CephMessenger")).isFalse();
    }

    @Test
    void aCephSectionOnAHostWithoutEtcIsUnknownNotSkipped() {
        FixtureHost host = FixtureHost.at(dir.resolve("root")).mkdir("/sys/class/net");

        JsonNode check = ProbeRun.withSpec(host, "{\"ceph\":{}}").check("CephMessenger");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
        assertThat(check.path("message").asText()).contains("the host's /etc is not visible");
    }
}
