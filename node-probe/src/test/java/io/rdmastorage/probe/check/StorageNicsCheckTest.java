package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GB200 tray (samples/gb200): four ConnectX-7 compute NICs beside two BlueField-3 storage NICs.
 * With {@code rdma.storageNics} the storage checks judge the BlueField-3 functions only: a compute
 * NIC's fault does not fail storage, a storage NIC's does.
 */
class StorageNicsCheckTest {

    /** The BlueField-3 functions by PCI address, as NVIDIA's tray table lists them. */
    static final String BY_PCI = "{\"rdma\":{\"storageNics\":{\"pciAddresses\":[\"0006:03:00.*\",\"0016:03:00.*\"]}}}";
    /** The same by netdev: only the BlueField-3 names carry a function suffix (f0, f1). */
    static final String BY_NETDEV = "{\"rdma\":{\"storageNics\":{\"netdevs\":[\"enP*p3s0f[01]np[01]\"]}}}";
    static final String BY_DEVICE = "{\"rdma\":{\"storageNics\":{\"devices\":[\"mlx5_[2367]\"]}}}";
    static final String ALL_NICS = "{\"rdma\":{}}";

    @TempDir
    Path dir;

    private FixtureHost tray() {
        return Gb200Fixtures.tray(FixtureHost.at(dir.resolve("root")));
    }

    @Test
    void theStorageNicsAreJudgedAndTheComputeNicsNamedAsLeftOut() {
        for (String spec : new String[] {BY_PCI, BY_NETDEV, BY_DEVICE}) {
            JsonNode check = ProbeRun.withSpec(tray(), spec).check("RdmaDevices");

            assertThat(check.path("status").asText()).as(spec + " " + check).isEqualTo("True");
            assertThat(check.path("details").path("computeNics").toString()).as(spec)
                    .isEqualTo("[\"mlx5_0\",\"mlx5_1\",\"mlx5_4\",\"mlx5_5\"]");
            assertThat(check.path("details").path("ports").toString()).as(spec)
                    .contains("mlx5_2/1", "mlx5_3/1", "mlx5_6/1", "mlx5_7/1").doesNotContain("mlx5_0/1", "mlx5_5/1");
            assertThat(check.path("message").asText()).as(spec).contains("mlx5_2/1").doesNotContain("mlx5_4/1");
        }
    }

    @Test
    void aComputeNicsDownPortDoesNotFailStorageAStorageNicsDoes() {
        JsonNode compute = ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_4"), BY_PCI).check("RdmaDevices");
        assertThat(compute.path("status").asText()).as(compute.toString()).isEqualTo("True");

        JsonNode storage = ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_6"), BY_PCI).check("RdmaDevices");
        assertThat(storage.path("status").asText()).as(storage.toString()).isEqualTo("False");
        assertThat(storage.path("reason").asText()).isEqualTo("PortDown");
        assertThat(storage.path("message").asText()).contains("mlx5_6/1");
    }

    @Test
    void everyPortOfANamedStorageNicMustWorkWhileWithoutStorageNicsOneWorkingPortIsEnough() {
        // a second BlueField-3 function without link: the profile named it a storage rail, so it is no spare
        JsonNode named = ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_3"), BY_DEVICE).check("RdmaDevices");
        assertThat(named.path("status").asText()).as(named.toString()).isEqualTo("False");

        JsonNode discovery = ProbeRun.withSpec(Gb200Fixtures.portDown(tray(), "mlx5_3"), ALL_NICS).check("RdmaDevices");
        assertThat(discovery.path("status").asText()).as(discovery.toString()).isEqualTo("True");
    }

    @Test
    void aFatalLineOfAComputeNicIsLeftOutOneOfAStorageNicFailsStorage() {
        String log = Samples.body("kmsg/dev-kmsg_mlx5-dying_cx5-pcie-drop-no-pid-prefix_linux-7.0-report.txt");

        FixtureHost computeDying = tray().file("/dev/kmsg", log.replace("0000:c4:00.0", "0000:03:00.0"))
                .file("/proc/uptime", "2600.00 1.00\n");
        JsonNode leftOut = ProbeRun.withSpec(computeDying, BY_PCI).check("RdmaDevices");
        assertThat(leftOut.path("status").asText()).as(leftOut.toString()).isEqualTo("True");
        JsonNode everyNic = ProbeRun.withSpec(computeDying, ALL_NICS).check("RdmaDevices");
        assertThat(everyNic.path("reason").asText()).as(everyNic.toString()).isEqualTo("DeviceFatalLogged");
        assertThat(everyNic.path("message").asText()).startsWith("mlx5_0 (0000:03:00.0)");

        FixtureHost storageDying = tray().file("/dev/kmsg", log.replace("0000:c4:00.0", "0006:03:00.0"))
                .file("/proc/uptime", "2600.00 1.00\n");
        JsonNode judged = ProbeRun.withSpec(storageDying, BY_PCI).check("RdmaDevices");
        assertThat(judged.path("status").asText()).as(judged.toString()).isEqualTo("False");
        assertThat(judged.path("reason").asText()).isEqualTo("DeviceFatalLogged");
        assertThat(judged.path("message").asText()).startsWith("mlx5_2 (0006:03:00.0)");
    }

    @Test
    void selectorsThatMatchNoDeviceAreFalseNamingWhatTheNodeHas() {
        JsonNode check = ProbeRun.withSpec(tray(), "{\"rdma\":{\"storageNics\":{\"devices\":[\"roceP6p3s0\"]}}}")
                .check("RdmaDevices");

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("StorageNicMissing");
        assertThat(check.path("message").asText()).contains("devices roceP6p3s0", "mlx5_0, mlx5_1, mlx5_2");
    }

    @Test
    void theFleetComparesTheStorageNicsPortsOnly() {
        JsonNode inventory = ProbeRun.withSpec(tray(), BY_PCI).report().path("inventory");

        assertThat(inventory.path("rdmaPorts").asText()).as(inventory.toString()).isEqualTo("4 × " + Gb200Fixtures.RATE_200);
        assertThat(ProbeRun.withSpec(tray(), ALL_NICS).report().path("inventory").path("rdmaPorts").asText())
                .isEqualTo("4 × " + Gb200Fixtures.RATE_200 + ", 4 × " + Gb200Fixtures.RATE_400);
    }
}
