package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real CLI against GpfsFixtures host roots (see there for what is recorded and what constructed). */
class GpfsVerbsCheckTest {

    private static final String SPEC = "{\"gpfs\":" + GpfsFixtures.HEALTHY_SPEC + "}";

    @TempDir
    Path dir;

    private FixtureHost host() {
        return FixtureHost.at(dir.resolve("root"));
    }

    private static JsonNode gpfs(ProbeRun run) {
        return run.check("GpfsVerbs");
    }

    @Test
    void healthyNodeUsesRdmaWithEveryPeer() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.healthy(host()), SPEC));

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("RdmaInUse");
        assertThat(check.path("message").asText()).contains("gpu-01-ib").contains("all 3 connected peer(s) over RDMA");
        JsonNode details = check.path("details");
        assertThat(details.path("gpfsNode").asText()).isEqualTo("gpu-01-ib");
        assertThat(details.path("verbsPorts").asText()).isEqualTo("mlx5_0/1 mlx5_1/1");
        assertThat(details.path("pagepool").asText()).isEqualTo("32Gi");
        assertThat(details.path("peersOverRdma").asInt()).isEqualTo(3);
        assertThat(details.has("recentVerbsErrors")).isFalse();
    }

    @Test
    void roceVerbsPortsWithoutRdmaCmAreNamed() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.roceWithoutRdmaCm(host()), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("VerbsRdmaCmDisabled");
        assertThat(check.path("message").asText()).startsWith("verbsPorts mlx5_0/1, mlx5_1/1 on gpu-01-ib are RoCE");
        assertThat(check.path("details").path("verbsRdmaCm").asText()).isEqualTo("disable");
    }

    @Test
    void roceVerbsPortsWithRdmaCmUseRdma() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.roceWithRdmaCm(host()), SPEC));

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("details").path("verbsRdmaCm").asText()).isEqualTo("enable");
        assertThat(check.path("details").path("verbsRdmaSend").asText()).isEqualTo("no");
    }

    @Test
    void tcpFallbackNamesThePeerAndQuotesTheLog() {
        ProbeRun run = ProbeRun.withSpec(GpfsFixtures.tcpFallback(host()), SPEC);
        JsonNode check = gpfs(run);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("TcpFallback");
        assertThat(check.path("message").asText())
                .contains("talks to gpu-02-ib over TCP")
                .doesNotContain("nsd-01 over TCP")
                .contains("mmshutdown -N gpu-02-ib && mmstartup -N gpu-02-ib")
                .contains("latest: [E] VERBS RDMA closed connection to 10.10.0.12 (gpu-02-ib)");
        assertThat(check.path("details").path("peersOnTcp").toString()).isEqualTo("[\"gpu-02-ib\"]");
        assertThat(check.path("details").path("verbsErrors24h").asInt()).isEqualTo(2);
        assertThat(run.stdout().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096 + 1);
    }

    @Test
    void requiredPeerWithoutAnyConnection() {
        String spec = "{\"gpfs\":{\"requiredPeers\":[\"nsd-01\",\"nsd-03.example\"]}}";

        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.healthy(host()), spec));

        assertThat(check.path("reason").asText()).isEqualTo("TcpFallback");
        assertThat(check.path("message").asText()).contains("no RDMA connection to required peer nsd-03.example");
        assertThat(check.path("details").path("requiredPeersWithoutRdma").toString()).isEqualTo("[\"nsd-03.example\"]");
    }

    @Test
    void requiredPeerGivenByAddressIsKnownByItsName() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.tcpFallback(host()),
                "{\"gpfs\":{\"requiredPeers\":[\"10.10.0.12\",\"10.10.0.2\"]}}"));

        assertThat(check.path("reason").asText()).isEqualTo("TcpFallback");
        // gpu-02-ib is already named as on TCP; it is not named a second time as a missing required peer
        assertThat(check.path("details").has("requiredPeersWithoutRdma")).isFalse();
        assertThat(check.path("details").path("peersOnTcp").toString()).isEqualTo("[\"gpu-02-ib\"]");
    }

    @Test
    void verbsRdmaDisabled() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.verbsRdmaDisabled(host()), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("VerbsRdmaDisabled");
        assertThat(check.path("message").asText()).contains("mmchconfig verbsRdma=enable -N gpu-01-ib")
                .contains("mmshutdown -N gpu-01-ib && mmstartup -N gpu-01-ib");
    }

    @Test
    void verbsPortsTypo() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.verbsPortsTypo(host()), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("VerbsPortsMismatch");
        assertThat(check.path("message").asText())
                .contains("'mlx5_0/2 mlx5_1/1'")
                .contains("missing mlx5_0/1")
                .contains("not expected mlx5_0/2")
                .contains("mmchconfig verbsPorts=\"mlx5_0/1 mlx5_1/1\" -N gpu-01-ib");
    }

    @Test
    void portOrderAndFabricNumbersDoNotMatter() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.healthy(host()),
                "{\"gpfs\":{\"verbsPorts\":[\"mlx5_1/1\",\"mlx5_0/1/0\"]}}"));

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
    }

    @Test
    void pagepoolTooSmall() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.pagepoolTooSmall(host()), SPEC));

        assertThat(check.path("reason").asText()).isEqualTo("PagepoolTooSmall");
        assertThat(check.path("message").asText()).contains("is 4Gi, below the profile's minPagepool 16Gi")
                .contains("mmchconfig pagepool=16G -N gpu-01-ib");
    }

    @Test
    void verbsRdmaSendWhenRequired() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.healthy(host()), "{\"gpfs\":{\"requireVerbsRdmaSend\":true}}"));

        assertThat(check.path("reason").asText()).isEqualTo("VerbsRdmaSendDisabled");
        assertThat(check.path("message").asText()).contains("'no'").contains("mmchconfig verbsRdmaSend=yes -N gpu-01-ib");
    }

    @Test
    void everyProblemIsReportedTheMostFundamentalGivesTheReason() {
        FixtureHost host = GpfsFixtures.verbsPortsTypo(host());
        host.tool(GpfsFixtures.BIN + "/mmdiag").on("--config", "-Y")
                .prints(GpfsFixtures.mmdiagConfigY("enable", "mlx5_0/2 mlx5_1/1", 1L << 30));

        JsonNode check = gpfs(ProbeRun.withSpec(host, SPEC));

        assertThat(check.path("reason").asText()).isEqualTo("VerbsPortsMismatch");
        assertThat(check.path("message").asText()).contains("Also PagepoolTooSmall: ");
        assertThat(check.path("details").path("problems").toString()).isEqualTo("[\"VerbsPortsMismatch\",\"PagepoolTooSmall\"]");
    }

    @Test
    void verbsNotStarted() {
        // constructed: "not started" (verbsRdma on, no usable port) is documented, not captured
        FixtureHost host = GpfsFixtures.healthy(host());
        host.tool(GpfsFixtures.BIN + "/mmfsadm").on("test", "verbs", "status").prints("VERBS RDMA status: not started\n");

        JsonNode check = gpfs(ProbeRun.withSpec(host, SPEC));

        assertThat(check.path("reason").asText()).isEqualTo("VerbsRdmaNotStarted");
        assertThat(check.path("message").asText()).contains("'not started'").contains("ibstat");
    }

    @Test
    void gpfsNotRunning() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.notRunning(host()), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("GpfsNotRunning");
        assertThat(check.path("message").asText()).contains("'down' on gpu-01-ib").contains("mmstartup -N gpu-01-ib");
    }

    @Test
    void gpfsNotInstalledFailsWhenTheProfileAsksForIt() {
        JsonNode check = gpfs(ProbeRun.withSpec(host().mkdir("/usr/bin"), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("ToolNotFound");
        assertThat(check.path("message").asText()).contains("mmgetstate not found").contains("nodeSelector");
    }

    @Test
    void garbageOutputIsUnknownNeverTrue() {
        JsonNode check = gpfs(ProbeRun.withSpec(GpfsFixtures.garbage(host()), SPEC));

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("OutputUnparseable");
        assertThat(check.path("message").asText()).contains("mmdiag --config -Y");
        assertThat(check.path("details").path("command").asText()).isEqualTo("mmdiag --config -Y");
    }

    @Test
    void hangingMmfsadmTimesOut() {
        ProbeRun run = ProbeRun.withSpec(GpfsFixtures.hanging(host()), SPEC, "--tool-timeout", "1s");
        JsonNode check = gpfs(run);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolTimedOut");
        assertThat(check.path("message").asText()).contains("mmfsadm test verbs status' timed out after 1s");
        // status hung, so the peers were not looked at (mmfsadm test verbs conn would hang as well)
        assertThat(check.path("details").has("peersConnected")).isFalse();
    }

    @Test
    void hangingToolDoesNotHideADefiniteProblem() {
        FixtureHost host = GpfsFixtures.hanging(host());
        host.tool(GpfsFixtures.BIN + "/mmdiag").on("--config", "-Y")
                .prints(GpfsFixtures.mmdiagConfigY("enable", "mlx5_0/2 mlx5_1/1", GpfsFixtures.HEALTHY_PAGEPOOL));

        JsonNode check = gpfs(ProbeRun.withSpec(host, SPEC, "--tool-timeout", "1s"));

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("VerbsPortsMismatch");
        assertThat(check.path("details").path("problems").toString()).contains("ToolTimedOut");
    }

    @Test
    void discoveryChecksWhereGpfsIsInstalled() {
        JsonNode check = gpfs(ProbeRun.on(GpfsFixtures.healthy(host())));

        assertThat(check.path("status").asText()).isEqualTo("True");
    }

    @Test
    void discoveryStillFlagsTcpFallback() {
        assertThat(gpfs(ProbeRun.on(GpfsFixtures.tcpFallback(host()))).path("reason").asText()).isEqualTo("TcpFallback");
    }

    @Test
    void discoverySkipsNodesWithoutGpfs() {
        assertThat(ProbeRun.on(host().mkdir("/usr/bin")).hasCheck("GpfsVerbs")).isFalse();
    }

    @Test
    void activeButTheDaemonDoesNotAnswerIsSourcesDisagree() {
        FixtureHost host = GpfsFixtures.healthy(host());
        host.tool(GpfsFixtures.BIN + "/mmdiag").on("--config", "-Y").fails(1, "mmdiag: GPFS daemon not running\n");

        JsonNode check = gpfs(ProbeRun.withSpec(host, SPEC));

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("SourcesDisagree");
        assertThat(check.path("message").asText()).contains("says GPFS is active on gpu-01-ib", "GPFS daemon not running");
    }
}
