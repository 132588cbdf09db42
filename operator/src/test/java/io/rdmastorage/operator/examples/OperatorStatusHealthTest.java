package io.rdmastorage.operator.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rdmastorage.operator.api.GdsCheckSpec;
import io.rdmastorage.operator.api.GpfsCheckSpec;
import io.rdmastorage.operator.api.LatencyCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.examples.ArgoCdEngine.Health;
import io.rdmastorage.operator.latency.LatencyAttempt;
import io.rdmastorage.operator.latency.LatencyVerdicts;
import io.rdmastorage.operator.latency.Peer;
import io.rdmastorage.operator.tools.BackgroundBuilds;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbePod;
import io.rdmastorage.operator.verdict.ProbeReport;
import io.rdmastorage.operator.verdict.ProfileAggregation.Member;
import io.rdmastorage.operator.verdict.ProfileAggregation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The health scripts, on Argo CD's own evaluation ({@link ArgoCdEngine}), on statuses the
 * operator's own verdict code writes (NodeVerdicts, LatencyVerdicts, ProfileAggregation), not on
 * hand-written samples: if a reason is renamed or a new one appears, the Argo CD health checks
 * fail here instead of silently misreading it.
 */
@Tag(BackgroundBuilds.TAG)
class OperatorStatusHealthTest {

    private static final long GENERATION = 3;
    private static final Instant NOW = Instant.parse("2026-11-30T08:40:47Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Peer PEER = new Peer("gpu-09", "10.68.0.19");
    private static final Peer OTHER_PEER = new Peer("gpu-10", "10.68.0.20");

    private final RdmaStorageProfileSpec spec = spec();

    private static RdmaStorageProfileSpec spec() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        GpfsCheckSpec gpfs = new GpfsCheckSpec();
        gpfs.setVerbsPorts(List.of("mlx5_0/1"));
        spec.setGpfs(gpfs);
        spec.setGds(new GdsCheckSpec());
        LatencyCheckSpec latency = new LatencyCheckSpec();
        latency.setDevice("mlx5_0");
        spec.setLatency(latency);
        return spec;
    }

    private static ProbePod pod(String node) {
        return new ProbePod("rdma-storage-system", "rso-gds-" + node + "-r1", node);
    }

    private RdmaStorageNodeStatus report(String node, String gpfsStatus, String gpfsReason) {
        String json = """
                {"apiVersion":"rdmastorage.io/v1alpha1","kind":"NodeProbeReport","node":"%s","probeVersion":"0.1.0",
                 "startedAt":"2026-11-30T08:40:46Z","durationMillis":272,"status":"%s","checks":[
                 {"type":"GpfsVerbs","status":"%s","reason":"%s","message":"GPFS verdict for the test","details":{}},
                 {"type":"GdsReady","status":"True","reason":"GdsReady","message":"GDS is ready","details":{}}]}
                """.formatted(node, gpfsStatus, gpfsStatus, gpfsReason);
        return NodeVerdicts.fromTermination(spec, GENERATION, pod(node), gpfsStatus.equals("True") ? 0 : 1, "Completed",
                json, NOW);
    }

    /** The node's own probe passed, and its verbs latency to its peer was measured within the threshold. */
    private RdmaStorageNodeStatus healthy(String node) {
        return measured(report(node, "True", "RdmaInUse"));
    }

    private RdmaStorageNodeStatus tcpFallback(String node) {
        return measured(report(node, "False", "TcpFallback"));
    }

    /** The node's own probe passed; its first verbs latency measurement is still to come. */
    private RdmaStorageNodeStatus awaitingMeasurement(String node) {
        return report(node, "True", "RdmaInUse");
    }

    private static ProbeReport.Check latencyCheck(String status, String reason, String message) {
        ObjectNode details = JSON.createObjectNode().put("role", "client").put("peer", PEER.address())
                .put("tTypicalMicros", 1.01).put("p99Micros", 1.35);
        return new ProbeReport.Check("VerbsLatency", status, reason, message, details);
    }

    /** {@code probed} with a latency round's verdict, as the operator stores it (ProfilePlanner: withLatency, then merge). */
    private RdmaStorageNodeStatus withLatency(RdmaStorageNodeStatus probed, LatencyVerdicts.Decision verdict) {
        return NodeVerdicts.merge(probed, LatencyVerdicts.withLatency(spec, probed, verdict.condition(), verdict.result(),
                GENERATION, NOW), NOW);
    }

    private RdmaStorageNodeStatus measured(RdmaStorageNodeStatus probed) {
        return withLatency(probed, LatencyVerdicts.decide(List.of(new LatencyAttempt.Reported(PEER, latencyCheck("True",
                "WithinThreshold", "typical RDMA write latency to 10.68.0.19 is 1.01 µs, within maxTypicalMicros 5 µs"))),
                1, GENERATION, NOW));
    }

