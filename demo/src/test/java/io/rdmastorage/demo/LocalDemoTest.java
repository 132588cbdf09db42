package io.rdmastorage.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's main command must keep working: the demo runs end to end and shows every failure. */
class LocalDemoTest {

    @Test
    void demoShowsAVerdictForEveryNode() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (AutoCloseable demo = LocalDemo.run()) {
            System.out.flush();
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        // the run's transcript, for reading (the README's excerpt is taken from it)
        Files.writeString(Files.createDirectories(Path.of("target")).resolve("demo-transcript.txt"), out);
        assertThat(out).contains("==> kubectl get rdmastorage")
                .containsPattern("rdmastorageprofile.rdmastorage.io/gpfs-gds-training +7 +1 +6 +0 +False")
                .containsPattern("rdmastorageprofile.rdmastorage.io/roce-storage +1 +0 +1 +0 +False")
                .contains("gpu-02 (GpfsVerbs: TcpFallback; RdmaTraffic: DataOnTcp)")
                .contains("gpu-03 (NvmeofRdma: TransportTcp; RdmaTraffic: DataOnTcp)")
                .contains("gpu-04 (GdsReady: IommuEnabled)").contains("gpu-05 (RdmaDevices: PortNotActivated)")
                .contains("gpu-06 (RdmaTraffic: DataOnTcp)").contains("6 of 7 nodes not ready", "gpu-06 (RdmaTraffic: DataOnTcp), ... and 1 more")
                // each node names itself: gpu-02's GPFS is gpu-02-ib, and its peer on TCP gpu-01-ib
                .contains("GPFS on gpu-02-ib talks to gpu-01-ib over TCP")
                // its first verdict is one Warning, for what is wrong (kubectl describe's Events)
                .containsPattern("Warning +TcpFallback")
                .contains("LATENCY-US")
                .contains("False FleetDiverges: HCA firmware: 28.39.1002 on 6 nodes; 28.35.2000 on gpu-04; active RDMA ports: 2 × 400 Gb/sec (4X NDR) on 6 nodes; 1 × 400 Gb/sec (4X NDR) on gpu-05; LNet networks: o2ib on 6 nodes; o2ib, tcp on gpu-11")
                // gpu-06: every configuration check passes, and the counters show its storage bytes on NVMe/TCP
                .contains("RdmaDevices True PortsActive", "GpfsVerbs True RdmaInUse: GPFS on gpu-06-ib uses RDMA",
                        "NvmeofRdma True ConnectedOverRdma", "GdsReady True GdsReady")
                .containsPattern("RdmaTraffic False DataOnTcp: 192\\.0\\.2\\.1:4420 \\(NVMe/TCP\\) moved [0-9.]+ MB/s over TCP .*"
                        + "while the RDMA ports stayed below 100 packets/s")
                // gpu-02's traffic window agrees with its GPFS check: the daemon's bytes to gpu-01-ib on TCP (mmdiag's MB),
                // beside RDMA (the NSD servers); the healthy nodes' bytes ride RDMA (the rdma bytes metric below)
                .containsPattern("Reason: +DataOnTcp")
                .containsPattern("GPFS node gpu-01-ib moved [0-9.]+ MB/s over TCP .*while RDMA moved too \\(mlx5_0/1 carried ")
                // gpu-11, a Lustre client: an o2ib NI down, and a server reached over its tcp NID
                .contains("LustreLnet False PeerOnTcp: the LNet peer 10.10.0.11@o2ib is reachable by o2ib NID(s) that are all "
                        + "down (10.10.0.11@o2ib) and by 192.168.0.11@tcp up")
                // the healthy nodes' Lustre mounts ride o2ib
                .containsPattern("LustreLnet True MountsOverRdma|Reason: +MountsOverRdma")
                // gpu-07, RoCE: PFC on 6 and 7 instead of the storage priority 3, and the lossy fabric in its counters
                .contains("RoceLossless False PfcNotOnStoragePriority: mlx5_0/1 (eth0) has PFC on priority 6,7, not on the "
                        + "lossless priority 3")
                .contains("RdmaTraffic False FabricErrors: mlx5_0/1: hw_counters/out_of_sequence grew by 40 in the ")
                // the acceptance report of the commissioned node, from recorded fio outputs, and it says so
                .contains("NOT measured here", "rdma = the recorded fio 3.14 JSON", "tcp = constructed from it")
                .containsPattern("gpu-10-nvmeof +gpu-10 +nqn\\.2024-01\\.dev\\.wutz:target1 +Succeeded +4 +4 +True")
                .contains("# RDMA storage acceptance: gpu-10-nvmeof", "- RdmaEffective: **True**",
                        "| 4 KiB random read, depth 1: p50 latency (µs) | 103 | 412 | 4.00x |",
                        "tcp: nvme2 /dev/nvme2n1 (connected by the run, disconnected after it)")
                // gpu-01 passes everything, verbs latency to gpu-02 included (about 1 µs)
                .containsPattern("gpfs-gds-training\\.gpu-01 +gpu-01 +gpfs-gds-training +True +True +True +True +1\\.\\d+ ")
                // the operator's metrics, as the Grafana dashboard reads them
                .contains("rdmastorage_check_reason_nodes{check=\"LustreLnet\",profile=\"gpfs-gds-training\",reason=\"PeerOnTcp\",status=\"false\"} 1.0")
                .contains("rdmastorage_check_reason_nodes{check=\"GpfsVerbs\",profile=\"gpfs-gds-training\",reason=\"TcpFallback\",status=\"false\"} 1.0")
                .containsPattern("rdmastorage_verbs_latency_seconds\\{node=\"gpu-01\",profile=\"gpfs-gds-training\",statistic=\"typical\"} 1\\.\\d+E-6")
                .containsPattern("rdmastorage_storage_bytes_per_second\\{profile=\"gpfs-gds-training\",transport=\"rdma\"} [1-9]")
                .containsPattern("rdmastorage_storage_bytes_per_second\\{profile=\"gpfs-gds-training\",transport=\"tcp\"} [1-9]")
                .contains("rdmastorage_fleet_distinct_values{allow_mixed=\"false\",fact=\"hcaFirmware\",profile=\"gpfs-gds-training\"} 2.0")
                .contains("export KUBECONFIG=")
                // one example of each Unknown reason a probe gives when it cannot tell
                .containsPattern("RdmaDevices +Unknown +HostViewMissing +the host's /sys is not visible")
                .containsPattern("GdsReady +Unknown +SourcesDisagree +gdscheck -p says the IOMMU is disabled");
    }
}
