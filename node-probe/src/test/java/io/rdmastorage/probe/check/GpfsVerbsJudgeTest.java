package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.GpfsClusterNode;
import io.rdmastorage.probe.parse.GpfsYOutput;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.ToolResults;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** GpfsVerbs' rules on fact records: what each GPFS tool answered. */
class GpfsVerbsJudgeTest {

    private static final ProbeSpec SPEC = new ProbeSpec(null,
            new ProbeSpec.Gpfs(List.of("mlx5_0/1", "mlx5_1/1"), List.of("nsd-01", "nsd-02"), null, "16Gi"), null, null, null, null);

    private static ToolResult state(String state) {
        return ToolResults.printed("mmgetstate -Y", GpfsFixtures.mmgetstateY(state));
    }

    private static GpfsVerbsCheck.Facts active(String verbsRdma, String ports, long pagepool, boolean gpu02OverRdma) {
        return new GpfsVerbsCheck.Facts(state("active"),
                Optional.of(ToolResults.printed("mmdiag --config -Y", GpfsFixtures.mmdiagConfigY(verbsRdma, ports, pagepool))),
                Optional.of(ToolResults.printed("mmfsadm test verbs status",
                        Samples.body("gpfs/mmfsadm-test-verbs-status_started.txt"))),
                Optional.of(ToolResults.printed("mmdiag --network", GpfsFixtures.mmdiagNetwork())),
                Optional.of(ToolResults.printed("mmfsadm test verbs conn", GpfsFixtures.verbsConn(gpu02OverRdma))),
                GpfsClusterNode.from(GpfsYOutput.parse(GpfsFixtures.mmlsclusterY())), List.of());
    }

    private static CheckResult verdict(GpfsVerbsCheck.Facts facts) {
        return new GpfsVerbsCheck().result(facts, SPEC);
    }

