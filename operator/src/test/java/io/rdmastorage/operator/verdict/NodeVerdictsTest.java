package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.probe.testing.NodeScenarios;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeVerdictsTest {

    static final Instant T0 = Instant.parse("2024-05-01T10:00:00.734Z");
    static final ProbePod POD = new ProbePod("rdma-storage-system", "probe-gpu-07-r3", "gpu-07");
    static final long GEN = 4;

    @TempDir
    Path dir;

    @Test
    void aHealthyNodeIsReadyWithEveryCheckTrue() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07");

        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), t);

        assertThat(types(s)).containsExactly("Ready", "RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "CephMessenger");
        assertThat(s.getConditions()).allSatisfy(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getObservedGeneration()).isEqualTo(GEN);
            assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z");
        });
        Condition ready = ready(s);
        assertThat(ready.getReason()).isEqualTo(Reasons.ALL_CHECKS_PASSED);
        assertThat(ready.getMessage()).isEqualTo("RdmaDevices, GpfsVerbs, NvmeofRdma, GdsReady, CephMessenger: all True");
        assertThat(s.getObservedGeneration()).isEqualTo(GEN);
        assertThat(s.getLastProbeTime()).isEqualTo("2024-05-01T10:00:00Z");
        assertThat(s.getProbePod()).isEqualTo("probe-gpu-07-r3");
        assertThat(s.getProbeVersion()).isNotBlank();
        assertThat(s.getProbeDurationMillis()).isNotNull();
        assertThat(s.getDetails()).containsKeys("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady");
        assertThat(s.getLatency()).isNull();
    }

    @Test
    void failingChecksKeepTheProbesReasonsAndReadyNamesThem() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07", "gpfs-tcp-fallback", "nvmeof-on-tcp");

        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), t);

        assertThat(t.exitCode()).isEqualTo(1);
        assertThat(condition(s, "GpfsVerbs")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("TcpFallback");
            assertThat(c.getMessage()).contains("gpu-02");
        });
        assertThat(condition(s, "NvmeofRdma").getReason()).isEqualTo("TransportTcp");
        assertThat(condition(s, "RdmaDevices").getStatus()).isEqualTo("True");
        Condition ready = ready(s);
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo(Reasons.CHECKS_FAILED);
        assertThat(ready.getMessage()).isEqualTo("GpfsVerbs: TcpFallback; NvmeofRdma: TransportTcp");
        assertThat(s.getDetails().get("GpfsVerbs").toString()).contains("gpu-02");
        // beside the probe's facts, what each check's reason asks for
        assertThat(action(s, "GpfsVerbs")).isEqualTo("FixConfig");
        assertThat(action(s, "NvmeofRdma")).isEqualTo("FixConfig");
        assertThat(action(s, "RdmaDevices")).isEqualTo("None");
    }

    @Test
    void aLatencySectionAwaitsItsPairwiseMeasurementAndKeepsReadyUnknown() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07");

        RdmaStorageNodeStatus s = fromTermination(RealProbe.withLatency(RealProbe.healthySpec()), t);

        assertThat(types(s)).containsExactly("Ready", "RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "VerbsLatency",
                "CephMessenger");
        Condition latency = condition(s, "VerbsLatency");
        assertThat(latency.getStatus()).isEqualTo("Unknown");
        assertThat(latency.getReason()).isEqualTo(Reasons.AWAITING_MEASUREMENT);
        assertThat(latency.getMessage()).contains("latency-server pod on the peer");
        assertThat(ready(s).getStatus()).isEqualTo("Unknown");
        assertThat(ready(s).getReason()).isEqualTo(Reasons.AWAITING_MEASUREMENT);
        assertThat(s.getLatency()).isNull();
    }

    @Test
    void aLatencyMeasurementDecidesVerbsLatencyAndReadyAndTheNextProbeKeepsIt() {
        RdmaStorageProfileSpec spec = RealProbe.withLatency(RealProbe.healthySpec());
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07");
        RdmaStorageNodeStatus probed = NodeVerdicts.merge(null, fromTermination(spec, t), T0);
        LatencyResult measured = new LatencyResult();
        measured.setPeer("gpu-08");
        measured.setTypicalMicros(1.01);
        measured.setRound(1L);

        RdmaStorageNodeStatus withLatency = NodeVerdicts.merge(probed, LatencyVerdicts.withLatency(spec, probed,
                Conditions.of("VerbsLatency", "True", "WithinThreshold", "1.01 µs", GEN, T0.plusSeconds(5)), measured,
                GEN, T0.plusSeconds(5)), T0.plusSeconds(5));

        assertThat(condition(withLatency, "VerbsLatency").getReason()).isEqualTo("WithinThreshold");
        assertThat(ready(withLatency).getStatus()).isEqualTo("True");
        assertThat(condition(withLatency, "GpfsVerbs")).isEqualTo(condition(probed, "GpfsVerbs"));
        assertThat(withLatency.getLatency().getTypicalMicros()).isEqualTo(1.01);
        assertThat(action(probed, "VerbsLatency")).as("AwaitingMeasurement").isEqualTo("None");
        assertThat(withLatency.getDetails().get("VerbsLatency").size()).as("no facts of its own, only the action").isEqualTo(1);

        // the node's next probe knows nothing of latency: the measurement stays, and so does Ready
        Instant later = T0.plusSeconds(900);
        RdmaStorageNodeStatus reprobed = NodeVerdicts.merge(withLatency, fromTermination(spec, t, later), later);
        assertThat(condition(reprobed, "VerbsLatency")).isEqualTo(condition(withLatency, "VerbsLatency"));
        assertThat(reprobed.getLatency()).isSameAs(measured);
        assertThat(ready(reprobed).getStatus()).isEqualTo("True");
        assertThat(ready(reprobed).getLastTransitionTime()).isEqualTo(ready(withLatency).getLastTransitionTime());

        // a probe failure does not touch it either, and its reason still names the node's Unknown
        RdmaStorageNodeStatus failed = NodeVerdicts.merge(reprobed, NodeVerdicts.fromFailure(spec, GEN, POD,
                ProbeFailure.timedOut(POD, java.time.Duration.ofMinutes(3)), later), later);
        assertThat(condition(failed, "VerbsLatency").getStatus()).isEqualTo("True");
        assertThat(ready(failed).getReason()).isEqualTo(Reasons.PROBE_TIMED_OUT);
        assertThat(action(failed, "GpfsVerbs")).as("a probe that hangs: something on the node hangs").isEqualTo("InvestigateNode");
        assertThat(failed.getDetails().get("GpfsVerbs").size()).as("the failed probe's checks have no facts").isEqualTo(1);
    }

    @Test
    void aProfileWhoseOnlyCheckIsLatencyIsReadyByItsMeasurementAlone() {
        RdmaStorageProfileSpec spec = RealProbe.withLatency(new RdmaStorageProfileSpec());
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07");

        RdmaStorageNodeStatus probed = fromTermination(spec, t);
        assertThat(ready(probed).getReason()).isEqualTo(Reasons.AWAITING_MEASUREMENT);
        assertThat(ready(fromTermination(new RdmaStorageProfileSpec(), t)).getReason()).isEqualTo(Reasons.NO_CHECKS_CONFIGURED);

        RdmaStorageNodeStatus measured = LatencyVerdicts.withLatency(spec, null, Conditions.of("VerbsLatency", "False",
                "AboveThreshold", "7.85 µs", GEN, T0), new LatencyResult(), GEN, T0);
        assertThat(types(measured)).containsExactly("Ready", "VerbsLatency");
        assertThat(ready(measured).getStatus()).isEqualTo("False");
        assertThat(ready(measured).getMessage()).isEqualTo("VerbsLatency: AboveThreshold");
    }

    @Test
    void aNodeWithoutCephConfigPassesCephMessenger() {
        RealProbe.Termination t = RealProbe.run(dir, "gpu-07", NodeScenarios.HEALTHY_SPEC,
                host -> NodeScenarios.healthy(host).delete("/etc/ceph/ceph.conf"));
        assertThat(ReportParser.parse(t.message()).toString()).doesNotContain("CephMessenger");

        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), t);

        Condition ceph = condition(s, "CephMessenger");
        assertThat(ceph.getStatus()).isEqualTo("True");
        assertThat(ceph.getReason()).isEqualTo(Reasons.NO_CEPH_CONFIG);
        assertThat(ceph.getMessage()).contains("gpu-07 has no /etc/ceph/ceph.conf");
        assertThat(ready(s).getStatus()).isEqualTo("True");
    }

    @Test
    void anExperimentalCephMessengerFailsTheNode() {
        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), RealProbe.scenario(dir, "gpu-07", "ceph-async-rdma"));
        assertThat(ready(s).getMessage()).isEqualTo("CephMessenger: ExperimentalRdmaMessenger");
    }

    @Test
    void anExpectedCheckMissingFromTheReportIsUnknownNotReported() {
        // The probe was given no gds section, but the profile has one.
        String specWithoutGds = NodeScenarios.HEALTHY_SPEC.replaceAll("\"gds\": \\{[^}]*},", "");
        assertThat(specWithoutGds).doesNotContain("gds");
        RealProbe.Termination t = RealProbe.run(dir, "gpu-07", specWithoutGds, NodeScenarios::healthy);

        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), t);

        Condition gds = condition(s, "GdsReady");
        assertThat(gds.getStatus()).isEqualTo("Unknown");
        assertThat(gds.getReason()).isEqualTo(Reasons.NOT_REPORTED);
        assertThat(gds.getMessage()).contains("kubectl -n rdma-storage-system logs probe-gpu-07-r3");
        assertThat(ready(s).getStatus()).isEqualTo("Unknown");
        assertThat(ready(s).getReason()).isEqualTo(Reasons.NOT_REPORTED);
    }

    @Test
    void aCheckAddedWhileThePodRanAwaitsTheNextRoundInsteadOfBlamingTheImage() {
        // the pod was built from generation GEN without gds; the profile has asked for gds since GEN + 1
        String specWithoutGds = NodeScenarios.HEALTHY_SPEC.replaceAll("\"gds\": \\{[^}]*},", "");
        RealProbe.Termination t = RealProbe.run(dir, "gpu-07", specWithoutGds, NodeScenarios::healthy);

        RdmaStorageNodeStatus s = NodeVerdicts.fromTrust(RealProbe.healthySpec(), GEN, GEN + 1, POD,
                ReportTrust.of(POD, t.exitCode(), "Completed", t.message()), T0);

        Condition gds = condition(s, "GdsReady");
        assertThat(gds.getStatus()).isEqualTo("Unknown");
        assertThat(gds.getReason()).isEqualTo(Reasons.AWAITING_PROBE);
        assertThat(gds.getMessage()).contains("probe pod probe-gpu-07-r3 was built from generation " + GEN)
                .contains("now at generation " + (GEN + 1)).doesNotContain("image");
        assertThat(s.getObservedGeneration()).as("the verdict is of the pod's generation: the next round is due").isEqualTo(GEN);
        assertThat(condition(s, "GpfsVerbs").getStatus()).as("what the pod did report still counts").isEqualTo("True");
        assertThat(ready(s).getReason()).isEqualTo(Reasons.AWAITING_PROBE);
    }

    @Test
    void checksTheProfileDoesNotAskForAreLeftOut() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setGpfs(RealProbe.healthySpec().getGpfs());
        RdmaStorageNodeStatus s = fromTermination(spec, RealProbe.scenario(dir, "gpu-07", "nvmeof-on-tcp"));

        assertThat(types(s)).containsExactly("Ready", "GpfsVerbs");
        assertThat(ready(s).getStatus()).isEqualTo("True");
        assertThat(s.getDetails()).containsOnlyKeys("GpfsVerbs");
        assertThat(action(s, "GpfsVerbs")).isEqualTo("None");
    }

    @Test
    void aReportForAnotherNodeIsNotTrusted() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-01");

        RdmaStorageNodeStatus s = fromTermination(RealProbe.healthySpec(), t);

        assertAllUnknown(s, Reasons.REPORT_NODE_MISMATCH);
        assertThat(ready(s).getMessage()).contains("ran on node gpu-07 but its report is for node \"gpu-01\"");
    }

    @Test
    void aProbeThatRefusesItsSpecIsProbeFailedWithItsStderr() {
        RealProbe.Termination t = RealProbe.run(dir, "gpu-07", "{\"gpfs\": {\"verbsPorts\": [\"mlx5_0/1; reboot\"]}}",
                NodeScenarios::healthy);
        assertThat(t.exitCode()).isEqualTo(2);
        assertThat(t.message()).isEmpty();

        // FallbackToLogsOnError: the termination message is the end of the log, stderr included.
        RdmaStorageNodeStatus s = NodeVerdicts.fromTermination(RealProbe.healthySpec(), GEN, POD, 2, "Error",
                t.stderr(), T0);

        assertAllUnknown(s, Reasons.PROBE_FAILED);
        assertThat(ready(s).getMessage())
                .contains("node-probe refused its arguments or spec (exit code 2)")
                .contains("it said \"node-probe: invalid spec")
                .contains("mlx5_0/1; reboot")
                .contains("`kubectl -n rdma-storage-system logs probe-gpu-07-r3`")
                .contains("`kubectl -n rdma-storage-system describe pod probe-gpu-07-r3`");
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(ProbeFailure.timedOut(POD, Duration.ofMinutes(3)), Reasons.PROBE_TIMED_OUT,
                        List.of("did not finish within 3m", "spec.probeTimeout", "describe pod probe-gpu-07-r3")),
                Arguments.of(ProbeFailure.failedToStart(POD, "ErrImagePull",
                                "rpc error: code = NotFound desc = failed to pull image \"ghcr.io/x/node-probe:9\": not found"),
                        Reasons.PROBE_FAILED_TO_START,
                        List.of("(ErrImagePull)", "failed to pull image \\\"ghcr.io/x/node-probe:9\\\"", "describe pod")),
                Arguments.of(ProbeFailure.exited(POD, 3, "Error", "node-probe: internal failure: java.lang.NullPointerException"),
                        Reasons.PROBE_FAILED, List.of("failed internally (exit code 3)", "NullPointerException", "logs")),
                Arguments.of(ProbeFailure.exited(POD, 137, "OOMKilled", null), Reasons.PROBE_FAILED,
                        List.of("exit code 137", "[OOMKilled]", "left no message")));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("failures")
    void aProbeWithoutReportGivesEveryCheckUnknownWithTheReason(ProbeFailure failure, String reason, List<String> says) {
        RdmaStorageNodeStatus s = NodeVerdicts.fromFailure(RealProbe.withLatency(RealProbe.healthySpec()), GEN, POD, failure, T0);

        assertAllUnknown(s, reason);
        assertThat(ready(s).getMessage()).isEqualTo(failure.message()).contains(says);
        assertThat(condition(s, "VerbsLatency").getReason()).isEqualTo(Reasons.AWAITING_MEASUREMENT);
        assertThat(s.getLastProbeTime()).isEqualTo("2024-05-01T10:00:00Z");
        assertThat(s.getProbePod()).isEqualTo("probe-gpu-07-r3");
        assertThat(s.getDetails().values()).as("no facts, only each check's action").allSatisfy(d -> assertThat(d.size()).isEqualTo(1));
        assertThat(action(s, "RdmaDevices")).isEqualTo(reason.equals(Reasons.PROBE_TIMED_OUT) ? "InvestigateNode" : "None");
        assertThat(action(s, "VerbsLatency")).isEqualTo("None");
    }

    @Test
    void unusableTerminationMessagesGiveTheirOwnReasons() {
        RdmaStorageProfileSpec spec = RealProbe.healthySpec();
        assertAllUnknown(NodeVerdicts.fromTermination(spec, GEN, POD, 0, "Completed", null, T0), Reasons.REPORT_MISSING);
        assertAllUnknown(NodeVerdicts.fromTermination(spec, GEN, POD, 1, "Error", "x".repeat(5000), T0),
                Reasons.REPORT_OVERSIZED);
        RdmaStorageNodeStatus garbage = NodeVerdicts.fromTermination(spec, GEN, POD, 0, "Completed", "Segmentation fault", T0);
        assertAllUnknown(garbage, Reasons.REPORT_UNPARSEABLE);
        assertThat(ready(garbage).getMessage())
                .contains("probe pod rdma-storage-system/probe-gpu-07-r3 on node gpu-07: the termination message is not JSON")
                .contains("\"Segmentation fault\"")
                .contains("`kubectl -n rdma-storage-system logs probe-gpu-07-r3`");
    }

    @Test
    void aReportWithAnAbnormalExitCodeIsNotTrusted() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07");
        assertAllUnknown(NodeVerdicts.fromTermination(RealProbe.healthySpec(), GEN, POD, 137, "OOMKilled", t.message(), T0),
                Reasons.PROBE_FAILED);
        ProbeReport report = ((ReportParser.Parsed) ReportParser.parse(t.message())).report();
        assertAllUnknown(NodeVerdicts.fromReport(RealProbe.healthySpec(), GEN, POD, 3, report, T0), Reasons.PROBE_FAILED);
    }

    @Test
    void nodesNotProbedAreUnknownWithTheirReasonAndNoProbeTime() {
        RdmaStorageProfileSpec spec = RealProbe.healthySpec();
        for (NotProbed why : NotProbed.values()) {
            RdmaStorageNodeStatus s = NodeVerdicts.notProbed(spec, GEN, "gpu-07", why, T0);
            assertAllUnknown(s, why.reason());
            assertThat(s.getLastProbeTime()).isNull();
            assertThat(s.getProbePod()).isNull();
            assertThat(NodeVerdicts.isExpired(s, T0.plus(Duration.ofDays(30)), Duration.ofMinutes(45))).isFalse();
        }
        assertThat(ready(NodeVerdicts.notProbed(spec, GEN, "gpu-07", NotProbed.NODE_UNSCHEDULABLE, T0)).getMessage())
                .contains("cordoned", "kubectl uncordon gpu-07");
        assertThat(ready(NodeVerdicts.notProbed(spec, GEN, "gpu-07", NotProbed.NODE_NOT_READY, T0)).getMessage())
                .contains("NotReady", "kubectl describe node gpu-07");
        assertThat(ready(NodeVerdicts.notProbed(spec, GEN, "gpu-07", NotProbed.AWAITING_PROBE, T0)).getReason())
                .isEqualTo("AwaitingProbe");
    }

    @Test
    void resultsOlderThanTheExpiryTurnUnknownResultExpired() {
        Duration expiry = Duration.ofMinutes(45);
        RdmaStorageNodeStatus fresh = fromTermination(RealProbe.healthySpec(), RealProbe.scenario(dir, "gpu-07", "gds-iommu-enabled"));

        assertThat(NodeVerdicts.expire(fresh, Instant.parse("2024-05-01T10:45:00Z"), expiry)).isSameAs(fresh);
        assertThat(NodeVerdicts.expiresAt(fresh, expiry)).contains(Instant.parse("2024-05-01T10:45:00Z"));

        Instant later = T0.plus(Duration.ofMinutes(50));
        RdmaStorageNodeStatus expired = NodeVerdicts.expire(fresh, later, expiry);

        assertAllUnknown(expired, Reasons.RESULT_EXPIRED);
        assertThat(ready(expired).getMessage()).startsWith(
                "the last probe result is from 2024-05-01T10:00:00Z, older than 45m (3 × spec.interval)");
        assertThat(expired.getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:50:00Z"));
        assertThat(action(fresh, "GdsReady")).as("IommuEnabled").isEqualTo("FixConfig");
        // the facts stay, dated by lastProbeTime; an expired result recommends nothing
        assertThat(expired.getDetails().keySet()).isEqualTo(fresh.getDetails().keySet());
        expired.getDetails().forEach((type, facts) -> {
            assertThat(facts.path(RecommendedActions.FIELD).asText()).as(type).isEqualTo("None");
            assertThat(withoutAction(facts)).as(type).isEqualTo(withoutAction(fresh.getDetails().get(type)));
        });
        assertThat(expired.getLastProbeTime()).isEqualTo(fresh.getLastProbeTime());
        assertThat(fresh.getConditions()).extracting(Condition::getReason).doesNotContain(Reasons.RESULT_EXPIRED);

        // Idempotent: a later reconcile changes nothing, so it writes nothing.
        RdmaStorageNodeStatus again = NodeVerdicts.expire(expired, later.plus(Duration.ofHours(2)), expiry);
        assertThat(again.getConditions()).isEqualTo(expired.getConditions());
    }

    @Test
    void anUnreadableProbeTimeHasExpired() {
        RdmaStorageNodeStatus s = NodeVerdicts.fromFailure(RealProbe.healthySpec(), GEN, POD,
                ProbeFailure.timedOut(POD, Duration.ofMinutes(3)), T0);
        s.setLastProbeTime("yesterday");
        assertThat(NodeVerdicts.isExpired(s, T0, Duration.ofMinutes(45))).isTrue();
        RdmaStorageNodeStatus expired = NodeVerdicts.expire(s, T0, Duration.ofMinutes(45));
        assertAllUnknown(expired, Reasons.RESULT_EXPIRED);
        // They were Unknown before: no transition.
        assertThat(expired.getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z"));
        assertThat(ready(expired).getMessage()).contains("from yesterday");
    }

    @Test
    void mergeKeepsTransitionTimesUnlessTheStatusMoves() {
        RdmaStorageProfileSpec spec = RealProbe.healthySpec();
        RdmaStorageNodeStatus first = NodeVerdicts.merge(null,
                NodeVerdicts.notProbed(spec, GEN, "gpu-07", NotProbed.AWAITING_PROBE, T0), T0);
        first.setProbeRound(1L);
        Instant t1 = T0.plus(Duration.ofMinutes(1));
        RdmaStorageNodeStatus healthy = NodeVerdicts.merge(first,
                fromTermination(spec, RealProbe.scenario(dir, "gpu-07"), t1), t1);
        Instant t2 = t1.plus(Duration.ofMinutes(15));
        RdmaStorageNodeStatus failing = NodeVerdicts.merge(healthy,
                fromTermination(spec, RealProbe.scenario(dir, "gpu-07", "gpfs-tcp-fallback"), t2), t2);
        Instant t3 = t2.plus(Duration.ofMinutes(15));
        RdmaStorageNodeStatus stillFailing = NodeVerdicts.merge(failing,
                fromTermination(spec, RealProbe.scenario(dir, "gpu-07", "gpfs-tcp-fallback"), t3), t3);

        assertThat(first.getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z"));
        assertThat(healthy.getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:01:00Z"));
        assertThat(healthy.getProbeRound()).isEqualTo(1L);
        assertThat(condition(failing, "GpfsVerbs").getLastTransitionTime()).isEqualTo("2024-05-01T10:16:00Z");
        assertThat(ready(failing).getLastTransitionTime()).isEqualTo("2024-05-01T10:16:00Z");
        assertThat(condition(failing, "NvmeofRdma").getLastTransitionTime()).isEqualTo("2024-05-01T10:01:00Z");
        assertThat(stillFailing.getConditions()).isEqualTo(failing.getConditions());
        assertThat(stillFailing.getLastProbeTime()).isEqualTo("2024-05-01T10:31:00Z");
        assertThat(VerdictChange.between(failing, stillFailing)).isEmpty();
        assertThat(VerdictChange.between(healthy, failing)).extracting(VerdictChange::type).containsExactly("Ready", "GpfsVerbs");
    }

    // ---- the fleet comparison's part -----------------------------------------------------

    @Test
    void theReportsInventoryIsStoredAndMatchesFleetCountsTowardsReadyOnlyWhenRequired() {
        RdmaStorageProfileSpec spec = RealProbe.healthySpec();
        RdmaStorageNodeStatus probed = fromTermination(spec, RealProbe.scenario(dir, "gpu-07"));
        assertThat(probed.getInventory()).containsEntry("hcaFirmware", "28.39.1002").containsEntry("hcaModel", "MT_0000000834")
                .containsEntry("gpfsVersion", "5.2.1.1");
        Condition differs = FleetDistribution.of(List.of(
                        new FleetDistribution.Member("a", java.util.Map.of("hcaFirmware", "28.41.1000")),
                        new FleetDistribution.Member("b", java.util.Map.of("hcaFirmware", "28.41.1000")),
                        new FleetDistribution.Member("gpu-07", probed.getInventory())), java.util.Set.of())
                .matchesFleet(probed.getInventory(), GEN, T0.plusSeconds(60));

        RdmaStorageNodeStatus reported = NodeVerdicts.withFleet(spec, probed, probed, differs, T0.plusSeconds(60));
        assertThat(condition(reported, "MatchesFleet").getStatus()).isEqualTo("False");
        assertThat(ready(reported).getStatus()).as("report, don't fence").isEqualTo("True");
        assertThat(ready(reported).getLastTransitionTime()).isEqualTo(ready(probed).getLastTransitionTime());

        io.rdmastorage.operator.api.FleetSpec fleet = new io.rdmastorage.operator.api.FleetSpec();
        fleet.setRequired(true);
        spec.setFleet(fleet);
        RdmaStorageNodeStatus fenced = NodeVerdicts.withFleet(spec, probed, probed, differs, T0.plusSeconds(60));
        assertThat(ready(fenced).getStatus()).isEqualTo("False");
        assertThat(ready(fenced).getMessage()).isEqualTo("MatchesFleet: DiffersFromFleet");
        assertThat(ready(fenced).getLastTransitionTime()).isEqualTo("2024-05-01T10:01:00Z");

        // a node not probed (NotReady) keeps its reason although MatchesFleet waits for its facts
        RdmaStorageNodeStatus notProbed = NodeVerdicts.notProbed(spec, GEN, "gpu-07", NotProbed.NODE_NOT_READY, T0);
        Condition waiting = FleetDistribution.of(List.of(), java.util.Set.of()).matchesFleet(notProbed.getInventory(), GEN, T0);
        assertThat(ready(NodeVerdicts.withFleet(spec, null, notProbed, waiting, T0)).getReason()).isEqualTo(Reasons.NODE_NOT_READY);
    }

    static RdmaStorageNodeStatus fromTermination(RdmaStorageProfileSpec spec, RealProbe.Termination t) {
        return fromTermination(spec, t, T0);
    }

    static RdmaStorageNodeStatus fromTermination(RdmaStorageProfileSpec spec, RealProbe.Termination t, Instant at) {
        return NodeVerdicts.fromTermination(spec, GEN, POD, t.exitCode(), t.exitCode() == 0 ? "Completed" : "Error",
                t.message(), at);
    }

    static void assertAllUnknown(RdmaStorageNodeStatus s, String reason) {
        assertThat(s.getConditions()).isNotEmpty().allSatisfy(c -> {
            assertThat(c.getStatus()).as(c.toString()).isEqualTo("Unknown");
            if (VerdictPart.NODE_PROBE.owns(c.getType())) {
                assertThat(c.getReason()).as(c.toString()).isEqualTo(reason);
            }
        });
        assertThat(ready(s).getReason()).isEqualTo(reason);
    }

    /** The action a check's details recommend. */
    static String action(RdmaStorageNodeStatus s, String type) {
        return s.getDetails().get(type).path(RecommendedActions.FIELD).textValue();
    }

    private static JsonNode withoutAction(JsonNode facts) {
        ObjectNode copy = facts.deepCopy();
        copy.remove(RecommendedActions.FIELD);
        return copy;
    }

    static Condition ready(RdmaStorageNodeStatus s) {
        return condition(s, "Ready");
    }

    static Condition condition(RdmaStorageNodeStatus s, String type) {
        return Conditions.find(s.getConditions(), type).orElseThrow(() -> new AssertionError("no " + type + " in " + s.getConditions()));
    }

    static List<String> types(RdmaStorageNodeStatus s) {
        return s.getConditions().stream().map(Condition::getType).toList();
    }
}
