package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.operator.api.FleetFactCounts;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.status.Conditions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fleet comparison: counts per value, the majority, and how FleetConsistent and MatchesFleet word it. */
class FleetDistributionTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final String FW = "28.41.1000";
    private static final String OLD_FW = "28.39.1002";

    private static Map<String, String> facts(String firmware, String rdmaCore) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("kernel", "6.8.0-45-generic");
        if (firmware != null) {
            f.put("hcaFirmware", firmware);
        }
        if (rdmaCore != null) {
            f.put("rdmaCore", rdmaCore);
        }
        return f;
    }

    /** 37 nodes on the current firmware and rdma-core 50.0; gpu-07 and gpu-12 on older firmware; gpu-31 without rdma-core. */
    private static List<FleetDistribution.Member> fleet() {
        List<FleetDistribution.Member> members = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            String node = String.format("gpu-%02d", i);
            String fw = i == 7 || i == 12 ? OLD_FW : FW;
            String core = i == 31 ? InventoryFact.NOT_INSTALLED : "50.0";
            members.add(new FleetDistribution.Member(node, facts(fw, core)));
        }
        return members;
    }

    private static FleetDistribution of(List<FleetDistribution.Member> members, String... allowMixed) {
        return FleetDistribution.of(members, Set.of(allowMixed));
    }

    @Test
    void aMinorityIsNamedWithTheMajoritysValueAndCount() {
        Condition c = of(fleet()).consistent(3, T0);

        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("FleetDiverges");
        assertThat(c.getMessage()).startsWith("rdma-core: 50.0 on 39 nodes; not installed on gpu-31; "
                + "HCA firmware: 28.41.1000 on 38 nodes; 28.39.1002 on gpu-07, gpu-12. ");
        assertThat(c.getMessage()).doesNotContain("kernel");
    }

    @Test
    void minorityNodesGetMatchesFleetFalseWithTheirValueAndTheMajoritys() {
        FleetDistribution d = of(fleet());

        Condition odd = d.matchesFleet(facts(OLD_FW, "50.0"), 3, T0);
        assertThat(odd.getStatus()).isEqualTo("False");
        assertThat(odd.getReason()).isEqualTo("DiffersFromFleet");
        assertThat(odd.getMessage()).startsWith("HCA firmware is 28.39.1002 here, 28.41.1000 on most nodes: ");

        Condition without = d.matchesFleet(facts(FW, InventoryFact.NOT_INSTALLED), 3, T0);
        assertThat(without.getMessage()).startsWith("rdma-core is not installed here, 50.0 on most nodes");

        Condition typical = d.matchesFleet(facts(FW, "50.0"), 3, T0);
        assertThat(typical.getStatus()).isEqualTo("True");
        assertThat(typical.getReason()).isEqualTo("MatchesMajority");
    }

    @Test
    void aFactANodeDidNotReportIsComparedWithNothing() {
        // the probe could not look (the section is not checked there): no evidence either way
        Condition c = of(fleet()).matchesFleet(facts(null, "50.0"), 3, T0);

        assertThat(c.getStatus()).isEqualTo("True");
    }

    @Test
    void aUniformFleetIsTrueAndSaysWhatAgrees() {
        List<FleetDistribution.Member> members = List.of(new FleetDistribution.Member("a", facts(FW, "50.0")),
                new FleetDistribution.Member("b", facts(FW, "50.0")));

        Condition c = of(members).consistent(3, T0);

        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("FleetUniform");
        assertThat(c.getMessage()).isEqualTo("2 nodes agree on kernel, rdma-core, HCA firmware");
    }

    @Test
    void oneNodeOrNoneIsUnknown() {
        FleetDistribution one = of(List.of(new FleetDistribution.Member("a", facts(FW, "50.0")),
                new FleetDistribution.Member("b", Map.of())));

        Condition c = one.consistent(3, T0);
        assertThat(c.getStatus()).isEqualTo("Unknown");
        assertThat(c.getReason()).isEqualTo("FleetTooSmall");
        assertThat(c.getMessage()).startsWith("1 node has reported inventory facts so far");
        assertThat(one.matchesFleet(facts(FW, "50.0"), 3, T0).getReason()).isEqualTo("FleetTooSmall");
        assertThat(one.matchesFleet(Map.of(), 3, T0).getReason()).isEqualTo("InventoryNotReported");
        assertThat(of(List.of()).consistent(3, T0).getMessage()).startsWith("0 nodes have reported");
    }

    @Test
    void aTieHasNoMajorityAndNamesNoOddNodeOut() {
        List<FleetDistribution.Member> members = List.of(new FleetDistribution.Member("a", facts(FW, null)),
                new FleetDistribution.Member("b", facts(FW, null)), new FleetDistribution.Member("c", facts(OLD_FW, null)),
                new FleetDistribution.Member("d", facts(OLD_FW, null)));
        FleetDistribution d = of(members);

        Condition c = d.consistent(3, T0);
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getMessage()).startsWith("HCA firmware: no majority; 28.39.1002 on c, d; 28.41.1000 on a, b. ");
        Condition node = d.matchesFleet(facts(FW, null), 3, T0);
        assertThat(node.getStatus()).isEqualTo("Unknown");
        assertThat(node.getReason()).isEqualTo("NoFleetMajority");
    }

    @Test
    void allDifferentNamesTheFirstValuesAndCountsTheRest() {
        List<FleetDistribution.Member> members = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            members.add(new FleetDistribution.Member("n" + i, Map.of("kernel", "6." + i)));
        }
        FleetDistribution d = of(members);

        assertThat(d.consistent(3, T0).getMessage())
                .startsWith("kernel: no majority; 6.0 on n0; 6.1 on n1; 6.2 on n2; and 3 more values. ");
        assertThat(d.matchesFleet(Map.of("kernel", "6.3"), 3, T0).getStatus()).isEqualTo("Unknown");
        assertThat(d.distinctValues()).containsEntry("kernel", 6);
        FleetFactCounts kernel = d.counts().get(0);
        assertThat(kernel.getValues()).hasSize(FleetDistribution.NAMED);
        assertThat(kernel.getOtherValues()).isEqualTo(1);
        assertThat(kernel.getOtherNodes()).isEqualTo(1);
    }

    @Test
    void manyMinorityNodesAreCutShort() {
        List<FleetDistribution.Member> members = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            members.add(new FleetDistribution.Member(String.format("n%02d", i), Map.of("kernel", i < 8 ? "6.1" : "6.8")));
        }

        assertThat(of(members).consistent(3, T0).getMessage())
                .startsWith("kernel: 6.8 on 22 nodes; 6.1 on n00, n01, n02, n03, n04 and 3 more. ");
    }

    @Test
    void allowMixedFactsMayDifferButAreStillCounted() {
        List<FleetDistribution.Member> members = List.of(
                new FleetDistribution.Member("a", Map.of("kernel", "6.1", "hcaFirmware", FW)),
                new FleetDistribution.Member("b", Map.of("kernel", "6.8", "hcaFirmware", FW)),
                new FleetDistribution.Member("c", Map.of("kernel", "6.8", "hcaFirmware", FW)));
        FleetDistribution d = of(members, "kernel");

        Condition c = d.consistent(3, T0);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getMessage()).isEqualTo("3 nodes agree on HCA firmware; allowed to differ (spec.fleet.allowMixed): "
                + "kernel (2 values)");
        assertThat(d.matchesFleet(Map.of("kernel", "6.1", "hcaFirmware", FW), 3, T0).getStatus()).isEqualTo("True");
        assertThat(d.counts()).filteredOn(f -> f.getFact().equals("kernel")).singleElement()
                .satisfies(f -> assertThat(f.getAllowMixed()).isTrue());
    }

    @Test
    void theCountsListTheMostCommonValueFirst() {
        List<FleetFactCounts> counts = of(fleet()).counts();

        assertThat(counts).extracting(FleetFactCounts::getFact).containsExactly("kernel", "rdmaCore", "hcaFirmware");
        FleetFactCounts fw = counts.get(2);
        assertThat(fw.getValues()).extracting(FleetFactCounts.ValueCount::getValue).containsExactly(FW, OLD_FW);
        assertThat(fw.getValues()).extracting(FleetFactCounts.ValueCount::getNodes).containsExactly(38, 2);
        assertThat(fw.getOtherValues()).isNull();
    }

    @Test
    void aDifferingNodeCountsAsNotReadyOnlyWithFleetRequired() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setRdma(new RdmaCheckSpec());
        List<ProfileAggregation.Member> nodes = new ArrayList<>();
        for (String node : List.of("gpu-01", "gpu-02", "gpu-03")) {
            RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
            status.setConditions(List.of(Conditions.of("RdmaDevices", "True", "PortsActive", "ok", 1, T0),
                    node.equals("gpu-03") ? Conditions.of("MatchesFleet", "False", "DiffersFromFleet", "HCA firmware ...", 1, T0)
                            : Conditions.of("MatchesFleet", "True", "MatchesMajority", "ok", 1, T0)));
            nodes.add(new ProfileAggregation.Member(node, status));
        }

        RdmaStorageProfileStatus reported = ProfileAggregation.aggregateVerdicts(spec, 1, nodes, null, T0);
        assertThat(reported.getNodes().getReady()).isEqualTo(3);

        io.rdmastorage.operator.api.FleetSpec fleet = new io.rdmastorage.operator.api.FleetSpec();
        fleet.setRequired(true);
        spec.setFleet(fleet);
        RdmaStorageProfileStatus fenced = ProfileAggregation.aggregateVerdicts(spec, 1, nodes, null, T0);
        assertThat(fenced.getNodes().getNotReady()).isEqualTo(1);
        assertThat(Conditions.find(fenced.getConditions(), "Ready").orElseThrow().getMessage())
                .isEqualTo("1 of 3 nodes not ready: gpu-03 (MatchesFleet: DiffersFromFleet)");
        assertThat(fenced.getConditions()).extracting(Condition::getType).containsExactly("Ready", "RdmaDevices");
    }

    @Test
    void theProfileStaysSmallAt5000NodesEvenWhenEveryNodeDiffers() throws Exception {
        List<ProfileAggregation.Member> nodes = new ArrayList<>();
        List<FleetDistribution.Member> members = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            String node = String.format("gpu-%04d", i);
            Map<String, String> inventory = new LinkedHashMap<>();
            for (InventoryFact fact : InventoryFact.values()) {
                // the worst case: every fact differs on every node, at its longest
                inventory.put(fact.key(), String.format("%04d", i) + "v".repeat(InventoryFact.MAX_VALUE_CHARS - 4));
            }
            members.add(new FleetDistribution.Member(node, inventory));
            RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
            status.setConditions(List.of(Conditions.of("RdmaDevices", "True", "PortsActive", "ok", 1, T0)));
            nodes.add(new ProfileAggregation.Member(node, status));
        }
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setRdma(new RdmaCheckSpec());

        RdmaStorageProfileStatus status = ProfileAggregation.aggregateVerdicts(spec, 1, nodes,
                FleetDistribution.of(members, Set.of()), null, T0);

        int bytes = new ObjectMapper().writeValueAsBytes(status).length;
        assertThat(bytes).as("profile status bytes").isLessThan(32 * 1024);
        assertThat(Conditions.find(status.getConditions(), "FleetConsistent").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(status.getFleet()).hasSize(InventoryFact.values().length)
                .allSatisfy(f -> assertThat(f.getValues()).hasSize(FleetDistribution.NAMED));
    }
}
