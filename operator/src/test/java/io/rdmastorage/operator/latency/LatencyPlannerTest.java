package io.rdmastorage.operator.latency;

import static io.rdmastorage.operator.latency.LatencyTestPods.CONFIG;
import static io.rdmastorage.operator.latency.LatencyTestPods.finished;
import static io.rdmastorage.operator.latency.LatencyTestPods.pending;
import static io.rdmastorage.operator.latency.LatencyTestPods.read;
import static io.rdmastorage.operator.latency.LatencyTestPods.report;
import static io.rdmastorage.operator.latency.LatencyTestPods.running;
import static io.rdmastorage.operator.latency.LatencyTestPods.stored;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.Status;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LatencyPlannerTest {

    static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");
    static final RdmaStorageProfile PROFILE = LatencyTestPods.profile("60s");
    static final ProfileSettings SETTINGS = ProfileSettings.of(PROFILE.getSpec());
    static final long GEN = 2;
    static final Peer B = new Peer("gpu-b", "10.0.0.2");
    static final Peer C = new Peer("gpu-c", "10.0.0.3");
    static final Set<String> LIVE = Set.of("gpu-a", "gpu-b", "gpu-c");
    static final String MEASURED = "typical RDMA write latency to 10.0.0.2 is 1.01 µs";
    static final String UNREACHABLE = "ib_write_lat could not reach the latency server at 10.0.0.2";

    private static LatencyPlan plan(RdmaStorageNodeStatus status, List<Pod> pods, List<Peer> peers) {
        return LatencyPlanner.plan("gpu-a", true, status, pods.stream().map(LatencyTestPods::read).toList(), peers, LIVE,
                GEN, SETTINGS, NOW);
    }

    private static Pod server(Peer peer, int attempt) {
        return stored(LatencyPods.server(PROFILE, "gpu-a", peer, 1, attempt, 18515, CONFIG), NOW.minusSeconds(10));
    }

    private static Pod client(Pod server) {
        return stored(LatencyPods.client(PROFILE, read(server), CONFIG), NOW.minusSeconds(8));
    }

    private static Pod clientSaid(Pod server, Status status, String reason, String message, Map<String, Object> details) {
        return finished(client(server), NOW.minusSeconds(8), status == Status.TRUE ? 0 : 1,
                report("gpu-a", status, reason, message, details));
    }

    private static RdmaStorageNodeStatus measuredAt(Instant at, long generation, String reason) {
        LatencyResult r = new LatencyResult();
        r.setRound(1L);
        r.setMeasuredAt(Timestamps.format(at));
        r.setObservedGeneration(generation);
        RdmaStorageNodeStatus s = new RdmaStorageNodeStatus();
        s.setLatency(r);
        s.setConditions(List.of(Conditions.of("VerbsLatency", reason.equals("WithinThreshold") ? "True" : "Unknown",
                reason, "m", generation, at)));
        return s;
    }

    @Test
    void aNewNodeStartsItsFirstRoundWithTheServerOnItsFirstPeer() {
        LatencyPlan p = plan(null, List.of(), List.of(B, C));

        assertThat(p.startServer()).contains(new LatencyPlan.ServerStart("gpu-a", B, 1, 1));
        assertThat(p.startClient()).isEmpty();
        assertThat(p.verdict()).isEmpty();
        assertThat(p.inFlight()).isZero();
    }

    @Test
    void aNodeWithoutPeerIsNoPeerOncePerGenerationAndMeasuredWhenOneComes() {
        LatencyPlan alone = plan(null, List.of(), List.of());
        assertThat(alone.verdict().orElseThrow().condition().getReason()).isEqualTo("NoPeer");
        assertThat(alone.verdict().get().condition().getStatus()).isEqualTo("Unknown");
        assertThat(alone.startServer()).isEmpty();

        RdmaStorageNodeStatus saysNoPeer = measuredAt(NOW.minusSeconds(5), GEN, "NoPeer");
        assertThat(plan(saysNoPeer, List.of(), List.of()).verdict()).isEmpty();
        assertThat(plan(saysNoPeer, List.of(), List.of(B)).startServer()).contains(new LatencyPlan.ServerStart("gpu-a", B, 2, 1));
    }

    @Test
    void aPendingServerIsWaitedForAndARunningOneGetsItsClient() {
        Pod server = server(B, 1);
        LatencyPlan waiting = plan(null, List.of(pending(server, NOW.minusSeconds(9))), List.of(B, C));
        assertThat(waiting.startClient()).isEmpty();
        assertThat(waiting.startServer()).isEmpty();
        assertThat(waiting.inFlight()).isEqualTo(LatencyPlanner.PODS_PER_ROUND);
        assertThat(waiting.wakeAt()).isPresent().get().isEqualTo(NOW.minusSeconds(10).plus(Duration.ofSeconds(66)));

        LatencyPlan serving = plan(null, List.of(running(server, NOW.minusSeconds(9))), List.of(B, C));
        assertThat(serving.startClient()).hasValueSatisfying(s -> assertThat(s.peer()).isEqualTo(B));
    }

    @Test
    void aMeasurementIsTheVerdictAndItsRoundsPodsGo() {
        Pod server = finished(server(B, 1), NOW.minusSeconds(9), 0, "{}");
        Pod client = clientSaid(server, Status.TRUE, "WithinThreshold", MEASURED, Map.of("peer", "10.0.0.2",
                "tTypicalMicros", 1.01, "p99Micros", 1.10, "tcpTypicalMicros", 17.89, "rdmaSpeedup", 17.7));

        LatencyPlan p = plan(null, List.of(server, client), List.of(B, C));

        LatencyVerdicts.Decision v = p.verdict().orElseThrow();
        assertThat(v.condition().getStatus()).isEqualTo("True");
        assertThat(v.condition().getMessage()).isEqualTo(MEASURED);
        assertThat(v.result().getPeer()).isEqualTo("gpu-b");
        assertThat(v.result().getPeerAddress()).isEqualTo("10.0.0.2");
        assertThat(v.result().getTypicalMicros()).isEqualTo(1.01);
        assertThat(v.result().getP99Micros()).isEqualTo(1.10);
        assertThat(v.result().getTcpTypicalMicros()).isEqualTo(17.89);
        assertThat(v.result().getRdmaSpeedup()).isEqualTo(17.7);
        assertThat(v.result().getRound()).isEqualTo(1);
        assertThat(v.result().getObservedGeneration()).isEqualTo(GEN);
        assertThat(p.deletes()).containsExactlyInAnyOrder(server, client);
        assertThat(p.inFlight()).isZero();
    }

    @Test
    void anUnreachableFirstPeerIsFollowedByTheSecondAndThenNamed() {
        Pod server1 = finished(server(B, 1), NOW.minusSeconds(9), 1, "{}");
        Pod client1 = clientSaid(server1, Status.FALSE, "PeerUnreachable", UNREACHABLE,
                Map.of("perftestError", "Couldn't connect to 10.0.0.2:18515"));

        LatencyPlan retry = plan(null, List.of(server1, client1), List.of(B, C));
        assertThat(retry.startServer()).contains(new LatencyPlan.ServerStart("gpu-a", C, 1, 2));
        assertThat(retry.verdict()).isEmpty();
        assertThat(retry.deletes()).isEmpty();

        Pod server2 = finished(server(C, 2), NOW.minusSeconds(9), 0, "{}");
        Pod client2 = clientSaid(server2, Status.TRUE, "WithinThreshold", MEASURED, Map.of("tTypicalMicros", 1.2));
        LatencyPlan done = plan(null, List.of(server1, client1, server2, client2), List.of(B, C));
        LatencyVerdicts.Decision v = done.verdict().orElseThrow();
        assertThat(v.condition().getStatus()).isEqualTo("True");
        assertThat(v.condition().getMessage()).startsWith(MEASURED).contains("first tried gpu-b (10.0.0.2): PeerUnreachable "
                + "(\"Couldn't connect to 10.0.0.2:18515\"); measured against gpu-c (10.0.0.3) instead");
        assertThat(v.result().getPeer()).isEqualTo("gpu-c");
        assertThat(v.result().getUnreachablePeers()).containsExactly("gpu-b");
        assertThat(done.deletes()).hasSize(4);
    }

    @Test
    void twoUnreachablePeersBlameThisNodeAndOneWithoutAlternativeCannotTell() {
        Pod server1 = finished(server(B, 1), NOW.minusSeconds(9), 1, "{}");
        Pod client1 = clientSaid(server1, Status.FALSE, "PeerUnreachable", UNREACHABLE, Map.of());
        Pod server2 = finished(server(C, 2), NOW.minusSeconds(9), 1, "{}");
        Pod client2 = clientSaid(server2, Status.FALSE, "PeerUnreachable", UNREACHABLE, Map.of());

        LatencyVerdicts.Decision both = plan(null, List.of(server1, client1, server2, client2), List.of(B, C))
                .verdict().orElseThrow();
        assertThat(both.condition().getStatus()).isEqualTo("False");
        assertThat(both.condition().getReason()).isEqualTo("PeerUnreachable");
        assertThat(both.condition().getMessage()).contains("reached neither gpu-b (10.0.0.2)", "nor gpu-c (10.0.0.3)",
                "this node's side", "18515-18530");
        assertThat(both.result().getUnreachablePeers()).containsExactly("gpu-b", "gpu-c");

        LatencyVerdicts.Decision alone = plan(null, List.of(server1, client1), List.of(B)).verdict().orElseThrow();
        assertThat(alone.condition().getStatus()).isEqualTo("Unknown");
        assertThat(alone.condition().getReason()).isEqualTo("PeerUnreachable");
        assertThat(alone.condition().getMessage()).contains("no other peer to try", "this node or gpu-b");
    }

    @Test
    void aServerWhoseNodeLeftOrThatNeverRanCountsAgainstThePeer() {
        Pod server = pending(server(B, 1), NOW.minusSeconds(9));
        LatencyPlan gone = LatencyPlanner.plan("gpu-a", true, null, List.of(read(server)), List.of(C), Set.of("gpu-a",
                "gpu-c"), GEN, SETTINGS, NOW);
        assertThat(gone.startServer()).contains(new LatencyPlan.ServerStart("gpu-a", C, 1, 2));

        Pod timedOut = pending(stored(LatencyPods.server(PROFILE, "gpu-a", B, 1, 1, 18515, CONFIG),
                NOW.minusSeconds(120)), NOW.minusSeconds(120));
        LatencyVerdicts.Decision v = plan(null, List.of(timedOut), List.of(B)).verdict().orElseThrow();
        assertThat(v.condition().getReason()).isEqualTo("PeerUnreachable");
        assertThat(v.condition().getMessage()).contains("the latency-server pod", "on gpu-b", "did not finish within 1m");
    }

    @Test
    void thisNodesOwnClientFailingIsUnknownWithoutBlamingThePeer() {
        Pod server = finished(server(B, 1), NOW.minusSeconds(9), 0, "{}");
        Pod crashed = finished(client(server), NOW.minusSeconds(8), 3, "java.lang.IllegalStateException: boom");

        LatencyPlan p = plan(null, List.of(server, crashed), List.of(B, C));

        assertThat(p.startServer()).isEmpty();
        assertThat(p.verdict().orElseThrow().condition().getStatus()).isEqualTo("Unknown");
        assertThat(p.verdict().get().condition().getReason()).isEqualTo("ProbeFailed");
        assertThat(p.verdict().get().result().getUnreachablePeers()).isEmpty();
    }

    @Test
    void aFreshMeasurementWaitsForTheIntervalUnlessTheSpecChanged() {
        RdmaStorageNodeStatus fresh = measuredAt(NOW.minusSeconds(60), GEN, "WithinThreshold");
        LatencyPlan p = plan(fresh, List.of(), List.of(B));
        assertThat(p.startServer()).isEmpty();
        assertThat(p.wakeAt()).contains(NOW.minusSeconds(60).plus(SETTINGS.interval()));

        RdmaStorageNodeStatus oldSpec = measuredAt(NOW.minusSeconds(60), GEN - 1, "WithinThreshold");
        assertThat(plan(oldSpec, List.of(), List.of(B)).startServer()).contains(new LatencyPlan.ServerStart("gpu-a", B, 2, 1));

        RdmaStorageNodeStatus due = measuredAt(NOW.minus(SETTINGS.interval()), GEN, "WithinThreshold");
        assertThat(plan(due, List.of(), List.of(B)).startServer()).isPresent();
    }

    @Test
    void aMeasurementOlderThanTheExpiryIsExpiredOnceAndANodeThatCannotBeProbedStartsNothing() {
        Instant old = NOW.minus(SETTINGS.expiry()).minusSeconds(1);
        RdmaStorageNodeStatus stale = measuredAt(old, GEN, "WithinThreshold");
        LatencyPlan p = LatencyPlanner.plan("gpu-a", false, stale, List.of(), List.of(B), LIVE, GEN, SETTINGS, NOW);
        assertThat(p.verdict().orElseThrow().condition().getReason()).isEqualTo("ResultExpired");
        assertThat(p.verdict().get().condition().getStatus()).isEqualTo("Unknown");
        assertThat(p.verdict().get().result()).as("the numbers stay, dated by measuredAt").isSameAs(stale.getLatency());
        assertThat(p.startServer()).isEmpty();

        assertThat(LatencyPlanner.plan("gpu-a", false, measuredAt(old, GEN, "ResultExpired"), List.of(), List.of(B), LIVE,
                GEN, SETTINGS, NOW).verdict()).isEmpty();
    }

    @Test
    void podsOfARoundAlreadyHarvestedAreDeletedWithoutASecondVerdict() {
        Pod leftover = finished(server(B, 1), NOW.minusSeconds(9), 0, "{}");
        RdmaStorageNodeStatus harvested = measuredAt(NOW.minusSeconds(5), GEN, "WithinThreshold");

        LatencyPlan p = plan(harvested, List.of(leftover), List.of(B));

        assertThat(p.deletes()).containsExactly(leftover);
        assertThat(p.verdict()).isEmpty();
        assertThat(p.startServer()).isEmpty();
    }
}