    /** The healthy node's facts on RoCE ports (link layer Ethernet) with the given verbsRdmaCm. */
    private static GpfsVerbsCheck.Facts roce(String verbsRdmaCm, java.util.Map<String, String> linkLayers) {
        GpfsVerbsCheck.Facts healthy = active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, true);
        return new GpfsVerbsCheck.Facts(healthy.state(), Optional.of(ToolResults.printed("mmdiag --config -Y",
                GpfsFixtures.mmdiagConfigY("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, verbsRdmaCm))),
                healthy.verbsStatus(), healthy.network(), healthy.verbsConn(), healthy.cluster(), List.of(), linkLayers);
    }

    @Test
    void roceVerbsPortsWithoutRdmaCmAreVerbsRdmaCmDisabled() {
        CheckResult result = verdict(roce("disable", java.util.Map.of("mlx5_0/1", "Ethernet", "mlx5_1/1", "InfiniBand")));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("VerbsRdmaCmDisabled");
        assertThat(result.message()).startsWith("verbsPorts mlx5_0/1 on gpu-01-ib are RoCE (link layer Ethernet) but the "
                + "effective verbsRdmaCm is 'disable'").contains("`mmchconfig verbsRdmaCm=enable -N gpu-01-ib`");
        assertThat(result.details()).containsEntry("verbsRdmaCm", "disable").containsEntry("verbsRdmaSend", "no");
    }

    @Test
    void roceWithRdmaCmAndInfinibandWithoutItAreFine() {
        assertThat(verdict(roce("enable", java.util.Map.of("mlx5_0/1", "Ethernet", "mlx5_1/1", "Ethernet"))).status())
                .isEqualTo(Status.TRUE);
        assertThat(verdict(roce("disable", java.util.Map.of("mlx5_0/1", "InfiniBand", "mlx5_1/1", "InfiniBand"))).status())
                .isEqualTo(Status.TRUE);
        // no link layer read, but every peer is connected over RDMA: the ports demonstrably carry it
        assertThat(verdict(roce("disable", java.util.Map.of())).status()).isEqualTo(Status.TRUE);
    }

    /** The healthy facts with the member list's run failed (its stderr constructed), judged against these required peers. */
    private static CheckResult withoutMembers(String... requiredPeers) {
        GpfsVerbsCheck.Facts healthy = active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, true);
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(healthy.state(), healthy.config(), healthy.verbsStatus(),
                healthy.network(), healthy.verbsConn(), List.of(), List.of(), Map.of(), Optional.empty(),
                Optional.of(ToolResults.exited("mmlscluster -Y", 1, "", "mmlscluster: Unable to retrieve the cluster configuration\n")));
        ProbeSpec spec = new ProbeSpec(null, new ProbeSpec.Gpfs(List.of("mlx5_0/1", "mlx5_1/1"), List.of(requiredPeers), null,
                null), null, null, null, null);
        return new GpfsVerbsCheck().result(facts, spec);
    }

    @Test
    void aRequiredPeerTheVerbsListNamesOnlyByAddressIsFoundThroughMmdiagsPairing() {
        // verbs conn names the GPU peer by its address only; mmdiag --network pairs gpu-02-ib with that address
        CheckResult result = withoutMembers("gpu-02-ib");

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
    }

    @Test
    void aRequiredPeerNotNamedWhileTheMemberListFailedIsUnknownNotTcpFallback() {
        // nsd-03 may be in the verbs list under its daemon address: without mmlscluster there is no telling
        CheckResult result = withoutMembers("nsd-01", "nsd-03");

        assertThat(result.status()).as(result.message()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("ToolFailed");
        assertThat(result.message()).contains("mmlscluster", "Required peer(s) nsd-03 are not named in `mmfsadm test verbs conn`")
                .doesNotContain("nsd-01");
    }

    @Test
    void anUnreadableLinkLayerWithoutRdmaCmAndNoPeerOverRdmaIsUnknown() {
        // mlx5_1/1's link_layer is absent from sysfs, and no peer is connected yet: RoCE (no connection
        // possible without RDMA CM) or InfiniBand cannot be told; an absent link layer is not InfiniBand
        GpfsVerbsCheck.Facts ports = roce("disable", java.util.Map.of("mlx5_0/1", "InfiniBand"));
        String network = GpfsFixtures.mmdiagNetwork();
        String noPeers = network.substring(0, network.indexOf("TCP Connections between nodes:"));
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(ports.state(), ports.config(), ports.verbsStatus(),
                Optional.of(ToolResults.printed("mmdiag --network", noPeers)), Optional.empty(), List.of(), List.of(),
                ports.linkLayers());

        ProbeSpec noRequiredPeers = new ProbeSpec(null,
                new ProbeSpec.Gpfs(List.of("mlx5_0/1", "mlx5_1/1"), List.of(), null, null), null, null, null, null);

        CheckResult result = new GpfsVerbsCheck().result(facts, noRequiredPeers);

        assertThat(result.status()).as(result.message()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("LinkLayerUnknown");
        assertThat(result.message()).contains("link layer of verbsPorts mlx5_1/1 cannot be read", "verbsRdmaCm=enable")
                .doesNotContain("mlx5_0/1");
    }

    @Test
    void everyPeerOverRdmaIsInUse() {
        CheckResult result = verdict(active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, true));

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.message()).isEqualTo("GPFS on gpu-01-ib uses RDMA: verbsRdma enabled, verbs started, "
                + "all 3 connected peer(s) over RDMA.");
    }

    @Test
    void aConnectedPeerMissingFromVerbsConnIsTcpFallback() {
        CheckResult result = verdict(active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, false));

        assertThat(result.reason()).isEqualTo("TcpFallback");
        assertThat(result.details().get("peersOnTcp")).isEqualTo(List.of("gpu-02-ib"));
    }

