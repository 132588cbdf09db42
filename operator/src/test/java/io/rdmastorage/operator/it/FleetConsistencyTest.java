package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.testing.ContendedEdits;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fleet comparison against a real API server: simulated nodes whose fixture hosts differ in HCA
 * firmware and rdma-core, the real node-probe on each, the operator naming the odd ones out in the
 * profile's FleetConsistent and on their RdmaStorageNodes only; a node leaving the selection takes
 * its values with it, and fixing the hosts turns both True.
 */
class FleetConsistencyTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PROFILE = "fleet";
    private static final String SETTINGS = "interval: 1m\nprobeTimeout: 20s\n";
    private static final String CHECKS = "rdma:\n  devices: [\"mlx5_0/1\", \"mlx5_1/1\"]\n";
    private static final String FIRMWARE = RdmaFixtures.FIRMWARE;
    private static final String OLD_FIRMWARE = "28.35.2000";
    private static final String OTHER_FIRMWARE = "28.33.0800";
    private static final String DPKG_STATUS = "/var/lib/dpkg/status";
    private static final String WITH_RDMA_CORE = "Package: bash\nStatus: install ok installed\nVersion: 5.2.15-2\n\n"
            + "Package: rdma-core\nStatus: install ok installed\nVersion: 44.0-2\n";
    private static final String WITHOUT_RDMA_CORE = "Package: bash\nStatus: install ok installed\nVersion: 5.2.15-2\n";

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("fleet");
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void theOddNodesAreNamedThenALeavingNodeTakesItsValuesAndAFixTurnsBothTrue() {
        FixtureHost[] hosts = new FixtureHost[7];
        for (int i = 1; i <= 6; i++) {
            hosts[i] = env.addNode("n-" + i, null).file(DPKG_STATUS, WITH_RDMA_CORE);
        }
        RdmaFixtures.firmware(hosts[3], OLD_FIRMWARE);
        hosts[4].file(DPKG_STATUS, WITHOUT_RDMA_CORE);
        RdmaFixtures.firmware(hosts[6], OTHER_FIRMWARE);
        env.startOperator();
        env.applyProfile(PROFILE, SETTINGS, CHECKS);

        await("FleetConsistent False naming n-3, n-4 and n-6", WAIT, () -> fleetConsistent()
                .filter(c -> "False".equals(c.getStatus()) && c.getMessage().contains("n-3")
                        && c.getMessage().contains("n-4") && c.getMessage().contains("n-6")).isPresent());
        Condition diverges = fleetConsistent().orElseThrow();
        assertThat(diverges.getReason()).isEqualTo("FleetDiverges");
        assertThat(diverges.getMessage()).startsWith("rdma-core: 44.0-2 on 5 nodes; not installed on n-4; "
                + "HCA firmware: " + FIRMWARE + " on 4 nodes; " + OTHER_FIRMWARE + " on n-6; " + OLD_FIRMWARE + " on n-3. ");
        await("MatchesFleet on every node", WAIT, () -> Stream.of(1, 2, 3, 4, 5, 6)
                .allMatch(i -> matchesFleet("n-" + i).isPresent()));
        assertThat(matchesFleet("n-3").orElseThrow().getMessage())
                .startsWith("HCA firmware is " + OLD_FIRMWARE + " here, " + FIRMWARE + " on most nodes");
        assertThat(matchesFleet("n-4").orElseThrow().getMessage()).startsWith("rdma-core is not installed here, 44.0-2 on most nodes");
        for (String node : List.of("n-3", "n-4", "n-6")) {
            assertThat(matchesFleet(node).orElseThrow().getStatus()).as(node).isEqualTo("False");
        }
        for (String node : List.of("n-1", "n-2", "n-5")) {
            assertThat(matchesFleet(node).orElseThrow().getStatus()).as(node).isEqualTo("True");
        }
        // fleet.required is false: the odd nodes are reported, not fenced
        assertThat(env.profile(PROFILE).getStatus().getNodes().getReady()).isEqualTo(6);
        assertThat(firmwareCounts()).containsExactly(FIRMWARE + "=4", OTHER_FIRMWARE + "=1", OLD_FIRMWARE + "=1");
        assertThat(profileEvents("FleetDiverges")).as("a Warning event when FleetConsistent went False")
                .anySatisfy(e -> assertThat(e.getType()).isEqualTo("Warning"));

        // n-6 leaves the selection: its firmware is no longer counted, nor named
        ContendedEdits.label(env.admin, "n-6", GpuPool.LABEL, null);
        await("n-6's values gone", WAIT, () -> firmwareCounts().equals(List.of(FIRMWARE + "=4", OLD_FIRMWARE + "=1")));
        assertThat(fleetConsistent().orElseThrow().getMessage()).doesNotContain("n-6").contains("n-3").contains("n-4");

        // the fix: n-3 gets the fleet's firmware, n-4 its rdma-core; the next round turns both True (started by a
        // spec change rather than a minute's wait: ApiFaultsTest holds rounds that the interval starts)
        RdmaFixtures.firmware(hosts[3], FIRMWARE);
        hosts[4].file(DPKG_STATUS, WITH_RDMA_CORE);
        env.applyProfile(PROFILE, SETTINGS.replace("probeTimeout: 20s", "probeTimeout: 25s"), CHECKS);
        await("FleetConsistent True", WAIT, () -> fleetConsistent().filter(c -> "True".equals(c.getStatus())).isPresent());
        assertThat(fleetConsistent().orElseThrow().getReason()).isEqualTo("FleetUniform");
        await("MatchesFleet True on n-3 and n-4", WAIT, () -> Stream.of("n-3", "n-4")
                .allMatch(n -> matchesFleet(n).filter(c -> "True".equals(c.getStatus())).isPresent()));
        assertThat(firmwareCounts()).containsExactly(FIRMWARE + "=5");
    }

    /**
     * A role peer with a port fewer (NVSentinel's homogeneity check): the profile names no ports, so
     * the node's own RdmaDevices passes on the port that works; only the fleet shows what it lost.
     */
    @Test
    void aNodeWithAPortFewerThanItsPeersIsTheOddOne() {
        for (int i = 1; i <= 3; i++) {
            FixtureHost host = env.addNode("n-" + i, null).file(DPKG_STATUS, WITH_RDMA_CORE);
            if (i == 2) {
                RdmaFixtures.portDown(host);
            }
        }
        env.startOperator();
        env.applyProfile(PROFILE, SETTINGS, "rdma:\n  devices: []\n");

        await("MatchesFleet on every node", WAIT, () -> Stream.of(1, 2, 3).allMatch(i -> matchesFleet("n-" + i).isPresent()));
        assertThat(matchesFleet("n-2").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(matchesFleet("n-2").orElseThrow().getMessage())
                .startsWith("active RDMA ports is 1 × 400 Gb/sec (4X NDR) here, 2 × 400 Gb/sec (4X NDR) on most nodes");
        assertThat(env.verdict(PROFILE, "n-2").getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("RdmaDevices");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        assertThat(matchesFleet("n-1").orElseThrow().getStatus()).isEqualTo("True");
        assertThat(fleetConsistent().orElseThrow().getMessage()).contains("active RDMA ports: 2 × 400 Gb/sec (4X NDR) on 2 nodes; "
                + "1 × 400 Gb/sec (4X NDR) on n-2");
    }

    private Optional<Condition> fleetConsistent() {
        RdmaStorageProfile p = env.profile(PROFILE);
        return p == null || p.getStatus() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> c.getType().equals("FleetConsistent")).findFirst();
    }

    private Optional<Condition> matchesFleet(String node) {
        RdmaStorageNode v = env.verdict(PROFILE, node);
        return v == null || v.getStatus() == null ? Optional.empty()
                : v.getStatus().getConditions().stream().filter(c -> c.getType().equals("MatchesFleet")).findFirst();
    }

    /** The profile's counts of hcaFirmware as value=nodes, most first. */
    private List<String> firmwareCounts() {
        RdmaStorageProfile p = env.profile(PROFILE);
        if (p == null || p.getStatus() == null || p.getStatus().getFleet() == null) {
            return List.of();
        }
        return p.getStatus().getFleet().stream().filter(f -> f.getFact().equals("hcaFirmware"))
                .flatMap(f -> f.getValues().stream()).map(v -> v.getValue() + "=" + v.getNodes()).toList();
    }

    private List<Event> profileEvents(String reason) {
        return env.admin.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> PROFILE.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).toList();
    }
}
