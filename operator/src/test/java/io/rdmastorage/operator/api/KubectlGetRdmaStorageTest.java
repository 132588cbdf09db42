package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl get rdmastorage} for real: the category lists both kinds, each with its printer
 * columns filled from a status written through the status subresource.
 */
class KubectlGetRdmaStorageTest {

    private static final String PROFILE = "get-demo";
    private static final String NODE = "gpu-07";

    private static LocalControlPlane plane;
    private static KubernetesClient client;
    private static Kubectl kubectl;

    @BeforeAll
    static void createOneOfEach() throws Exception {
        plane = ApiServerCrds.installed();
        client = plane.adminClient();
        kubectl = plane.kubectl();
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName(PROFILE).build());
        profile.setSpec(new RdmaStorageProfileSpec());
        profile = client.resource(profile).create();
        RdmaStorageProfileStatus profileStatus = new RdmaStorageProfileStatus();
        NodeCounts counts = new NodeCounts();
        counts.setMatched(40);
        counts.setReady(37);
        counts.setNotReady(2);
        counts.setUnknown(1);
        profileStatus.setNodes(counts);
        profileStatus.setObservedGeneration(profile.getMetadata().getGeneration());
        profileStatus.setConditions(List.of(condition("Ready", "False", "NodesNotReady", now),
                condition("FleetConsistent", "False", "FleetDiverges", now)));
        FleetFactCounts firmware = new FleetFactCounts();
        firmware.setFact("hcaFirmware");
        firmware.setValues(List.of(new FleetFactCounts.ValueCount("28.41.1000", 38), new FleetFactCounts.ValueCount("28.39.1002", 2)));
        profileStatus.setFleet(List.of(firmware));
        profileStatus.setNotReadyNodes(List.of(NODE, "gpu-12"));
        profile.setStatus(profileStatus);
        client.resource(profile).updateStatus();

        RdmaStorageNode node = new RdmaStorageNode();
        node.setMetadata(new ObjectMetaBuilder().withName(PROFILE + "." + NODE)
                .withLabels(Labels.forNode(PROFILE, NODE)).build());
        RdmaStorageNodeSpec nodeSpec = new RdmaStorageNodeSpec();
        nodeSpec.setProfile(PROFILE);
        nodeSpec.setNodeName(NODE);
        node.setSpec(nodeSpec);
        node = client.resource(node).create();
        RdmaStorageNodeStatus nodeStatus = new RdmaStorageNodeStatus();
        nodeStatus.setConditions(List.of(
                condition("Ready", "False", "ChecksFailed", now),
                condition("GpfsVerbs", "False", "TcpFallback", now),
                condition("NvmeofRdma", "True", "ConnectedOverRdma", now),
                condition("GdsReady", "True", "GdsReady", now)));
        nodeStatus.setLastProbeTime(now);
        nodeStatus.setProbePod("rdma-probe-get-demo-gpu-07-3");
        LatencyResult latency = new LatencyResult();
        latency.setPeer("gpu-08");
        latency.setTypicalMicros(2.4);
        latency.setP99Micros(3.1);
        nodeStatus.setLatency(latency);
        nodeStatus.setDetails(Map.of("GpfsVerbs", new ObjectMapper().readTree(
                "{\"tcpPeers\": [\"nsd-02\"], \"rdmaPeers\": 3, \"verbsPorts\": {\"expected\": [\"mlx5_0/1\"], \"ok\": true}}")));
        node.setStatus(nodeStatus);
        client.resource(node).updateStatus();
    }

    @AfterAll
    static void deleteThem() {
        client.resources(RdmaStorageNode.class).withName(PROFILE + "." + NODE).delete();
        client.resources(RdmaStorageProfile.class).withName(PROFILE).delete();
    }

    @Test
    void kubectlGetRdmaStorageShowsBothKindsWithTheirColumns() {
        String out = kubectl.run("get", "rdmastorage").orThrow("kubectl get rdmastorage");

        List<String> lines = Arrays.asList(out.split("\n"));
        assertThat(lines).as(out).anySatisfy(header -> assertThat(columns(header))
                .containsExactly("NAME", "MATCHED", "READY", "NOT READY", "UNKNOWN", "ALL READY", "CONSISTENT", "AGE"));
        assertThat(lines).as(out).anySatisfy(header -> assertThat(columns(header))
                .containsExactly("NAME", "NODE", "PROFILE", "READY", "GPFS", "NVMEOF", "GDS", "LATENCY-US", "LAST PROBE", "AGE"));
        // with two kinds in one listing kubectl prefixes names with the resource
        assertThat(lines).as(out).anySatisfy(row -> assertThat(columns(row)).startsWith(
                "rdmastorageprofile.rdmastorage.io/" + PROFILE, "40", "37", "2", "1", "False", "False"));
        assertThat(lines).as(out).anySatisfy(row -> assertThat(columns(row)).startsWith(
                "rdmastoragenode.rdmastorage.io/" + PROFILE + "." + NODE, NODE, PROFILE, "False", "False", "True", "True", "2.4"));
    }

    @Test
    void shortNamesAndWideOutput() {
        String profiles = kubectl.run("get", "rsp", PROFILE, "-o", "wide").orThrow("kubectl get rsp -o wide");
        assertThat(columns(profiles.lines().findFirst().orElseThrow())).endsWith("AGE", "REASON");
        assertThat(profiles).contains("NodesNotReady");

        String nodes = kubectl.run("get", "rsn", "-l", Labels.PROFILE + "=" + PROFILE).orThrow("kubectl get rsn");
        assertThat(nodes).contains(PROFILE + "." + NODE).doesNotContain("rdmastoragenode.rdmastorage.io/");
    }

    @Test
    void theStatusRoundTripsThroughTheApiServer() {
        RdmaStorageNode stored = client.resources(RdmaStorageNode.class).withName(PROFILE + "." + NODE).get();
        JsonNode gpfs = stored.getStatus().getDetails().get("GpfsVerbs");
        assertThat(gpfs.get("tcpPeers").get(0).asText()).isEqualTo("nsd-02");
        assertThat(gpfs.get("rdmaPeers").asInt()).isEqualTo(3);
        assertThat(gpfs.get("verbsPorts").get("ok").asBoolean()).isTrue();
        assertThat(stored.getStatus().getLatency().getP99Micros()).isEqualTo(3.1);
        assertThat(stored.getStatus().getConditions()).extracting(Condition::getType)
                .containsExactly("Ready", "GpfsVerbs", "NvmeofRdma", "GdsReady");

        RdmaStorageProfile profile = client.resources(RdmaStorageProfile.class).withName(PROFILE).get();
        assertThat(profile.getStatus().getNodes().getNotReady()).isEqualTo(2);
        assertThat(profile.getStatus().getNotReadyNodes()).containsExactly(NODE, "gpu-12");
        assertThat(profile.getStatus().getFleet().get(0).getValues()).extracting(FleetFactCounts.ValueCount::getNodes)
                .containsExactly(38, 2);
        // written through the status subresource only; the spec got its defaults
        assertThat(profile.getSpec().getInterval()).isEqualTo("15m");
    }

    /** kubectl separates columns by at least two spaces; single spaces are inside names such as NOT READY. */
    private static List<String> columns(String line) {
        return Arrays.asList(line.strip().split("\\s{2,}"));
    }

    private static Condition condition(String type, String status, String reason, String time) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(type + " is " + status).withLastTransitionTime(time).withObservedGeneration(1L).build();
    }
}
