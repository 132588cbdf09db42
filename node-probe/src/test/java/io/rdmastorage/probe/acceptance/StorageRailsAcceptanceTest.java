package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An acceptance run on a GB200 tray (samples/gb200, {@link Gb200Fixtures}) while a training job
 * moves data over a ConnectX compute rail: the run's {@code storageNics} names the BlueField-3
 * storage rails, and only their counters prove the transport. Without it every RDMA port counts,
 * and the compute rail's traffic beside NFS's TCP reads leaves the transport unproven.
 */
class StorageRailsAcceptanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DIRECTORY = "/gpfs/fs1/acceptance";
    /** The tray's BlueField-3 functions by PCI address, as the profile's RdmaDevices check names them. */
    private static final String BLUEFIELD = "\"storageNics\":{\"pciAddresses\":[\"0006:03:00.*\",\"0016:03:00.*\"]}";
    private static final String COMPUTE_RAIL = "mlx5_0";
    private static final String STORAGE_RAIL = "mlx5_6";

    @TempDir
    Path dir;
    private FixtureHost host;
    private Path fio;

    @BeforeEach
    void tray() throws IOException {
        host = AcceptanceFixtures.pathNode(Gb200Fixtures.tray(FixtureHost.at(dir.resolve("host"))), DIRECTORY);
        for (Gb200Fixtures.Nic nic : Gb200Fixtures.NICS) {
            for (String counter : List.of("port_rcv_packets", "port_xmit_packets", "port_rcv_data", "port_xmit_data")) {
                host.file(counters(nic.device()) + counter, "1000\n");
            }
        }
        fio = trainingTraffic(AcceptanceFixtures.pathFio(dir.resolve("bin/fio-path"), host, dir, 4));
    }

    private static String counters(String device) {
        return RdmaFixtures.classDir(device) + "/ports/1/counters/";
    }

    /**
     * A fio that first moves the compute rail's counters by 10 GB a workload (the training job's
     * all-reduce), and with the file system on rdma the storage rail's by as much (the reads), then
     * runs {@code pathFio}, which moves the NFS socket's bytes when the file system is on tcp.
     */
    private Path trainingTraffic(Path pathFio) throws IOException {
        String transport = FixtureHost.shQuote(host.path(AcceptanceFixtures.TRANSPORT_FILE).toString());
        StringBuilder script = new StringBuilder("#!/bin/sh\nbump() { f=\"$1\"; echo $(( $(cat \"$f\") + $2 )) > \"$f.new\"; "
                + "mv \"$f.new\" \"$f\"; }\nmove() { bump \"$1port_rcv_data\" 2500000000; bump \"$1port_rcv_packets\" 2500000; }\n");
        script.append("move ").append(FixtureHost.shQuote(host.path(counters(COMPUTE_RAIL)) + "/")).append('\n')
                .append("if [ \"$(cat ").append(transport).append(")\" = rdma ]; then move ")
                .append(FixtureHost.shQuote(host.path(counters(STORAGE_RAIL)) + "/")).append("; fi\n")
                .append("exec ").append(FixtureHost.shQuote(pathFio.toString())).append(" \"$@\"\n");
        Path path = dir.resolve("bin/fio");
        Files.writeString(path, script.toString());
        assertThat(path.toFile().setExecutable(true)).isTrue();
        return path;
    }

    private static String pathSpec(String storageNics) {
        return "{\"path\":{\"directory\":\"" + DIRECTORY + "\",\"fileSizeMiB\":16,\"fileName\":\"rdmastorage-acceptance-run-1.fio\"},"
                + "\"latency\":{\"durationSeconds\":5},\"iops\":{\"durationSeconds\":5},\"bandwidth\":{\"durationSeconds\":5}"
                + (storageNics.isEmpty() ? "" : "," + storageNics) + "}";
    }

    private ProbeRun acceptance(String spec) {
        return ProbeRun.run(List.of("acceptance", "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "gb200-tray-1", "--spec", "-", "--tool", "fio=" + fio), spec);
    }

    private static JsonNode row(ProbeRun run) throws IOException {
        return JSON.readTree(run.stdout()).get("transports").get(0);
    }

    private List<String> fioCalls() throws IOException {
        Path log = dir.resolve(AcceptanceFixtures.FIO_LOG);
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void nfsOverTcpIsProvenOnTheStorageRailsWhileTheComputeRailCarriesATrainingJob() throws IOException {
        host.file(AcceptanceFixtures.TRANSPORT_FILE, "tcp\n");

        JsonNode row = row(acceptance(pathSpec(BLUEFIELD)));

        assertThat(row.get("transport").asText()).as(row.toString()).isEqualTo("tcp");
        assertThat(row.has("problem")).as("no problem").isFalse();
        assertThat(row.get("traffic").asText()).as("only the BlueField-3 ports are read")
                .contains("mlx5_2/1", "mlx5_3/1", "mlx5_6/1", "mlx5_7/1").doesNotContain(COMPUTE_RAIL + "/1", "rxe0");
    }

    @Test
    void withoutStorageNicsTheComputeRailsTrafficLeavesTheTransportUnproven() throws IOException {
        host.file(AcceptanceFixtures.TRANSPORT_FILE, "tcp\n");

        JsonNode row = row(acceptance(pathSpec("")));

        assertThat(row.get("transport").asText()).as(row.toString()).isEqualTo(PathTransportProof.UNPROVEN);
        assertThat(row.get("problem").asText()).contains("both moved data", "storageNics");
    }

    @Test
    void readsOverTheStorageRailsAreProvenRdma() throws IOException {
        JsonNode row = row(acceptance(pathSpec(BLUEFIELD)));

        assertThat(row.get("transport").asText()).as(row.toString()).isEqualTo("rdma");
        assertThat(row.get("traffic").asText()).contains("30000000000 bytes");
    }

    @Test
    void selectorsMatchingNoDeviceLeaveTheRunIncompleteWithoutLayingOutAFile() throws IOException {
        ProbeRun run = acceptance(pathSpec("\"storageNics\":{\"devices\":[\"mlx5_bf*\"]}"));

        JsonNode row = row(run);
        assertThat(row.get("problem").asText()).startsWith("no RDMA port of the node belongs to a device storageNics "
                + "selects (devices mlx5_bf*)");
        assertThat(JSON.readTree(run.stdout()).get("complete").asBoolean()).isFalse();
        assertThat(fioCalls()).as("nothing measured").isEmpty();
        try (var entries = Files.list(host.path(DIRECTORY))) {
            assertThat(entries).as("no file laid out").isEmpty();
        }
    }

    @Test
    void anNvmeofRunConnectsNothingWhenTheSelectorsMatchNoDevice() throws IOException {
        FixtureHost node = AcceptanceFixtures.node(FixtureHost.at(dir.resolve("nvmeof-host")), dir);
        String spec = "{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"" + NvmeofFixtures.TARGET_ADDRESS
                + "\",\"port\":" + NvmeofFixtures.TARGET_PORT + ",\"transports\":[\"tcp\"],\"connect\":true},"
                + "\"storageNics\":{\"netdevs\":[\"enP22p3s0f*\"]}}";

        ProbeRun run = ProbeRun.run(List.of("acceptance", "--host-root", node.root().toString(), "--exec-mode", "direct",
                "--node", "test-node", "--spec", "-", "--tool", "fio=" + fio), spec);

        assertThat(row(run).get("problem").asText()).as(run.stdout()).contains("storageNics selects (netdevs enP22p3s0f*)");
        assertThat(dir.resolve(AcceptanceFixtures.NVME_LOG)).as("no nvme connect").doesNotExist();
        assertThat(fioCalls()).isEmpty();
    }

    @Test
    void selectorsOfTheWrongShapeAreRefusedNamingTheField() {
        ProbeRun run = acceptance(pathSpec("\"storageNics\":{\"devices\":[\"mlx5_0;reboot\"]}"));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("storageNics.devices");
    }
}
