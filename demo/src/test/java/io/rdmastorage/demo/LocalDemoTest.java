package io.rdmastorage.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        assertThat(out).contains("==> kubectl get rdmastorage")
                .containsPattern("rdmastorageprofile.rdmastorage.io/gpfs-gds-training +5 +1 +4 +0 +False")
                .contains("gpu-02 (GpfsVerbs: TcpFallback)").contains("gpu-03 (NvmeofRdma: TransportTcp)")
                .contains("gpu-04 (GdsReady: IommuEnabled)").contains("gpu-05 (RdmaDevices: PortDown)")
                // each node names itself: gpu-02's GPFS is gpu-02-ib, and its peer on TCP gpu-01-ib
                .contains("GPFS on gpu-02-ib talks to gpu-01-ib over TCP")
                // its first verdict is one Warning, for what is wrong (kubectl describe's Events)
                .containsPattern("Warning +TcpFallback")
                .contains("LATENCY-US")
                // gpu-01 passes everything, verbs latency to gpu-02 included (about 1 µs)
                .containsPattern("gpfs-gds-training\\.gpu-01 +gpu-01 +gpfs-gds-training +True +True +True +True +1\\.\\d+ ")
                // the operator's metrics, as the Grafana dashboard reads them
                .contains("rdmastorage_check_reason_nodes{check=\"GpfsVerbs\",profile=\"gpfs-gds-training\",reason=\"TcpFallback\",status=\"false\"} 1.0")
                .containsPattern("rdmastorage_verbs_latency_seconds\\{node=\"gpu-01\",profile=\"gpfs-gds-training\",statistic=\"typical\"} 1\\.\\d+E-6")
                .contains("export KUBECONFIG=")
                // one example of each Unknown reason a probe gives when it cannot tell
                .containsPattern("RdmaDevices +Unknown +HostViewMissing +the host's /sys is not visible")
                .containsPattern("GdsReady +Unknown +SourcesDisagree +gdscheck -p says the IOMMU is disabled");
    }
}
