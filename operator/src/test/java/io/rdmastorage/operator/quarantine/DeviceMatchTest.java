package io.rdmastorage.operator.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which published device is the faulty NIC, and which verdict says a device is faulty, healthy or
 * unknown: the pure parts of the quarantine, on ResourceSlices shaped as dranet and the SR-IOV DRA
 * driver publish them.
 */
class DeviceMatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** dranet's shape: pci- names, its own attributes qualified (a driver may leave its domain out). */
    private static final String DRANET_SLICE = """
            {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "tray-a-dra.net"},
             "spec": {"driver": "dra.net", "nodeName": "tray-a", "pool": {"name": "tray-a", "generation": 1, "resourceSliceCount": 1},
              "devices": [
               {"name": "pci-0016-03-00-0", "attributes": {"dra.net/pciAddress": {"string": "0016:03:00.0"},
                 "dra.net/rdma": {"bool": true}, "dra.net/numaNode": {"int": 0}}},
               {"name": "pci-0006-03-00-0", "attributes": {"ifName": {"string": "enP6p3s0f0np0"}}},
               {"name": "pci-0000-03-00-0", "attributes": {"dra.net/rdmaDevice": {"string": "mlx5_0"}}}]}}
            """;

    /** The SR-IOV DRA driver's shape: VFs named by their address, each with its PF's. */
    private static final String SRIOV_SLICE = """
            {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "tray-a-sriov"},
             "spec": {"driver": "sriovnetwork.k8snetworkplumbingwg.io", "nodeName": "tray-a", "pool": {"name": "tray-a"},
              "devices": [
               {"name": "0016-03-00-2", "attributes": {
                 "sriovnetwork.k8snetworkplumbingwg.io/pciAddress": {"string": "0016:03:00.2"},
                 "sriovnetwork.k8snetworkplumbingwg.io/pfPciAddress": {"string": "0016:03:00.0"},
                 "sriovnetwork.k8snetworkplumbingwg.io/PFName": {"string": "enP22p3s0f0np0"},
                 "resource.kubernetes.io/pciBusID": {"string": "0016:03:00.2"}}},
               {"name": "0006-03-00-2", "attributes": {
                 "sriovnetwork.k8snetworkplumbingwg.io/pfPciAddress": {"string": "0006:03:00.0"}}}]}}
            """;

    private static final FaultyDevice MLX5_6 = new FaultyDevice("mlx5_6", "0016:03:00.0", List.of("enP22p3s0f0np0"),
            List.of("RdmaDevices"), List.of("PortDown"));

    @Test
    void dranetsDeviceIsFoundByItsPciAddressItsInterfaceOrItsRdmaName() {
        List<PublishedNic> nics = published(DRANET_SLICE);

        assertThat(nics).extracting(PublishedNic::device)
                .containsExactly("pci-0016-03-00-0", "pci-0006-03-00-0", "pci-0000-03-00-0");
        assertThat(nics).extracting(PublishedNic::pool).containsOnly("tray-a");
        assertThat(matches(nics, MLX5_6)).containsExactly("pci-0016-03-00-0");
        assertThat(matches(nics, new FaultyDevice("mlx5_2", null, List.of("enP6p3s0f0np0"), List.of("RdmaDevices"),
                List.of("PortDown")))).as("by ifName, written without the driver's domain").containsExactly("pci-0006-03-00-0");
        assertThat(matches(nics, new FaultyDevice("mlx5_0", null, List.of(), List.of("RdmaDevices"), List.of("PortDown"))))
                .as("by dra.net/rdmaDevice (dranet 1.1 and later)").containsExactly("pci-0000-03-00-0");
        assertThat(matches(nics, new FaultyDevice("mlx5_7", "0016:03:00.1", List.of(), List.of("RdmaDevices"),
                List.of("PortDown")))).as("another function of the same card is another device").isEmpty();
    }

    @Test
    void aFaultyPfFencesItsVfsAsTheSriovDriverPublishesThem() {
        assertThat(matches(published(SRIOV_SLICE), MLX5_6)).containsExactly("0016-03-00-2");
    }

    @Test
    void pciAddressesCompareWithoutCaseAndWithTheDomainImplied() {
        assertThat(PublishedNic.samePciAddress("0000:8A:00.0", "8a:00.0")).isTrue();
        assertThat(PublishedNic.samePciAddress("0016:03:00.0", "03:00.0")).isFalse();
    }

    @Test
    void aSliceOfAnotherDriverIsNotRead() {
        assertThat(PublishedNic.of(slice(DRANET_SLICE), Map.of(NicDriver.SRIOV.driver(), NicDriver.SRIOV))).isEmpty();
    }

    @Test
    void onlyFalseChecksNameFaultyDevicesAndTheirNamesMerge() throws Exception {
        RdmaStorageNodeStatus status = status(Map.of("RdmaDevices", "False", "RdmaPortErrors", "False", "RdmaTraffic", "Unknown"),
                Map.of("RdmaDevices", "{\"faultyDevices\":[{\"device\":\"mlx5_6\",\"pciAddress\":\"0016:03:00.0\",\"reasons\":[\"PortDown\"]}]}",
                        "RdmaPortErrors", "{\"faultyDevices\":[{\"device\":\"mlx5_6\",\"reasons\":[\"LinkDowned\"]}]}",
                        "RdmaTraffic", "{\"faultyDevices\":[{\"device\":\"mlx5_2\",\"reasons\":[\"FabricErrors\"]}]}"));

        List<FaultyDevice> faulty = FaultyDevice.of(status);

        assertThat(faulty).hasSize(1);
        assertThat(faulty.get(0).device()).isEqualTo("mlx5_6");
        assertThat(faulty.get(0).pciAddress()).isEqualTo("0016:03:00.0");
        assertThat(faulty.get(0).checks()).containsExactly("RdmaDevices", "RdmaPortErrors");
        assertThat(faulty.get(0).reasons()).containsExactly("PortDown", "LinkDowned");
    }

    @Test
    void aRuleStaysWhileItsCheckIsUnknownAndGoesOnTrueOrWhenTheCheckLeft() throws Exception {
        GenericKubernetesResource rule = new GenericKubernetesResource();
        rule.setMetadata(new ObjectMetaBuilder().withName("p.tray-a.pci-0016-03-00-0")
                .withAnnotations(Map.of(DeviceTaintRules.CHECKS_ANNOTATION, "RdmaDevices,RdmaPortErrors")).build());

        assertThat(DeviceQuarantine.noFreshEvidence(rule, status(Map.of("RdmaDevices", "True", "RdmaPortErrors", "Unknown"), Map.of())))
                .as("one of its checks cannot tell yet").isTrue();
        assertThat(DeviceQuarantine.noFreshEvidence(rule, status(Map.of("RdmaDevices", "True", "RdmaPortErrors", "True"), Map.of())))
                .isFalse();
        assertThat(DeviceQuarantine.noFreshEvidence(rule, status(Map.of("RdmaDevices", "False"), Map.of())))
                .as("False about other devices: fresh evidence for this one").isFalse();
        assertThat(DeviceQuarantine.noFreshEvidence(rule, null)).as("the node was forgotten").isFalse();
    }

    @Test
    void theNodeItselfIsMarkedForFaultsNoDeviceExplains() throws Exception {
        String fenced = "{\"faultyDevices\":[{\"device\":\"mlx5_6\",\"reasons\":[\"PortDown\"]}]}";
        assertThat(DeviceQuarantine.beyondDevices(status(Map.of("RdmaDevices", "False"), Map.of("RdmaDevices", fenced)))).isFalse();
        assertThat(DeviceQuarantine.beyondDevices(status(Map.of("RdmaDevices", "False", "GpfsVerbs", "False"),
                Map.of("RdmaDevices", fenced)))).as("GPFS on TCP is no NIC's fault").isTrue();
        assertThat(DeviceQuarantine.beyondDevices(status(Map.of("RdmaDevices", "False"), Map.of("RdmaDevices",
                "{\"faultyDevices\":[{\"device\":\"mlx5_6\"}],\"faultsBeyondDevices\":true}")))).isTrue();
        assertThat(DeviceQuarantine.beyondDevices(status(Map.of("RdmaDevices", "False", "MatchesFleet", "False"),
                Map.of("RdmaDevices", fenced)))).as("the fleet comparison keeps a node ready").isFalse();

        var outcome = new DeviceQuarantine.Outcome(List.of(), List.of(), Map.of("mlx5_6", List.of("r")), Map.of(), false, false);
        assertThat(outcome.fencesInsteadOfNode()).isTrue();
        assertThat(new DeviceQuarantine.Outcome(List.of(), List.of(), Map.of("mlx5_6", List.of("r")),
                Map.of("mlx5_2", DeviceQuarantine.Unfenced.NotPublished), false, false).fencesInsteadOfNode())
                .as("one device could not be fenced").isFalse();
        assertThat(new DeviceQuarantine.Outcome(List.of(), List.of(), Map.of("mlx5_6", List.of("r")), Map.of(), false, true)
                .fencesInsteadOfNode()).as("a dry run keeps nothing from the device").isFalse();
    }

    private static List<PublishedNic> published(String slice) {
        return PublishedNic.of(slice(slice), NicDriver.byName(NicDriver.DEFAULTS));
    }

    private static List<String> matches(List<PublishedNic> nics, FaultyDevice faulty) {
        Map<String, NicDriver> drivers = NicDriver.byName(NicDriver.DEFAULTS);
        return nics.stream().filter(n -> n.is(faulty, drivers.get(n.driver()))).map(PublishedNic::device).toList();
    }

    private static GenericKubernetesResource slice(String json) {
        return Serialization.unmarshal(json, GenericKubernetesResource.class);
    }

    private static RdmaStorageNodeStatus status(Map<String, String> conditions, Map<String, String> details) throws Exception {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        List<Condition> list = new java.util.ArrayList<>();
        new java.util.TreeMap<>(conditions).forEach((type, s) -> list.add(new ConditionBuilder().withType(type).withStatus(s)
                .withReason("R").withMessage("m").build()));
        status.setConditions(list);
        Map<String, JsonNode> facts = new LinkedHashMap<>();
        for (var e : new java.util.TreeMap<>(details).entrySet()) {
            facts.put(e.getKey(), JSON.readTree(e.getValue()));
        }
        status.setDetails(facts);
        return status;
    }
}
