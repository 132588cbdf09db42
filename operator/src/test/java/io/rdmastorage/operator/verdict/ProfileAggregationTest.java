package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.verdict.ProfileAggregation.Member;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileAggregationTest {

    static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    static final long GEN = 7;
    static final RdmaStorageProfileSpec SPEC = RealProbe.healthySpec();

    /** Real verdicts of the issue's four simulated nodes, by scenario; reused under other names below. */
    static RdmaStorageNodeStatus healthy;
    static RdmaStorageNodeStatus tcpFallback;
    static RdmaStorageNodeStatus nvmeofOnTcp;
    static RdmaStorageNodeStatus iommuEnabled;

    @TempDir
    Path dir;

    @BeforeAll
    static void probeFourNodes(@TempDir Path dir) {
        healthy = verdict(dir, "gpu-01");
        tcpFallback = verdict(dir, "gpu-07", "gpfs-tcp-fallback");
        nvmeofOnTcp = verdict(dir, "gpu-09", "nvmeof-on-tcp");
        iommuEnabled = verdict(dir, "gpu-12", "gds-iommu-enabled");
    }

    static RdmaStorageNodeStatus verdict(Path dir, String node, String... failures) {
        RealProbe.Termination t = RealProbe.scenario(dir, node, failures);
        return NodeVerdicts.fromTermination(SPEC, GEN, new ProbePod("rdma-storage-system", "probe-" + node, node),
                t.exitCode(), null, t.message(), T0);
    }

    static RdmaStorageNodeStatus awaiting(String node) {
        return NodeVerdicts.notProbed(SPEC, GEN, node, NotProbed.AWAITING_PROBE, T0);
    }

    @Test
    void theIssuesFourNodes() {
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(
                new Member("gpu-01", healthy), new Member("gpu-12", iommuEnabled),
                new Member("gpu-07", tcpFallback), new Member("gpu-09", nvmeofOnTcp)), null, T0);

        assertThat(s.getObservedGeneration()).isEqualTo(GEN);
        assertThat(s.getNodes()).satisfies(n -> {
            assertThat(n.getMatched()).isEqualTo(4);
            assertThat(n.getReady()).isEqualTo(1);
            assertThat(n.getNotReady()).isEqualTo(3);
            assertThat(n.getUnknown()).isZero();
        });
        assertThat(s.getConditions()).extracting(Condition::getType)
                .containsExactly("Ready", "RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "CephMessenger");
        Condition ready = condition(s, "Ready");
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo("NodesNotReady");
        assertThat(ready.getMessage()).isEqualTo("3 of 4 nodes not ready: gpu-07 (GpfsVerbs: TcpFallback), "
                + "gpu-09 (NvmeofRdma: TransportTcp), gpu-12 (GdsReady: IommuEnabled)");
        assertThat(s.getNotReadyNodes()).containsExactly("gpu-07", "gpu-09", "gpu-12");
        assertThat(condition(s, "GpfsVerbs")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("NodesFailing");
            assertThat(c.getMessage()).isEqualTo("1 of 4 nodes False: gpu-07 (TcpFallback); 3 True");
        });
        assertThat(condition(s, "RdmaDevices")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("AllNodesPassed");
            assertThat(c.getMessage()).isEqualTo("4 of 4 nodes True");
        });
        assertThat(s.getConditions()).allSatisfy(c -> {
            assertThat(c.getObservedGeneration()).isEqualTo(GEN);
            assertThat(c.getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z");
        });
    }

    @Test
    void unknownNodesAreNamedAfterTheFailingOnes() {
        RdmaStorageNodeStatus timedOut = NodeVerdicts.fromFailure(SPEC, GEN, new ProbePod("ns", "p", "gpu-30"),
                ProbeFailure.timedOut(new ProbePod("ns", "p", "gpu-30"), Duration.ofMinutes(3)), T0);
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(
                new Member("gpu-30", timedOut), new Member("gpu-07", tcpFallback),
                new Member("gpu-20", awaiting("gpu-20")), new Member("gpu-01", healthy)), null, T0);

        assertThat(s.getNodes().getUnknown()).isEqualTo(2);
        assertThat(condition(s, "Ready").getMessage()).isEqualTo("1 of 4 nodes not ready: gpu-07 (GpfsVerbs: TcpFallback); "
                + "2 unknown: gpu-20 (AwaitingProbe), gpu-30 (ProbeTimedOut)");
        assertThat(s.getNotReadyNodes()).containsExactly("gpu-07", "gpu-20", "gpu-30");
        assertThat(condition(s, "GpfsVerbs").getMessage()).isEqualTo(
                "1 of 4 nodes False: gpu-07 (TcpFallback); 2 Unknown: gpu-20 (AwaitingProbe), gpu-30 (ProbeTimedOut); 1 True");
        assertThat(condition(s, "NvmeofRdma")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("Unknown");
            assertThat(c.getReason()).isEqualTo("NodesUnknown");
            assertThat(c.getMessage()).isEqualTo("2 of 4 nodes Unknown: gpu-20 (AwaitingProbe), gpu-30 (ProbeTimedOut); 2 True");
        });
    }

    @Test
    void onlyUnknownNodesMakeTheProfileUnknownNeverTrue() {
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(
                new Member("gpu-01", healthy), new Member("gpu-02", awaiting("gpu-02"))), null, T0);

        Condition ready = condition(s, "Ready");
        assertThat(ready.getStatus()).isEqualTo("Unknown");
        assertThat(ready.getReason()).isEqualTo("NodesAwaiting");
        assertThat(ready.getMessage()).isEqualTo("1 of 2 nodes unknown: gpu-02 (AwaitingProbe)");
    }

    /**
     * Each cause of unknown nodes has its own reason, for the Ready condition and for each check's,
     * decided over every unknown node (not only the five the message names): waiting for a first
     * probe or measurement, paused on NotReady or cordoned nodes, or trouble; the worst one wins.
     */
    @Test
    void theReasonOfUnknownNodesSaysWhyOverAllOfThem() {
        RdmaStorageNodeStatus cordoned = NodeVerdicts.notProbed(SPEC, GEN, "gpu-03", NotProbed.NODE_UNSCHEDULABLE, T0);
        RdmaStorageNodeStatus notReady = NodeVerdicts.notProbed(SPEC, GEN, "gpu-04", NotProbed.NODE_NOT_READY, T0);
        assertThat(readyReason(new Member("gpu-01", healthy), new Member("gpu-03", cordoned), new Member("gpu-04", notReady)))
                .isEqualTo("NodesPaused");
        assertThat(readyReason(new Member("gpu-02", awaiting("gpu-02")), new Member("gpu-03", cordoned)))
                .isEqualTo("NodesAwaiting");

        List<Member> members = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            members.add(new Member("gpu-0" + i, awaiting("gpu-0" + i)));
        }
        members.add(new Member("gpu-07", NodeVerdicts.fromFailure(SPEC, GEN, new ProbePod("ns", "p", "gpu-07"),
                ProbeFailure.timedOut(new ProbePod("ns", "p", "gpu-07"), Duration.ofMinutes(3)), T0)));
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, members, null, T0);
        assertThat(condition(s, "Ready").getMessage()).doesNotContain("gpu-07");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("NodesUnknown");
        assertThat(condition(s, "GpfsVerbs").getReason()).isEqualTo("NodesUnknown");

        s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, members.subList(0, 6), null, T0);
        assertThat(s.getConditions()).filteredOn(c -> !c.getStatus().equals("True"))
                .extracting(Condition::getReason).containsOnly("NodesAwaiting");
    }

    private static String readyReason(Member... members) {
        return condition(ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(members), null, T0), "Ready").getReason();
    }

    @Test
    void allNodesReady() {
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(
                new Member("gpu-01", healthy), new Member("gpu-02", healthy)), null, T0);

        assertThat(condition(s, "Ready")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("AllNodesReady");
            assertThat(c.getMessage()).isEqualTo("2 of 2 nodes ready");
        });
        assertThat(s.getNotReadyNodes()).isEmpty();
        assertThat(s.getConditions()).allSatisfy(c -> assertThat(c.getStatus()).isEqualTo("True"));
    }

    @Test
    void noMatchingNodesIsUnknown() {
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, List.of(), null, T0);

        assertThat(s.getNodes().getMatched()).isZero();
        assertThat(s.getConditions()).allSatisfy(c -> {
            assertThat(c.getStatus()).isEqualTo("Unknown");
            assertThat(c.getReason()).isEqualTo("NoMatchingNodes");
            assertThat(c.getMessage()).contains("spec.nodeSelector matches no node", "kubectl get nodes --show-labels");
        });
    }

    @Test
    void aProfileWithoutChecksIsUnknownAndLatencyCountsOnceMeasured() {
        RdmaStorageProfileStatus none = ProfileAggregation.aggregateVerdicts(new RdmaStorageProfileSpec(), GEN,
                List.of(new Member("gpu-01", new RdmaStorageNodeStatus())), null, T0);
        assertThat(condition(none, "Ready").getReason()).isEqualTo("NoChecksConfigured");
        assertThat(none.getConditions()).hasSize(1);

        RdmaStorageProfileSpec withLatency = RealProbe.withLatency(RealProbe.healthySpec());
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(withLatency, GEN, List.of(
                new Member("gpu-01", healthy)), null, T0);
        // the healthy node's verdict has no VerbsLatency yet: the profile waits for it
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("Unknown");
        assertThat(condition(s, "VerbsLatency").getMessage()).isEqualTo("1 of 1 nodes Unknown: gpu-01 (AwaitingProbe); 0 True");

        RdmaStorageNodeStatus measured = LatencyVerdicts.withLatency(withLatency, healthy, Conditions.of("VerbsLatency",
                "True", "WithinThreshold", "1.01 µs", GEN, T0), new io.rdmastorage.operator.api.LatencyResult(), GEN, T0);
        RdmaStorageProfileStatus after = ProfileAggregation.aggregateVerdicts(withLatency, GEN, List.of(
                new Member("gpu-01", measured)), null, T0);
        assertThat(condition(after, "Ready").getStatus()).isEqualTo("True");
        assertThat(condition(after, "VerbsLatency").getStatus()).isEqualTo("True");
    }

    @Test
    void aCheckAddedToTheProfileIsUnknownUntilProbedWhileOtherEditsKeepVerdicts() {
        RdmaStorageProfileSpec gpfsOnly = new RdmaStorageProfileSpec();
        gpfsOnly.setGpfs(SPEC.getGpfs());
        RdmaStorageNodeStatus oldVerdict = NodeVerdicts.fromTermination(gpfsOnly, GEN, new ProbePod("ns", "p", "gpu-01"), 0,
                null, RealProbe.scenario(dir, "gpu-01").message(), T0);

        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN + 1,
                List.of(new Member("gpu-01", oldVerdict)), null, T0);
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("Unknown");
        assertThat(condition(s, "GpfsVerbs").getStatus()).isEqualTo("True");
        assertThat(condition(s, "GdsReady").getMessage()).isEqualTo("1 of 1 nodes Unknown: gpu-01 (AwaitingProbe); 0 True");

        gpfsOnly.setInterval("5m");
        assertThat(condition(ProfileAggregation.aggregateVerdicts(gpfsOnly, GEN + 1,
                List.of(new Member("gpu-01", oldVerdict)), null, T0), "Ready").getStatus()).isEqualTo("True");
    }

    @Test
    void longListsAreCutWorstFirst() {
        List<Member> nodes = new ArrayList<>();
        for (int i = 40; i >= 1; i--) {
            String name = String.format("gpu-%02d", i);
            nodes.add(new Member(name, i % 10 == 0 ? tcpFallback : i % 7 == 0 ? awaiting(name) : healthy));
        }
        RdmaStorageProfileStatus s = ProfileAggregation.aggregateVerdicts(SPEC, GEN, nodes, null, T0);

        assertThat(s.getNodes().getNotReady()).isEqualTo(4);
        assertThat(s.getNodes().getUnknown()).isEqualTo(5);
        assertThat(s.getNotReadyNodes()).containsExactly("gpu-10", "gpu-20", "gpu-30", "gpu-40",
                "gpu-07", "gpu-14", "gpu-21", "gpu-28", "gpu-35");

        List<Member> many = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            String name = String.format("gpu-%02d", i);
            many.add(new Member(name, i <= 12 ? tcpFallback : i <= 15 ? nvmeofOnTcp : i == 16 ? awaiting(name) : healthy));
        }
        RdmaStorageProfileStatus m = ProfileAggregation.aggregateVerdicts(SPEC, GEN, many, null, T0);
        assertThat(condition(m, "Ready").getMessage()).isEqualTo("15 of 40 nodes not ready: "
                + "gpu-01 (GpfsVerbs: TcpFallback), gpu-02 (GpfsVerbs: TcpFallback), gpu-03 (GpfsVerbs: TcpFallback), "
                + "gpu-04 (GpfsVerbs: TcpFallback), gpu-05 (GpfsVerbs: TcpFallback), ... and 10 more; "
                + "1 unknown: gpu-16 (AwaitingProbe)");
        assertThat(m.getNotReadyNodes()).hasSize(ProfileAggregation.NOT_READY_NODES)
                .containsExactly("gpu-01", "gpu-02", "gpu-03", "gpu-04", "gpu-05", "gpu-06", "gpu-07", "gpu-08", "gpu-09", "gpu-10");
        assertThat(condition(m, "NvmeofRdma").getMessage()).isEqualTo(
                "3 of 40 nodes False: gpu-13 (TransportTcp), gpu-14 (TransportTcp), gpu-15 (TransportTcp); "
                        + "1 Unknown: gpu-16 (AwaitingProbe); 36 True");
    }

    @Test
    void conditionsDoNotFlapAcrossRounds() {
        List<Member> failing = List.of(new Member("gpu-01", healthy), new Member("gpu-07", tcpFallback));
        RdmaStorageProfileStatus first = ProfileAggregation.aggregateVerdicts(SPEC, GEN, failing, null, T0);
        Instant t1 = T0.plus(Duration.ofMinutes(15));
        RdmaStorageProfileStatus second = ProfileAggregation.aggregateVerdicts(SPEC, GEN, failing, first, t1);

        assertThat(second.getConditions()).isEqualTo(first.getConditions());
        assertThat(VerdictChange.between(first, second)).isEmpty();

        Instant t2 = t1.plus(Duration.ofMinutes(15));
        RdmaStorageProfileStatus fixed = ProfileAggregation.aggregateVerdicts(SPEC, GEN + 1, List.of(
                new Member("gpu-01", healthy), new Member("gpu-07", healthy)), second, t2);
        assertThat(condition(fixed, "Ready").getLastTransitionTime()).isEqualTo("2024-05-01T10:30:00Z");
        assertThat(condition(fixed, "GpfsVerbs").getLastTransitionTime()).isEqualTo("2024-05-01T10:30:00Z");
        assertThat(condition(fixed, "NvmeofRdma").getLastTransitionTime()).isEqualTo("2024-05-01T10:00:00Z");
        assertThat(fixed.getConditions()).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(GEN + 1));
        assertThat(VerdictChange.between(second, fixed)).extracting(VerdictChange::type).containsExactly("Ready", "GpfsVerbs");
    }

    @Test
    void readsRdmaStorageNodeObjects() {
        RdmaStorageNode bySpec = node("rsp.gpu-07", "gpu-07", tcpFallback);
        RdmaStorageNode byLabel = node("rsp.gpu-09", null, nvmeofOnTcp);
        byLabel.getMetadata().setLabels(java.util.Map.of(RdmaStorageNode.NODE_LABEL, "gpu-09"));
        RdmaStorageNode noStatus = node("rsp.gpu-02", "gpu-02", null);

        RdmaStorageProfileStatus s = ProfileAggregation.aggregate(SPEC, GEN, List.of(bySpec, byLabel, noStatus), null, T0);

        assertThat(condition(s, "Ready").getMessage()).isEqualTo("2 of 3 nodes not ready: gpu-07 (GpfsVerbs: TcpFallback), "
                + "gpu-09 (NvmeofRdma: TransportTcp); 1 unknown: gpu-02 (AwaitingProbe)");
    }

    @Test
    void fiveThousandNodesGiveASmallStatus() throws Exception {
        List<RdmaStorageNode> nodes = new ArrayList<>(5000);
        RdmaStorageNodeStatus[] kinds = {healthy, tcpFallback, nvmeofOnTcp, iommuEnabled, awaiting("x")};
        for (int i = 0; i < 5000; i++) {
            String name = String.format("gpu-rack%03d-node%02d.cluster.example.com", i / 50, i % 50);
            nodes.add(node("rsp." + name, name, kinds[i % 7 == 0 ? 1 + i % 4 : 0]));
        }

        RdmaStorageProfileStatus s = ProfileAggregation.aggregate(SPEC, GEN, nodes, null, T0);

        byte[] json = new ObjectMapper().writeValueAsBytes(s);
        assertThat(json.length).isLessThan(100 * 1024).isLessThan(8 * 1024);
        assertThat(s.getNodes().getMatched()).isEqualTo(5000);
        assertThat(s.getNodes().getReady() + s.getNodes().getNotReady() + s.getNodes().getUnknown()).isEqualTo(5000);
        assertThat(s.getNotReadyNodes()).hasSize(10);
        assertThat(condition(s, "Ready").getMessage()).contains("... and ").hasSizeLessThan(1000);
    }

    @Test
    void aggregationLooksAtEachNodeOnce() {
        int n = 5000;
        AtomicInteger conditionReads = new AtomicInteger();
        AtomicInteger listReads = new AtomicInteger();
        List<Member> backing = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RdmaStorageNodeStatus source = i % 3 == 0 ? tcpFallback : i % 5 == 0 ? awaiting("x") : healthy;
            backing.add(new Member("node-" + i, new CountingStatus(source, conditionReads)));
        }
        List<Member> nodes = new AbstractList<>() {
            @Override
            public Member get(int index) {
                listReads.incrementAndGet();
                return backing.get(index);
            }

            @Override
            public int size() {
                return backing.size();
            }
        };

        ProfileAggregation.aggregateVerdicts(SPEC, GEN, nodes, null, T0);

        // One read of the list and of each node's conditions per node: no step looks at nodes pairwise.
        assertThat(listReads.get()).isEqualTo(n);
        assertThat(conditionReads.get()).isEqualTo(n);
    }

    /** A status that counts how often its conditions are read. */
    static final class CountingStatus extends RdmaStorageNodeStatus {
        private final AtomicInteger reads;

        CountingStatus(RdmaStorageNodeStatus source, AtomicInteger reads) {
            this.reads = reads;
            super.setConditions(source.getConditions());
        }

        @Override
        public List<Condition> getConditions() {
            reads.incrementAndGet();
            return super.getConditions();
        }
    }

    static RdmaStorageNode node(String name, String nodeName, RdmaStorageNodeStatus status) {
        RdmaStorageNode node = new RdmaStorageNode();
        node.setMetadata(new ObjectMetaBuilder().withName(name).build());
        RdmaStorageNodeSpec spec = new RdmaStorageNodeSpec();
        spec.setProfile("rsp");
        spec.setNodeName(nodeName);
        node.setSpec(spec);
        node.setStatus(status);
        return node;
    }

    static Condition condition(RdmaStorageProfileStatus s, String type) {
        return Conditions.find(s.getConditions(), type).orElseThrow(() -> new AssertionError("no " + type + " in " + s.getConditions()));
    }

}