    private RdmaStorageNodeStatus noPeer(String node) {
        return withLatency(report(node, "True", "RdmaInUse"), LatencyVerdicts.noPeer(node, 1, GENERATION, NOW));
    }

    /** Neither of two peers could be reached: this node's side is blamed. */
    private RdmaStorageNodeStatus unreachable(String node) {
        ProbeReport.Check refused = latencyCheck("False", "PeerUnreachable", "ib_write_lat could not reach the latency "
                + "server");
        return withLatency(report(node, "True", "RdmaInUse"), LatencyVerdicts.decide(List.of(
                new LatencyAttempt.Reported(PEER, refused), new LatencyAttempt.Reported(OTHER_PEER, refused)), 1, GENERATION,
                NOW));
    }

    private RdmaStorageNodeStatus notProbed(String node, NotProbed why) {
        return NodeVerdicts.notProbed(spec, GENERATION, node, why, NOW);
    }

    private RdmaStorageNodeStatus timedOut(String node) {
        return NodeVerdicts.fromFailure(spec, GENERATION, pod(node), ProbeFailure.timedOut(pod(node), Duration.ofMinutes(3)), NOW);
    }

    private RdmaStorageNodeStatus failedToStart(String node) {
        return NodeVerdicts.fromFailure(spec, GENERATION, pod(node),
                ProbeFailure.failedToStart(pod(node), "ErrImagePull", "pull access denied"), NOW);
    }

    private RdmaStorageNodeStatus expired(String node) {
        return NodeVerdicts.expire(healthy(node), NOW.plus(Duration.ofHours(1)), Duration.ofMinutes(45));
    }

    private Health nodeHealth(RdmaStorageNodeStatus status) {
        RdmaStorageNode node = new RdmaStorageNode();
        node.setMetadata(new ObjectMetaBuilder().withName("gds.gpu-01").withGeneration(1L).build());
        RdmaStorageNodeSpec nodeSpec = new RdmaStorageNodeSpec();
        nodeSpec.setNodeName("gpu-01");
        nodeSpec.setProfile("gds");
        node.setSpec(nodeSpec);
        node.setStatus(status);
        return health(node);
    }

    private Health profileHealth(Map<String, RdmaStorageNodeStatus> nodes) {
        return health(profile(nodes));
    }

