package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.AcceptanceTransportResult;
import org.junit.jupiter.api.Test;

/** The pod's document read without trust. */
class AcceptanceResultTest {

    private static final String DOC = """
            {"apiVersion":"rdmastorage.io/v1alpha1","kind":"AcceptanceReport","node":"gpu-07","probeVersion":"0.1.0",
             "fioVersion":"fio-3.33","startedAt":"2026-12-01T16:00:00Z","durationMillis":200000,"complete":true,"message":"",
             "transports":[{"transport":"rdma","controller":"nvme1","device":"/dev/nvme1n1","connectedByProbe":false,
               "latency":{"iops":39000.0,"bytesPerSecond":159744000,"p50Micros":25.1,"p99Micros":31.2,"p999Micros":45.0,
                          "coresBusy":1.1,"softPercent":0.5,"sysPercent":2.0},
               "iops":{"iops":1500000.0,"bytesPerSecond":6144000000,"coresBusy":1.8,"softPercent":1.0,"sysPercent":3.0},
               "bandwidth":{"iops":11000.0,"bytesPerSecond":11800000000,"coresBusy":0.9}}],
             "disconnected":[]}
            """;

    @Test
    void theNumbersBecomeTheStatusRow() {
        AcceptanceResult r = AcceptanceResult.parse(DOC).orElseThrow();

        assertThat(r.complete()).isTrue();
        assertThat(r.fioVersion()).isEqualTo("fio-3.33");
        AcceptanceTransportResult rdma = r.transports().get(0);
        assertThat(rdma.getLatencyP50Micros()).isEqualTo(25.1);
        assertThat(rdma.getIops()).isEqualTo(1_500_000.0);
        assertThat(rdma.getCpuMicrosPerIo()).isEqualTo(1.2);   // 1.8 cores / 1.5M IOPS
        assertThat(rdma.getBandwidthGBps()).isEqualTo(11.8);
        assertThat(rdma.getProblem()).isNull();
        assertThat(AcceptanceResult.comparable(rdma)).isTrue();
    }

    @Test
    void anythingElseIsNoResult() {
        assertThat(AcceptanceResult.parse("")).isEmpty();
        assertThat(AcceptanceResult.parse("Segmentation fault (core dumped)")).isEmpty();
        assertThat(AcceptanceResult.parse(DOC.replace("AcceptanceReport", "NodeProbeReport"))).isEmpty();
        assertThat(AcceptanceResult.parse(DOC.replace("\"complete\":true", "\"complete\":\"yes\""))).isEmpty();
        assertThat(AcceptanceResult.parse(DOC.substring(0, DOC.length() / 2))).isEmpty();
    }

    @Test
    void textIsCleanedAndNumbersThatAreNotNumbersAreAbsent() {
        String odd = DOC.replace("\"p50Micros\":25.1", "\"p50Micros\":\"fast\"").replace("\"coresBusy\":1.8", "\"coresBusy\":-3")
                .replace("\"connectedByProbe\":false,", "\"connectedByProbe\":false,\"problem\":\"fio said \\u001b[31mno\\u202e\",");

        AcceptanceTransportResult rdma = AcceptanceResult.parse(odd).orElseThrow().transports().get(0);

        assertThat(rdma.getLatencyP50Micros()).isNull();
        assertThat(rdma.getCpuMicrosPerIo()).isNull();
        assertThat(rdma.getProblem()).doesNotContain("\u001b", "\u202e").startsWith("fio said ");
        assertThat(AcceptanceResult.comparable(rdma)).isFalse();
    }

    @Test
    void withoutAnIopsWorkloadTheCpuPerOperationIsPerMessageOfTheBandwidthWorkload() {
        String verbs = DOC.replace("\"iops\":{\"iops\":1500000.0,\"bytesPerSecond\":6144000000,\"coresBusy\":1.8,"
                + "\"softPercent\":1.0,\"sysPercent\":3.0},", "");

        AcceptanceTransportResult rdma = AcceptanceResult.parse(verbs).orElseThrow().transports().get(0);

        assertThat(rdma.getIops()).isNull();
        assertThat(rdma.getCpuMicrosPerIo()).isEqualTo(81.818);   // 0.9 cores / 11000 messages per second
        assertThat(AcceptanceResult.comparable(rdma)).isTrue();
    }
}
