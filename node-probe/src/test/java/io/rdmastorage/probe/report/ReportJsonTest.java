package io.rdmastorage.probe.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaDevices;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.probe.check.CheckResult;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report as it must fit a termination message. */
class ReportJsonTest {

    @Test
    void aCheckWhoseDetailsAreDroppedKeepsTheCounterReadingTheNextRoundIsHanded() throws Exception {
        CounterBaseline reading = new CounterBaseline("1b9e4c1e-5a4e-4f0c-9a6b-2c0f5d3e7a10", Instant.parse("2026-05-01T10:00:00Z"),
                Map.of("mlx5_0/1", List.of(0L, 0L, 0L, 12L, 0L, 0L, 3L, -1L, 0L, 2L)));
        List<CheckResult> checks = new ArrayList<>();
        checks.add(CheckResult.builder(CheckType.RDMA_PORT_ERRORS).condition(Status.TRUE, RdmaPortErrors.PORT_ERRORS_WITHIN_RATES, "m".repeat(300))
                .detail(RdmaPortErrors.BASELINE_DETAIL, reading.wire()).detail("big", "d".repeat(3000)).build());
        for (int i = 0; i < 2; i++) {
            checks.add(CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.TRUE, RdmaDevices.PORTS_ACTIVE, "m".repeat(300))
                    .detail("big", "d".repeat(2000)).build());
        }

        String json = ReportJson.compact(Report.of("gpu-07", "test", "2026-03-01T12:00:00Z", 1, checks, new EnumMap<>(InventoryFact.class)));

        assertThat(json.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ReportSchema.MAX_BYTES);
        JsonNode details = new ObjectMapper().readTree(json).path(ReportSchema.F_CHECKS).get(0).path(ReportSchema.C_DETAILS);
        assertThat(details.path(ReportSchema.DETAILS_OMITTED).asBoolean()).isTrue();
        assertThat(details.has("big")).isFalse();
        assertThat(CounterBaseline.read(details.path(RdmaPortErrors.BASELINE_DETAIL).toString())).isEqualTo(reading);
    }

    @Test
    void aCheckWithoutHandedOnDetailsIsLeftWithTheMarkAlone() throws Exception {
        List<CheckResult> checks = List.of(CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.TRUE, RdmaDevices.PORTS_ACTIVE, "m")
                .detail("big", "d".repeat(5000)).build());

        String json = ReportJson.compact(Report.of("gpu-07", "test", "2026-03-01T12:00:00Z", 1, checks, new EnumMap<>(InventoryFact.class)));

        assertThat(new ObjectMapper().readTree(json).path(ReportSchema.F_CHECKS).get(0).path(ReportSchema.C_DETAILS).toString())
                .isEqualTo("{\"detailsOmitted\":true}");
    }

    @Test
    void theFaultyDevicesTheOperatorFencesSurviveTheDrop() throws Exception {
        List<Map<String, Object>> faulty = List.of(Map.of("device", "mlx5_6", "pciAddress", "0016:03:00.0",
                "netdevs", List.of("enP22p3s0f0np0"), "reasons", List.of("PortDown")));
        List<CheckResult> checks = List.of(CheckResult.builder(CheckType.RDMA_DEVICES).condition(Status.FALSE, RdmaDevices.PORT_DOWN, "m")
                .detail(ReportSchema.FAULTY_DEVICES, faulty).detail(ReportSchema.FAULTS_BEYOND_DEVICES, true)
                .detail("big", "d".repeat(5000)).build());

        String json = ReportJson.compact(Report.of("gpu-07", "test", "2026-03-01T12:00:00Z", 1, checks, new EnumMap<>(InventoryFact.class)));

        JsonNode details = new ObjectMapper().readTree(json).path(ReportSchema.F_CHECKS).get(0).path(ReportSchema.C_DETAILS);
        assertThat(details.has("big")).isFalse();
        assertThat(details.path(ReportSchema.FAULTY_DEVICES).get(0).path("pciAddress").asText()).isEqualTo("0016:03:00.0");
        assertThat(details.path(ReportSchema.FAULTS_BEYOND_DEVICES).asBoolean()).isTrue();
    }
}