    private RdmaStorageProfile profile(Map<String, RdmaStorageNodeStatus> nodes) {
        List<Member> verdicts = new ArrayList<>();
        nodes.forEach((name, status) -> verdicts.add(new Member(name, status)));
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("gds").withGeneration(GENERATION).build());
        profile.setSpec(spec);
        profile.setStatus(ProfileAggregation.aggregateVerdicts(spec, GENERATION, verdicts, null, NOW));
        return profile;
    }

    /** As Argo CD gets it: the resource's JSON, with the health checks of argocd-cm-health.yaml. */
    private static Health health(Object resource) {
        Map<String, Object> obj = JSON.convertValue(resource, new TypeReference<Map<String, Object>>() { });
        return ArgoCdEngine.shared().health(ArgoCdHealthTest.argocdCm(), obj);
    }

    @Test
    void nodeVerdictsAsTheOperatorWritesThem() {
        assertThat(nodeHealth(healthy("gpu-01")).status()).isEqualTo("Healthy");
        // only the pairwise latency measurement is pending
        assertThat(nodeHealth(awaitingMeasurement("gpu-01")).status()).isEqualTo("Progressing");
        assertThat(nodeHealth(awaitingMeasurement("gpu-01")).message()).contains("first verbs latency measurement");
        // the only node: the latency section cannot be verified
        assertThat(nodeHealth(noPeer("gpu-01")).status()).isEqualTo("Degraded");
        assertThat(nodeHealth(noPeer("gpu-01")).message()).contains("no peer");
        assertThat(nodeHealth(unreachable("gpu-01"))).isEqualTo(new Health("Degraded", "VerbsLatency: PeerUnreachable"));
        assertThat(nodeHealth(tcpFallback("gpu-01"))).isEqualTo(new Health("Degraded", "GpfsVerbs: TcpFallback"));
        assertThat(nodeHealth(notProbed("gpu-01", NotProbed.AWAITING_PROBE)).status()).isEqualTo("Progressing");
        assertThat(nodeHealth(notProbed("gpu-01", NotProbed.NODE_UNSCHEDULABLE)).status()).isEqualTo("Suspended");
        assertThat(nodeHealth(notProbed("gpu-01", NotProbed.NODE_NOT_READY)).status()).isEqualTo("Suspended");
        assertThat(nodeHealth(timedOut("gpu-01")).status()).isEqualTo("Degraded");
        assertThat(nodeHealth(timedOut("gpu-01")).message()).contains("did not finish within 3m");
        assertThat(nodeHealth(failedToStart("gpu-01")).status()).isEqualTo("Degraded");
        assertThat(nodeHealth(expired("gpu-01")).status()).isEqualTo("Degraded");
        assertThat(nodeHealth(null)).isEqualTo(new Health("Progressing", "Waiting for the first probe of this node"));
    }

    @Test
    void profileStatusesAsTheOperatorAggregatesThem() {
        assertThat(profileHealth(Map.of("gpu-01", healthy("gpu-01"), "gpu-02", healthy("gpu-02"))))
                .isEqualTo(new Health("Healthy", "2 of 2 nodes ready"));
        assertThat(profileHealth(Map.of("gpu-01", healthy("gpu-01"), "gpu-02", tcpFallback("gpu-02"))))
                .isEqualTo(new Health("Degraded", "1 of 2 nodes not ready: gpu-02 (GpfsVerbs: TcpFallback)"));
        // the first round: nodes queued for their first probe
        assertThat(profileHealth(Map.of("gpu-01", notProbed("gpu-01", NotProbed.AWAITING_PROBE),
                "gpu-02", notProbed("gpu-02", NotProbed.AWAITING_PROBE), "gpu-03", healthy("gpu-03"))).status())
                .isEqualTo("Progressing");
        // nodes whose latency is still to be measured
        assertThat(profileHealth(Map.of("gpu-01", awaitingMeasurement("gpu-01"), "gpu-02", awaitingMeasurement("gpu-02"),
                "gpu-03", healthy("gpu-03"))).status()).isEqualTo("Progressing");
        // a single node: no peer to measure against
        assertThat(profileHealth(Map.of("gpu-01", noPeer("gpu-01"))))
                .isEqualTo(new Health("Degraded", "1 of 1 nodes unknown: gpu-01 (NoPeer)"));
        // a node without a status yet counts as not probed
        assertThat(profileHealth(java.util.Collections.singletonMap("gpu-01", null)).status()).isEqualTo("Progressing");
        // a probe that timed out beside nodes still queued: trouble wins
        assertThat(profileHealth(Map.of("gpu-01", notProbed("gpu-01", NotProbed.AWAITING_PROBE), "gpu-02", timedOut("gpu-02"))))
                .extracting(Health::status).isEqualTo("Degraded");
        assertThat(profileHealth(Map.of("gpu-01", failedToStart("gpu-01"), "gpu-02", healthy("gpu-02"))).status())
                .isEqualTo("Degraded");
        assertThat(profileHealth(Map.of("gpu-01", expired("gpu-01"), "gpu-02", healthy("gpu-02"))).status())
                .isEqualTo("Degraded");
        // a cordoned node beside verified ones: nothing failed, verification paused there
        assertThat(profileHealth(Map.of("gpu-01", notProbed("gpu-01", NotProbed.NODE_UNSCHEDULABLE), "gpu-02", healthy("gpu-02")))
                .status()).isEqualTo("Suspended");
        assertThat(profileHealth(Map.of()).status()).isEqualTo("Suspended");
    }

    /**
     * The message names five unknown nodes; the health is decided over all of them, by the
     * reason: a timed-out probe on the seventh node makes the profile Degraded although every node
     * the message names only awaits its first probe.
     */
    @Test
    void troubleOnANodeTheMessageDoesNotNameStillDegradesTheProfile() {
        Map<String, RdmaStorageNodeStatus> nodes = new TreeMap<>();
        for (int i = 1; i <= 6; i++) {
            String node = "gpu-0" + i;
            nodes.put(node, notProbed(node, NotProbed.AWAITING_PROBE));
        }
        nodes.put("gpu-07", timedOut("gpu-07"));
        Health trouble = health(profile(nodes));
        assertThat(trouble.message()).doesNotContain("gpu-07").endsWith("... and 2 more");
        assertThat(trouble.status()).isEqualTo("Degraded");
        // the same message when the seventh node is only waiting too: then the profile is Progressing
        nodes.put("gpu-07", notProbed("gpu-07", NotProbed.AWAITING_PROBE));
        assertThat(health(profile(nodes))).isEqualTo(new Health("Progressing", trouble.message()));
    }

    @Test
    void aProfileWhoseStatusIsForAnOlderGenerationIsProgressing() {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("gds").withGeneration(GENERATION + 1).build());
        profile.setSpec(spec);
        profile.setStatus(ProfileAggregation.aggregateVerdicts(spec, GENERATION,
                List.of(new Member("gpu-01", healthy("gpu-01"))), null, NOW));
        assertThat(health(profile))
                .isEqualTo(new Health("Progressing", "Waiting for the operator to observe generation 4 (status is for 3)"));
    }
}