    @Test
    void everyProblemIsSaidTheFirstFoundGivesTheReason() {
        CheckResult result = verdict(active("enable", "mlx5_0/2 mlx5_1/1", 1L << 30, true));

        assertThat(result.reason()).isEqualTo("VerbsPortsMismatch");
        assertThat(result.message()).contains(". Also PagepoolTooSmall: effective pagepool on gpu-01-ib is 1Gi");
        assertThat(result.details().get("problems")).isEqualTo(List.of("VerbsPortsMismatch", "PagepoolTooSmall"));
    }

    @Test
    void aDaemonThatIsDownIsNotRunning() {
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(state("down"), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(), List.of());

        CheckResult result = verdict(facts);

        assertThat(result.reason()).isEqualTo("GpfsNotRunning");
        assertThat(result.message()).contains("mmstartup -N gpu-01-ib");
    }

    @Test
    void verbsConnThatHangsIsUnknown() {
        GpfsVerbsCheck.Facts healthy = active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, true);
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(healthy.state(), healthy.config(), healthy.verbsStatus(),
                healthy.network(), Optional.of(ToolResults.timedOut("mmfsadm test verbs conn")), List.of(), List.of());

        CheckResult result = verdict(facts);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("ToolTimedOut");
        assertThat(result.details()).containsEntry("command", "mmfsadm test verbs conn");
    }

    @Test
    void activeStateButADaemonCommandFailingIsSourcesDisagree() {
        // mmgetstate (recorded format) says active; mmdiag --config, which asks the daemon, says it is not there
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(state("active"),
                Optional.of(ToolResults.exited("mmdiag --config -Y", 1, "", "mmdiag: GPFS daemon not running\n")),
                Optional.of(ToolResults.printed("mmfsadm test verbs status", Samples.body("gpfs/mmfsadm-test-verbs-status_started.txt"))),
                Optional.of(ToolResults.printed("mmdiag --network", GpfsFixtures.mmdiagNetwork())),
                Optional.of(ToolResults.printed("mmfsadm test verbs conn", GpfsFixtures.verbsConn(true))),
                GpfsClusterNode.from(GpfsYOutput.parse(GpfsFixtures.mmlsclusterY())), List.of());

        CheckResult result = verdict(facts);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).startsWith("`mmgetstate -Y` says GPFS is active on gpu-01-ib, but 'mmdiag --config -Y' "
                + "exited 1: mmdiag: GPFS daemon not running").contains("mmdiag --waiters");
    }

    @Test
    void theRunningDaemonOutranksTheConfiguration() {
        // the sources disagree: the effective configuration says enable, the daemon's verbs layer says disabled
        GpfsVerbsCheck.Facts healthy = active("enable", GpfsFixtures.HEALTHY_PORTS, GpfsFixtures.HEALTHY_PAGEPOOL, true);
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(healthy.state(), healthy.config(),
                Optional.of(ToolResults.printed("mmfsadm test verbs status", Samples.body("gpfs/mmfsadm-test-verbs-status_disabled.txt"))),
                Optional.empty(), Optional.empty(), List.of(), List.of());

        CheckResult result = verdict(facts);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("VerbsRdmaDisabled");
        assertThat(result.message()).contains("says disabled on gpu-01-ib although the effective verbsRdma is enable");
    }

    @Test
    void gpfsNotInstalledIsFalseOnlyWhereTheProfileRequiresIt() {
        // the source absent: no mmgetstate anywhere under the host root
        GpfsVerbsCheck.Facts facts = new GpfsVerbsCheck.Facts(ToolResults.notFound("mmgetstate -Y"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), List.of());

        assertThat(verdict(facts).status()).isEqualTo(Status.FALSE);
        CheckResult discovered = new GpfsVerbsCheck().result(facts, ProbeSpec.discover());
        assertThat(discovered.status()).isEqualTo(Status.UNKNOWN);
        assertThat(discovered.reason()).isEqualTo("ToolNotFound");
    }
}
