package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.report.Report;
import io.rdmastorage.probe.report.ReportJson;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory facts of a report: the host's own and those the checks saw, through the real CLI. */
class InventoryTest {

    private static final String SPEC = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"]},\"gpfs\":"
            + GpfsFixtures.HEALTHY_SPEC + "}";

    @TempDir
    Path dir;

    private FixtureHost host() {
        FixtureHost host = FixtureHost.at(dir.resolve("root"));
        RdmaFixtures.healthy(host);
        GpfsFixtures.healthy(host);
        return host.file("/proc/sys/kernel/osrelease", "5.14.0-427.13.1.el9_4.x86_64\n")
                .file("/sys/module/mlx5_core/version", "24.10-1.1.4\n")
                .mkdir("/sys/module/ib_core");
    }

    private static JsonNode inventory(ProbeRun run) {
        return run.report().path(ReportSchema.F_INVENTORY);
    }

    @Test
    void aGpfsNodeReportsItsHostHcaAndGpfsFacts() {
        FixtureHost host = host().file("/var/lib/dpkg/status", Samples.body("packages/dpkg-status_rdma-core-50.0_constructed.txt"));

        JsonNode inventory = inventory(ProbeRun.withSpec(host, SPEC));

        assertThat(inventory.path("kernel").asText()).isEqualTo("5.14.0-427.13.1.el9_4.x86_64");
        assertThat(inventory.path("rdmaCore").asText()).isEqualTo("44.0-2");
        assertThat(inventory.path("hcaModel").asText()).isEqualTo("MT_0000000834");
        assertThat(inventory.path("hcaFirmware").asText()).isEqualTo("28.39.1002");   // both HCAs: one value
        assertThat(inventory.path("mlx5Driver").asText()).isEqualTo("24.10-1.1.4");
        assertThat(inventory.path("ibCoreDriver").asText()).isEqualTo("in-tree");      // loaded, no version file
        assertThat(inventory.path("gpfsVersion").asText()).isEqualTo("5.2.1.1");
        assertThat(inventory.path("gpfsVerbs").asText()).isEqualTo("verbsRdma enable, verbsRdmaCm disable, verbsRdmaSend no");
        // the keys come in the contract's order
        List<String> keys = new ArrayList<>();
        inventory.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).isEqualTo(InventoryFact.keys().stream().filter(keys::contains).toList());
    }

    @Test
    void theActivePortsAreCountedPerRateForTheRolePeersToCompare() {
        assertThat(inventory(ProbeRun.withSpec(host(), SPEC)).path("rdmaPorts").asText()).isEqualTo("2 × 400 Gb/sec (4X NDR)");

        // with no ports named in the spec, the node itself is fine (one port works); only its peers show the loss
        FixtureHost down = RdmaFixtures.portDown(FixtureHost.at(dir.resolve("down")));
        ProbeRun discovery = ProbeRun.on(down);
        assertThat(discovery.check("RdmaDevices").path("status").asText()).isEqualTo("True");
        assertThat(inventory(discovery).path("rdmaPorts").asText()).isEqualTo("1 × 400 Gb/sec (4X NDR)");

        FixtureHost slower = RdmaFixtures.healthy(FixtureHost.at(dir.resolve("hdr")))
                .file("/sys/class/infiniband/mlx5_1/ports/1/rate", "200 Gb/sec (4X HDR)\n");
        assertThat(inventory(ProbeRun.on(slower)).path("rdmaPorts").asText()).isEqualTo("1 × 200 Gb/sec (4X HDR), 1 × 400 Gb/sec (4X NDR)");

        assertThat(inventory(ProbeRun.on(RdmaFixtures.portInit(FixtureHost.at(dir.resolve("init"))))).path("rdmaPorts").asText())
                .isEqualTo("none active");
    }

    @Test
    void aPortWhoseStateCannotBeReadLeavesTheCountOut() {
        FixtureHost host = host().file("/sys/class/infiniband/mlx5_1/ports/1/state", "garbage\n");

        assertThat(inventory(ProbeRun.withSpec(host, SPEC)).has("rdmaPorts")).isFalse();
    }

    @Test
    void theTextReportListsTheInventoryLast() {
        String text = ProbeRun.withSpec(host(), SPEC, "--format", "text").stdout();

        assertThat(text).contains("\ninventory (compared across the profile's nodes):\n  kernel: 5.14.0-427.13.1.el9_4.x86_64\n")
                .contains("\n  hcaFirmware: 28.39.1002\n");
    }

    @Test
    void mlnxOfedsBundleOutranksThePackageDatabase() {
        FixtureHost host = host().file("/var/lib/dpkg/status", Samples.body("packages/dpkg-status_rdma-core-50.0_constructed.txt"));
        host.tool("/usr/bin/ofed_info").on("-s").printsSample("packages/ofed_info-s_mlnx-ofed-24.10_constructed.txt");

        assertThat(inventory(ProbeRun.withSpec(host, SPEC)).path("rdmaCore").asText()).isEqualTo("MLNX_OFED_LINUX-24.10-1.1.4.0");
    }

    @Test
    void aPackageDatabaseWithoutRdmaCoreIsNotInstalledAndNoDatabaseTellsNothing() {
        FixtureHost without = host().file("/var/lib/dpkg/status", "Package: bash\nStatus: install ok installed\nVersion: 5.2-1\n");
        assertThat(inventory(ProbeRun.withSpec(without, SPEC)).path("rdmaCore").asText()).isEqualTo(InventoryFact.NOT_INSTALLED);

        FixtureHost none = host().delete("/var/lib/dpkg/status");
        assertThat(inventory(ProbeRun.withSpec(none, SPEC)).has("rdmaCore")).isFalse();
    }

    @Test
    void rpmAnswersOnAnRpmHost() {
        FixtureHost host = host().mkdir("/var/lib/rpm");
        host.tool("/usr/bin/rpm").on("-q", "--queryformat", "%{VERSION}-%{RELEASE}", "rdma-core").prints("48.0-1.el9");
        assertThat(inventory(ProbeRun.withSpec(host, SPEC)).path("rdmaCore").asText()).isEqualTo("48.0-1.el9");

        FixtureHost missing = host().mkdir("/var/lib/rpm");
        missing.tool("/usr/bin/rpm").otherwise().exits(1, "package rdma-core is not installed\n", "");
        assertThat(inventory(ProbeRun.withSpec(missing, SPEC)).path("rdmaCore").asText()).isEqualTo(InventoryFact.NOT_INSTALLED);
    }

    @Test
    void aNodeWithoutGpfsOrHcasSaysNotInstalledForThem() {
        FixtureHost host = FixtureHost.at(dir.resolve("bare")).mkdir("/sys/class/net/eth0").mkdir("/proc/1")
                .file("/proc/sys/kernel/osrelease", "6.1.0-57-amd64\n");

        JsonNode inventory = inventory(ProbeRun.withSpec(host, SPEC));

        assertThat(inventory.path("gpfsVersion").asText()).isEqualTo(InventoryFact.NOT_INSTALLED);
        assertThat(inventory.path("hcaFirmware").asText()).isEqualTo(InventoryFact.NOT_INSTALLED);
        assertThat(inventory.path("mlx5Driver").asText()).isEqualTo("not loaded");
        assertThat(inventory.has("gpfsVerbs")).isFalse();   // not looked at: no daemon to ask
    }

    @Test
    void aDaemonThatIsDownTellsNoVersion() {
        FixtureHost host = FixtureHost.at(dir.resolve("down"));
        GpfsFixtures.notRunning(host);

        JsonNode inventory = inventory(ProbeRun.withSpec(host, SPEC));

        assertThat(inventory.has("gpfsVersion")).isFalse();
    }

    @Test
    void theInventoryStaysWholeWhenTheReportMustShrink() throws Exception {
        Map<InventoryFact, String> full = new EnumMap<>(InventoryFact.class);
        for (InventoryFact fact : InventoryFact.values()) {
            full.put(fact, "v".repeat(InventoryFact.MAX_VALUE_CHARS));
        }
        List<CheckResult> checks = new ArrayList<>();
        for (CheckType type : List.of(CheckType.RDMA_DEVICES, CheckType.GPFS_VERBS, CheckType.GDS_READY)) {
            checks.add(CheckResult.builder(type).condition(Status.UNKNOWN, io.rdmastorage.contract.Reasons.CHECK_CRASHED,
                    "m".repeat(900)).detail("big", "d".repeat(2000)).build());
        }

        String json = ReportJson.compact(Report.of("gpu-07", "test", "2026-03-01T12:00:00Z", 1, checks, full));

        assertThat(json.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);
        JsonNode inventory = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path(ReportSchema.F_INVENTORY);
        assertThat(inventory.size()).isEqualTo(InventoryFact.values().length);
        assertThat(inventory.path("kernel").asText()).hasSize(InventoryFact.MAX_VALUE_CHARS);
    }

    @Test
    void valuesAreOneShortLine() {
        Map<InventoryFact, String> facts = new Inventory()
                .put(InventoryFact.KERNEL, "  6.1.0\n  -57 ")
                .put(InventoryFact.GDS, "")
                .put(InventoryFact.RDMA_CORE, "x".repeat(200))
                .distinct(InventoryFact.HCA_FIRMWARE, List.of("28.41.1000", "28.39.1002", "28.41.1000", ""))
                .asMap();

        assertThat(facts.get(InventoryFact.KERNEL)).isEqualTo("6.1.0 -57");
        assertThat(facts).doesNotContainKey(InventoryFact.GDS);
        assertThat(facts.get(InventoryFact.RDMA_CORE)).hasSize(InventoryFact.MAX_VALUE_CHARS).endsWith("…");
        assertThat(facts.get(InventoryFact.HCA_FIRMWARE)).isEqualTo("28.39.1002, 28.41.1000");
    }
}
