package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.PortErrorsCheckSpec;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.acceptance.AcceptanceTransportHoldsTest;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.probe.CounterBaselineHandover;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.verdict.FleetDistribution;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.ProbePod;
import io.rdmastorage.operator.verdict.VerdictDigest;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.report.Report;
import io.rdmastorage.probe.report.ReportJson;
import io.rdmastorage.testing.PodStatuses;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The middle tier: a whole profile's plan from objects built in memory and a fixed clock — "given
 * these nodes, verdicts and pods at this instant, these writes" — without an API server. The rules
 * of one node's probe and one node's latency round have their own tests ({@link NodeProbePlannerTest},
 * {@code LatencyPlannerTest}); these are about what a reconcile does with all of them together.
 */
class ProfilePlannerTest {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final OperatorConfig CONFIG = new OperatorConfig("rdma-storage-system", "registry.example/node-probe:1",
            "IfNotPresent", false, 0);
    static final long GEN = 3;

    @Test
    void aNewProfileStartsOneProbePerNodeWithinItsSlotsAndWritesNothingYet() {
        RdmaStorageProfile profile = profile(2, false);

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(), List.of());

        assertThat(plan.creates()).extracting(p -> p.getSpec().getNodeName()).containsExactly("gpu-01", "gpu-02");
        assertThat(plan.creates()).extracting(p -> p.getMetadata().getLabels().get(Labels.ROUND)).containsOnly("1");
        assertThat(plan.waiting()).as("gpu-03 waits for a slot").isEqualTo(1);
        assertThat(plan.nodes()).allSatisfy(n -> {
            assertThat(n.writes()).isEmpty();
            assertThat(n.deletes()).isEmpty();
        });
        assertThat(plan.deletes()).isEmpty();
        assertThat(plan.wakeAt()).isEqualTo(NOW.plus(ProfilePlanner.MAX_WAIT));
    }

    @Test
    void aFinishedProbeIsOneVerdictWriteAndThenItsPodsDeletionAndItsSlotGoesToTheNextNode() {
        RdmaStorageProfile profile = profile(1, false);
        Pod finished = finished(profile, "gpu-01", 1, healthyReport("gpu-01"));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), List.of(), List.of(finished));

        ProfilePlan.NodeChange first = change(plan, "gpu-01");
        assertThat(first.writes()).singleElement().satisfies(w -> {
            assertThat(w.previous()).as("no verdict yet").isNull();
            assertThat(w.status().getProbeRound()).isEqualTo(1L);
            assertThat(ready(w.status()).getStatus()).isEqualTo("True");
            assertThat(w.thenDelete()).containsExactly(finished);
            assertThat(w.probeDuration()).isTrue();
        });
        assertThat(first.deletes()).isEmpty();
        assertThat(plan.creates()).as("the harvested pod's slot is free").singleElement()
                .satisfies(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("gpu-02"));
    }

    @Test
    void aFinishedProbeWhoseReportCannotBeTrustedIsAProbeFailure() {
        RdmaStorageProfile profile = profile(2, false);
        Pod garbage = finished(profile, "gpu-01", 1, "Segmentation fault (core dumped)");
        Pod otherNode = finished(profile, "gpu-02", 1, healthyReport("gpu-09"));
        Pod fine = finished(profile, "gpu-03", 1, healthyReport("gpu-03"));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(), List.of(garbage, otherNode, fine));

        assertThat(change(plan, "gpu-01").probeFailures()).containsExactly("ReportUnparseable");
        assertThat(ready(change(plan, "gpu-01").writes().get(0).status()).getReason()).isEqualTo("ReportUnparseable");
        assertThat(change(plan, "gpu-02").probeFailures()).containsExactly("ReportNodeMismatch");
        assertThat(change(plan, "gpu-03").probeFailures()).isEmpty();
    }

    @Test
    void aProbeInFlightHoldsItsSlotAndTheReconcileWakesAtItsTimeout() {
        RdmaStorageProfile profile = profile(1, false);
        Instant created = NOW.minusSeconds(30);
        Pod running = running(profile, "gpu-01", 1, created);

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), List.of(), List.of(running));

        assertThat(plan.creates()).isEmpty();
        assertThat(plan.waiting()).isEqualTo(1);
        assertThat(plan.wakeAt()).isEqualTo(created.plus(Duration.ofMinutes(3)).plusSeconds(18));
    }

    @Test
    void aVerdictThatWouldNotChangeIsNotWrittenAndAFreshNodeWakesTheReconcileWhenItIsDue() {
        RdmaStorageProfile profile = profile(5, false);
        Instant probedAt = NOW.minus(Duration.ofMinutes(10));
        RdmaStorageNode older = verdict(profile, "gpu-01", NodeVerdicts.merge(null, probed(profile, "gpu-01", 1,
                probedAt), probedAt));
        // a verdict stored before fleet consistency gets its MatchesFleet once, then stays put
        ProfilePlan upgrade = plan(profile, nodes("gpu-01"), List.of(older), List.of());
        RdmaStorageNodeStatus written = change(upgrade, "gpu-01").writes().get(0).status();
        assertThat(Conditions.find(written.getConditions(), FleetDistribution.MATCHES_FLEET)).isPresent();
        RdmaStorageNode stored = verdict(profile, "gpu-01", written);

        ProfilePlan plan = plan(profile, nodes("gpu-01"), List.of(stored), List.of());

        assertThat(change(plan, "gpu-01").writes()).isEmpty();
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.wakeAt()).isEqualTo(probedAt.plus(Duration.ofMinutes(15)));
    }

    // ---------------------------------------------------------------- errors between rounds

    @Test
    void theNextProbeOfANodeGetsThePreviousRoundsPortCountersFromItsVerdict() throws Exception {
        RdmaStorageProfile profile = profile(5, false);
        profile.getSpec().setPortErrors(new PortErrorsCheckSpec());
        CounterBaseline reading = new CounterBaseline("4c2a7e1d-0f3b-4d5e-9a8b-7c6d5e4f3a2b", NOW.minus(Duration.ofMinutes(16)),
                Map.of("mlx5_0/1", CounterBaseline.values(Map.of(RdmaPortErrors.Counter.LINK_DOWNED, 2L))));
        Instant probedAt = NOW.minus(Duration.ofMinutes(16));
        // round 1 as node-probe reported it: no rates yet, this round's reading in its details
        CheckResult firstRound = CheckResult.builder(CheckType.RDMA_PORT_ERRORS).detail(RdmaPortErrors.BASELINE_DETAIL,
                reading.wire()).condition(Status.UNKNOWN, RdmaPortErrors.NO_COUNTER_BASELINE, "no baseline").build();
        CheckResult rdma = CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.TRUE, "PortsActive", "ok").build();
        String report = ReportJson.compact(Report.of("gpu-01", "test", probedAt.toString(), 800, List.of(rdma, firstRound)));
        RdmaStorageNodeStatus harvested = NodeVerdicts.fromTermination(profile.getSpec(), GEN, new ProbePod("ns", "p",
                "gpu-01"), 1, "Completed", report, probedAt);
        harvested.setProbeRound(1L);
        RdmaStorageNode stored = verdict(profile, "gpu-01", NodeVerdicts.merge(null, harvested, probedAt));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), List.of(stored), List.of());

        List<String> due = plan.creates().stream().filter(p -> p.getSpec().getNodeName().equals("gpu-01")).findFirst()
                .orElseThrow().getSpec().getContainers().get(0).getArgs();
        assertThat(due.get(due.indexOf(CounterBaselineHandover.OPTION) + 1)).isEqualTo(reading.json());
        // a node never probed has no reading to hand over: its probe takes the baseline
        assertThat(plan.creates().stream().filter(p -> p.getSpec().getNodeName().equals("gpu-02")).findFirst()
                .orElseThrow().getSpec().getContainers().get(0).getArgs()).doesNotContain(CounterBaselineHandover.OPTION);
        // without the section nothing is handed over, whatever the verdict holds
        profile.getSpec().setPortErrors(null);
        assertThat(plan(profile, nodes("gpu-01"), List.of(stored), List.of()).creates().get(0).getSpec().getContainers()
                .get(0).getArgs()).doesNotContain(CounterBaselineHandover.OPTION);
    }

    // ---------------------------------------------------------------- the fleet comparison

    /** A report of a healthy node with its HCA firmware among the inventory facts. */
    static String reportWithFirmware(String node, String firmware) {
        CheckResult rdma = CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.TRUE, "PortsActive", "ok").build();
        return ReportJson.compact(Report.of(node, "test", "2026-03-01T11:59:40Z", 800, List.of(rdma),
                Map.of(InventoryFact.HCA_FIRMWARE, firmware, InventoryFact.KERNEL, "6.8.0-45-generic")));
    }

    @Test
    void harvestsCarryMatchesFleetInTheirOwnWriteAndTheOddNodeIsFalse() {
        RdmaStorageProfile profile = profile(5, false);
        List<Pod> pods = List.of(finished(profile, "gpu-01", 1, reportWithFirmware("gpu-01", "28.41.1000")),
                finished(profile, "gpu-02", 1, reportWithFirmware("gpu-02", "28.41.1000")),
                finished(profile, "gpu-03", 1, reportWithFirmware("gpu-03", "28.39.1002")));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(), pods);

        for (String node : List.of("gpu-01", "gpu-02", "gpu-03")) {
            assertThat(change(plan, node).writes()).as(node + ": one write, MatchesFleet in it").hasSize(1);
        }
        Condition odd = matchesFleet(change(plan, "gpu-03").writes().get(0).status());
        assertThat(odd.getStatus()).isEqualTo("False");
        assertThat(odd.getMessage()).startsWith("HCA firmware is 28.39.1002 here, 28.41.1000 on most nodes");
        assertThat(matchesFleet(change(plan, "gpu-01").writes().get(0).status()).getStatus()).isEqualTo("True");
        assertThat(ready(change(plan, "gpu-03").writes().get(0).status()).getStatus())
                .as("fleet.required is false: report, don't fence").isEqualTo("True");
        assertThat(plan.fleet().consistent(GEN, NOW).getMessage())
                .startsWith("HCA firmware: 28.41.1000 on 2 nodes; 28.39.1002 on gpu-03");
    }

    @Test
    void withFleetRequiredTheOddNodeIsNotReady() {
        RdmaStorageProfile profile = profile(5, false);
        io.rdmastorage.operator.api.FleetSpec fleet = new io.rdmastorage.operator.api.FleetSpec();
        fleet.setRequired(true);
        profile.getSpec().setFleet(fleet);
        List<Pod> pods = List.of(finished(profile, "gpu-01", 1, reportWithFirmware("gpu-01", "28.41.1000")),
                finished(profile, "gpu-02", 1, reportWithFirmware("gpu-02", "28.41.1000")),
                finished(profile, "gpu-03", 1, reportWithFirmware("gpu-03", "28.39.1002")));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(), pods);

        Condition ready = ready(change(plan, "gpu-03").writes().get(0).status());
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getMessage()).isEqualTo("MatchesFleet: DiffersFromFleet");
        assertThat(ready(change(plan, "gpu-01").writes().get(0).status()).getStatus()).isEqualTo("True");
    }

    @Test
    void aSteadyFleetWritesNothingAndANodeTheFleetMovesAwayFromGetsOneWrite() {
        RdmaStorageProfile profile = profile(5, false);
        List<Pod> first = List.of(finished(profile, "gpu-01", 1, reportWithFirmware("gpu-01", "28.41.1000")),
                finished(profile, "gpu-02", 1, reportWithFirmware("gpu-02", "28.39.1002")));
        ProfilePlan round1 = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(), first);
        // two nodes that differ: no majority yet
        assertThat(matchesFleet(change(round1, "gpu-01").writes().get(0).status()).getReason()).isEqualTo("NoFleetMajority");
        RdmaStorageNode stored1 = verdict(profile, "gpu-01", change(round1, "gpu-01").writes().get(0).status());
        RdmaStorageNode stored2 = verdict(profile, "gpu-02", change(round1, "gpu-02").writes().get(0).status());

        ProfilePlan steady = plan(profile, nodes("gpu-01", "gpu-02"), List.of(stored1, stored2), List.of());
        assertThat(steady.nodes()).allSatisfy(n -> assertThat(n.writes()).isEmpty());

        // gpu-03 reports the current firmware: gpu-02 becomes the odd one out without a probe of its own
        Pod third = finished(profile, "gpu-03", 1, reportWithFirmware("gpu-03", "28.41.1000"));
        ProfilePlan round2 = plan(profile, nodes("gpu-01", "gpu-02", "gpu-03"), List.of(stored1, stored2), List.of(third));
        assertThat(change(round2, "gpu-02").writes()).singleElement()
                .satisfies(w -> assertThat(matchesFleet(w.status()).getStatus()).isEqualTo("False"));
        assertThat(change(round2, "gpu-01").writes()).singleElement()
                .satisfies(w -> assertThat(matchesFleet(w.status()).getStatus()).isEqualTo("True"));
        assertThat(change(round2, "gpu-03").writes()).hasSize(1);
    }

    static Condition matchesFleet(RdmaStorageNodeStatus status) {
        return Conditions.find(status.getConditions(), FleetDistribution.MATCHES_FLEET).orElseThrow();
    }

    @Test
    void aVerdictSomeoneElseEditedIsDiscardedItsMarkingsLeftAsTheOperatorSetThemAndTheNodeProbedAgainAtOnce() {
        RdmaStorageProfile profile = profile(5, false);
        profile.getSpec().setNodeLabels(true);
        Instant probedAt = NOW.minus(Duration.ofMinutes(2));
        RdmaStorageNodeStatus failing = NodeVerdicts.merge(null, NodeVerdicts.fromTermination(profile.getSpec(), GEN,
                new ProbePod("ns", "p", "gpu-01"), 1, "Error", failingReport("gpu-01"), probedAt), probedAt);
        failing.setProbeRound(4L);
        RdmaStorageNode stored = verdict(profile, "gpu-01", failing);
        // kubectl patch --subresource=status: every condition True, the digest as it was
        stored.getStatus().getConditions().forEach(c -> c.setStatus("True"));

        ProfilePlan plan = plan(profile, nodes("gpu-01"), List.of(stored), List.of());
        ProfilePlan.NodeChange change = change(plan, "gpu-01");

        assertThat(change.discard()).as("the edited object is deleted and written anew").isTrue();
        assertThat(change.writes()).singleElement().satisfies(w -> {
            assertThat(w.previous()).as("nothing of the edit is merged").isNull();
            assertThat(w.status().getConditions()).filteredOn(c -> !c.getType().equals(FleetDistribution.MATCHES_FLEET))
                    .allSatisfy(c -> {
                        assertThat(c.getStatus()).isEqualTo("Unknown");
                        assertThat(c.getReason()).isEqualTo(Reasons.VERDICT_EDITED);
                    });
            // the edited object's inventory facts are not trusted either
            assertThat(matchesFleet(w.status()).getReason()).isEqualTo(Reasons.INVENTORY_NOT_REPORTED);
            assertThat(w.status().getLastProbeTime()).isNull();
        });
        assertThat(change.marking()).as("the markings stay as the operator's own verdict set them").isNull();
        assertThat(plan.creates()).singleElement().satisfies(p ->
                assertThat(p.getMetadata().getLabels().get(Labels.ROUND)).isEqualTo("5"));
    }

    @Test
    void aVerdictAsTheOperatorWroteItIsTrusted() {
        RdmaStorageProfile profile = profile(5, false);
        profile.getSpec().setNodeLabels(true);
        Instant probedAt = NOW.minus(Duration.ofMinutes(2));
        RdmaStorageNode stored = verdict(profile, "gpu-01", NodeVerdicts.merge(null, probed(profile, "gpu-01", 1,
                probedAt), probedAt));

        ProfilePlan plan = plan(profile, nodes("gpu-01"), List.of(stored), List.of());

        assertThat(change(plan, "gpu-01").discard()).isFalse();
        assertThat(change(plan, "gpu-01").marking().ready().getStatus()).isEqualTo("True");
        assertThat(plan.creates()).isEmpty();
    }

    /** Security round 4 (5): a held node's markings follow the same 3 × interval expiry as any verdict's. */
    @Test
    void aHeldNodesMarkingsStayOnlyUntilTheLastResultBeforeTheRunExpires() {
        RdmaStorageProfile profile = profile(5, false);
        profile.getSpec().setNodeLabels(true);
        profile.getSpec().setTaintNotReady(true);
        List<RdmaStorageAcceptance> runs = List.of(AcceptanceTransportHoldsTest.holding("gpu-01", true));
        Duration expiry = Duration.ofMinutes(45);   // 3 × the default 15m interval

        RdmaStorageNode recent = verdict(profile, "gpu-01", probed(profile, "gpu-01", 1, NOW.minusSeconds(600)));
        ProfilePlan kept = ProfilePlanner.plan(ProfileSnapshot.of(profile, nodes("gpu-01"), List.of(recent), List.of(), runs),
                CONFIG, NOW);
        assertThat(change(kept, "gpu-01").marking()).as("within the expiry: kept as the last result set them").isNull();
        assertThat(kept.wakeAt()).as("a look again at the expiry").isBeforeOrEqualTo(NOW.minusSeconds(600).plus(expiry));

        RdmaStorageNode old = verdict(profile, "gpu-01", probed(profile, "gpu-01", 1, NOW.minus(expiry).minusSeconds(1)));
        ProfilePlan expired = ProfilePlanner.plan(ProfileSnapshot.of(profile, nodes("gpu-01"), List.of(old), List.of(), runs),
                CONFIG, NOW);
        assertThat(change(expired, "gpu-01").marking()).as("past the expiry: they follow Unknown").isNotNull()
                .satisfies(m -> assertThat(m.ready().getStatus()).isEqualTo("Unknown"));
    }

    @Test
    void aNodeThatCannotBeProbedIsMarkedOnceAndGetsNoPod() {
        RdmaStorageProfile profile = profile(5, false);
        Node cordoned = new NodeBuilder(node("gpu-01")).editSpec().withUnschedulable(true).endSpec().build();

        ProfilePlan plan = plan(profile, List.of(cordoned), List.of(), List.of());

        assertThat(change(plan, "gpu-01").writes()).singleElement().satisfies(w ->
                assertThat(ready(w.status()).getReason()).isEqualTo(Reasons.NODE_UNSCHEDULABLE));
        assertThat(plan.creates()).isEmpty();
    }

    @Test
    void aNodeAnAcceptanceRunConnectsOnIsNotProbedAndItsReportFromThatTimeIsNotHarvested() {
        RdmaStorageProfile profile = profile(5, false);
        profile.getSpec().setNodeLabels(true);
        profile.getSpec().setTaintNotReady(true);
        RdmaStorageNode stored = verdict(profile, "gpu-01", probed(profile, "gpu-01", 1, NOW.minusSeconds(600)));
        // finished while the run's TCP controller was connected: it may judge the run's transport
        Pod during = finished(profile, "gpu-01", 2, failingReport("gpu-01"));
        List<RdmaStorageAcceptance> runs = List.of(AcceptanceTransportHoldsTest.holding("gpu-01", true));

        ProfilePlan plan = ProfilePlanner.plan(ProfileSnapshot.of(profile, nodes("gpu-01", "gpu-02"), List.of(stored),
                List.of(during), runs), CONFIG, NOW);

        ProfilePlan.NodeChange held = change(plan, "gpu-01");
        assertThat(held.writes()).singleElement().satisfies(w -> {
            assertThat(ready(w.status()).getStatus()).isEqualTo("Unknown");
            assertThat(ready(w.status()).getReason()).isEqualTo(Reasons.ACCEPTANCE_RUN_IN_PROGRESS);
        });
        assertThat(held.probeFailures()).isEmpty();
        assertThat(held.marking()).as("label and taint stay as the verdict before the run set them").isNull();
        assertThat(held.deletes()).as("deleted unharvested").containsExactly(during);
        assertThat(plan.creates()).as("only the node no run holds").singleElement()
                .satisfies(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("gpu-02"));
        // the node's own state comes first
        Node cordoned = new NodeBuilder(node("gpu-01")).editSpec().withUnschedulable(true).endSpec().build();
        ProfilePlan both = ProfilePlanner.plan(ProfileSnapshot.of(profile, List.of(cordoned), List.of(), List.of(), runs),
                CONFIG, NOW);
        assertThat(ready(change(both, "gpu-01").writes().get(0).status()).getReason()).isEqualTo(Reasons.NODE_UNSCHEDULABLE);
        // once the run's changes are undone the node is due at once
        RdmaStorageNode heldVerdict = verdict(profile, "gpu-01", held.writes().get(0).status());
        ProfilePlan after = ProfilePlanner.plan(ProfileSnapshot.of(profile, nodes("gpu-01"), List.of(heldVerdict), List.of(),
                List.of(AcceptanceTransportHoldsTest.holding("gpu-01", false))), CONFIG, NOW);
        assertThat(after.creates()).singleElement().satisfies(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("gpu-01"));
    }

    @Test
    void aNodeThatLeftTheSelectionLosesItsPodsAndVerdictButIsNoLongerCounted() {
        RdmaStorageProfile profile = profile(5, false);
        Node unlabelled = new NodeBuilder(node("gpu-02")).editMetadata().withLabels(Map.of()).endMetadata().build();
        RdmaStorageNode stored = verdict(profile, "gpu-02", probed(profile, "gpu-02", 1, NOW.minusSeconds(60)));
        Pod running = running(profile, "gpu-02", 2, NOW.minusSeconds(5));

        ProfilePlan plan = plan(profile, List.of(node("gpu-01"), unlabelled), List.of(stored), List.of(running));

        ProfilePlan.NodeChange gone = change(plan, "gpu-02");
        assertThat(gone.forget()).isTrue();
        assertThat(gone.deletes()).containsExactly(running);
        assertThat(gone.writes()).isEmpty();
        assertThat(plan.creates()).extracting(p -> p.getSpec().getNodeName()).containsExactly("gpu-01");
    }

    @Test
    void latencyRoundsShareTheSlotBudgetAfterTheNodesOwnProbes() {
        // three slots: two node probes, then one latency round would need two more
        ProfilePlan tight = plan(profile(3, true), nodes("gpu-01", "gpu-02"), List.of(), List.of());
        assertThat(tight.creates()).extracting(ProfilePlannerTest::role).containsExactly("probe", "probe");
        assertThat(tight.waiting()).as("both latency rounds wait").isEqualTo(2);

        // six: both probes and both rounds (a ring of two: each node the other's peer)
        ProfilePlan roomy = plan(profile(6, true), nodes("gpu-01", "gpu-02"), List.of(), List.of());
        assertThat(roomy.creates()).extracting(ProfilePlannerTest::role)
                .containsExactly("probe", "probe", LatencyPods.SERVER, LatencyPods.SERVER);
        assertThat(roomy.creates().subList(2, 4)).extracting(p -> p.getSpec().getNodeName())
                .containsExactly("gpu-02", "gpu-01");
        assertThat(roomy.waiting()).isZero();
    }

    @Test
    void aFinishedProbeAndAFinishedLatencyRoundOfOneNodeAreWrittenInOrderOverEachOther() {
        RdmaStorageProfile profile = profile(6, true);
        Pod probe = finished(profile, "gpu-01", 1, healthyReport("gpu-01"));
        Pod server = latencyServer(profile, "gpu-01", "gpu-02", 0);
        Pod client = finishedLatencyClient(profile, server, latencyReport("gpu-01"));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), List.of(), List.of(probe, server, client));

        List<ProfilePlan.VerdictWrite> writes = change(plan, "gpu-01").writes();
        assertThat(writes).hasSize(2);
        assertThat(writes.get(0).thenDelete()).containsExactly(probe);
        assertThat(Conditions.find(writes.get(0).status().getConditions(), "VerbsLatency").orElseThrow().getReason())
                .isEqualTo(Reasons.AWAITING_MEASUREMENT);
        assertThat(writes.get(1).previous()).isSameAs(writes.get(0).status());
        assertThat(writes.get(1).thenDelete()).containsExactlyInAnyOrder(server, client);
        assertThat(Conditions.find(writes.get(1).status().getConditions(), "VerbsLatency").orElseThrow().getReason())
                .isEqualTo("WithinThreshold");
        assertThat(ready(writes.get(1).status()).getStatus()).isEqualTo("True");
        assertThat(writes.get(1).status().getProbeRound()).as("the probe's facts stay").isEqualTo(1L);
        assertThat(writes.get(1).status().getLatency().getTypicalMicros()).isEqualTo(1.01);
    }

    @Test
    void markingsFollowTheVerdictOnlyWhereTheProfileAsksForThem() {
        RdmaStorageProfile profile = profile(5, false);
        Pod finished = finished(profile, "gpu-01", 1, healthyReport("gpu-01"));
        assertThat(change(plan(profile, nodes("gpu-01"), List.of(), List.of(finished)), "gpu-01").marking()).isNull();

        profile.getSpec().setNodeLabels(true);
        ProfilePlan.Marking marking = change(plan(profile, nodes("gpu-01"), List.of(), List.of(finished)), "gpu-01")
                .marking();
        assertThat(marking.remove()).isFalse();
        assertThat(marking.ready().getStatus()).as("the Ready just harvested").isEqualTo("True");
    }

    @Test
    void aLatencyRoundThatEndsGivesItsTwoSlotsToTheProbesDueInTheSameReconcile() {
        RdmaStorageProfile profile = profile(2, true);
        Instant probedAt = NOW.minus(Duration.ofMinutes(20));   // both nodes due again
        List<RdmaStorageNode> stored = List.of(
                verdict(profile, "gpu-01", probed(profile, "gpu-01", 1, probedAt)),
                verdict(profile, "gpu-02", probed(profile, "gpu-02", 1, probedAt)));
        Pod server = latencyServer(profile, "gpu-01", "gpu-02", 0);
        Pod client = finishedLatencyClient(profile, server, latencyReport("gpu-01"));

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), stored, List.of(server, client));

        assertThat(change(plan, "gpu-01").writes()).singleElement()
                .satisfies(w -> assertThat(w.thenDelete()).containsExactlyInAnyOrder(server, client));
        assertThat(plan.creates()).extracting(ProfilePlannerTest::role).containsExactly("probe", "probe");
    }

    @Test
    void aNodeThatLeftHasTheMarkingsOfThisProfileRemoved() {
        RdmaStorageProfile profile = profile(5, false);
        Node left = new NodeBuilder(node("gpu-01")).editMetadata().withLabels(Map.of("rdmastorage.io/training", "true"))
                .endMetadata().build();

        RdmaStorageNode stored = verdict(profile, "gpu-01", probed(profile, "gpu-01", 1, NOW.minusSeconds(60)));

        ProfilePlan.NodeChange change = change(plan(profile, List.of(left), List.of(stored), List.of()), "gpu-01");

        assertThat(change.forget()).isTrue();
        assertThat(change.marking().remove()).isTrue();
        assertThat(change.marking().node()).isSameAs(left);
    }

    @Test
    void latencyPodsOfARemovedSectionAndStrayPodsAreDeleted() {
        RdmaStorageProfile profile = profile(5, true);
        Pod server = latencyServer(profile, "gpu-01", "gpu-02", 0);
        Pod stray = new PodBuilder(server).editMetadata().withName("tampered").removeFromAnnotations(
                LatencyPods.PEER_NODE_ANNOTATION).endMetadata().build();
        profile.getSpec().setLatency(null);

        ProfilePlan plan = plan(profile, nodes("gpu-01", "gpu-02"), List.of(), List.of(server, stray));

        assertThat(plan.deletes()).containsExactlyInAnyOrder(server, stray);
    }

    // ================================================================ fixtures

    static ProfilePlan plan(RdmaStorageProfile profile, List<Node> nodes, List<RdmaStorageNode> verdicts, List<Pod> pods) {
        return ProfilePlanner.plan(ProfileSnapshot.of(profile, nodes, verdicts, pods), CONFIG, NOW);
    }

    static RdmaStorageProfile profile(int maxConcurrentProbes, boolean latency) {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.getMetadata().setName("training");
        profile.getMetadata().setUid("0b5e9c1e-1111-2222-3333-444455556666");
        profile.getMetadata().setGeneration(GEN);
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setNodeSelector(new LabelSelectorBuilder().addToMatchLabels("gpu", "true").build());
        spec.setMaxConcurrentProbes(maxConcurrentProbes);
        spec.setRdma(new RdmaCheckSpec());
        if (latency) {
            LatencyCheckSpec l = new LatencyCheckSpec();
            l.setDevice("mlx5_0");
            spec.setLatency(l);
        }
        profile.setSpec(spec);
        return profile;
    }

    static List<Node> nodes(String... names) {
        return Arrays.stream(names).map(ProfilePlannerTest::node).toList();
    }

    static Node node(String name) {
        return new NodeBuilder()
                .withNewMetadata().withName(name).addToLabels("gpu", "true").endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus()
                    .addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .addNewAddress().withType("InternalIP").withAddress("10.0.0." + name.substring(name.length() - 1))
                    .endAddress()
                .endStatus()
                .build();
    }

    /** A verdict as the operator wrote it (stamped with its digest). */
    static RdmaStorageNode verdict(RdmaStorageProfile profile, String node, RdmaStorageNodeStatus status) {
        RdmaStorageNode v = new RdmaStorageNode();
        v.getMetadata().setName(profile.getMetadata().getName() + "." + node);
        RdmaStorageNodeSpec spec = new RdmaStorageNodeSpec();
        spec.setProfile(profile.getMetadata().getName());
        spec.setNodeName(node);
        v.setSpec(spec);
        v.setStatus(VerdictDigest.stamp(v.getMetadata().getName(), status));
        return v;
    }

    static RdmaStorageNodeStatus probed(RdmaStorageProfile profile, String node, long round, Instant at) {
        RdmaStorageNodeStatus s = NodeVerdicts.fromTermination(profile.getSpec(), GEN, new ProbePod("ns", "p", node), 0,
                "Completed", healthyReport(node), at);
        s.setProbeRound(round);
        return s;
    }

    static Pod stored(Pod pod, Instant created) {
        return new PodBuilder(pod).editMetadata().withCreationTimestamp(created.toString()).endMetadata().build();
    }

    static Pod running(RdmaStorageProfile profile, String node, long round, Instant created) {
        Pod pod = stored(ProbePodFactory.build(profile, node, round, CONFIG), created);
        return new PodBuilder(pod).withStatus(PodStatuses.running(pod, "10.0.0.9", created.plusSeconds(1))).build();
    }

    static Pod finished(RdmaStorageProfile profile, String node, long round, String report) {
        return terminated(stored(ProbePodFactory.build(profile, node, round, CONFIG), NOW.minusSeconds(20)), report);
    }

    static Pod latencyServer(RdmaStorageProfile profile, String client, String peer, int exitCode) {
        Pod pod = stored(LatencyPods.server(profile, client, new io.rdmastorage.operator.latency.Peer(peer,
                "10.0.0." + peer.substring(peer.length() - 1)), 1, 1, 18515, CONFIG), NOW.minusSeconds(20));
        return new PodBuilder(pod).withStatus(PodStatuses.terminated(pod, "10.0.0.9", NOW.minusSeconds(19),
                NOW.minusSeconds(5), Map.of(ProbePodFactory.CONTAINER, new PodStatuses.Exit(exitCode, "")))).build();
    }

    static Pod finishedLatencyClient(RdmaStorageProfile profile, Pod server, String report) {
        Pod client = stored(LatencyPods.client(profile, io.rdmastorage.operator.latency.LatencyPod.of(server)
                .orElseThrow(), CONFIG), NOW.minusSeconds(15));
        return terminated(client, report);
    }

    static Pod terminated(Pod pod, String report) {
        return new PodBuilder(pod).withStatus(PodStatuses.terminated(pod, "10.0.0.9", NOW.minusSeconds(12),
                NOW.minusSeconds(10), Map.of(ProbePodFactory.CONTAINER, new PodStatuses.Exit(0, report)))).build();
    }

    /** node-probe's own report of a node whose RDMA ports are fine. */
    static String healthyReport(String node) {
        CheckResult rdma = CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.TRUE, "PortsActive", "ok").build();
        return ReportJson.compact(Report.of(node, "test", "2026-03-01T11:59:40Z", 800, List.of(rdma)));
    }

    /** node-probe's own report of a node whose RDMA port is down. */
    static String failingReport(String node) {
        CheckResult rdma = CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.FALSE, "PortDown", "down").build();
        return ReportJson.compact(Report.of(node, "test", "2026-03-01T11:57:40Z", 800, List.of(rdma)));
    }

    static String latencyReport(String node) {
        CheckResult.Builder b = CheckResult.builder(CheckType.VERBS_LATENCY);
        b.detail("tTypicalMicros", 1.01);
        CheckResult latency = b.condition(Status.TRUE, "WithinThreshold", "1.01 µs").build();
        return ReportJson.compact(Report.of(node, "test", "2026-03-01T11:59:48Z", 1200, List.of(latency)));
    }

    static ProfilePlan.NodeChange change(ProfilePlan plan, String node) {
        return plan.nodes().stream().filter(n -> n.node().equals(node)).findFirst().orElseThrow();
    }

    static Condition ready(RdmaStorageNodeStatus status) {
        return Conditions.find(status.getConditions(), "Ready").orElseThrow();
    }

    static String role(Pod pod) {
        return pod.getMetadata().getLabels().getOrDefault(LatencyPods.ROLE, "probe");
    }
}
