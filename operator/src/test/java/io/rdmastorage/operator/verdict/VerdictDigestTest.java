package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What the operator wrote is trusted; any edit of what markings, the fleet comparison and expiry depend on is not. */
class VerdictDigestTest {

    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void aStatusAsWrittenMatchesAlsoAfterTheRoundTripThroughJson() {
        RdmaStorageNode verdict = written("training.gpu-01");

        RdmaStorageNode readBack = Serialization.unmarshal(Serialization.asJson(verdict), RdmaStorageNode.class);

        assertThat(VerdictDigest.matches(verdict)).isTrue();
        assertThat(VerdictDigest.matches(readBack)).isTrue();
    }

    @Test
    void everyEditOfWhatDecidesIsCaught() {
        List<Consumer<RdmaStorageNodeStatus>> edits = List.of(
                s -> s.getConditions().get(0).setStatus("True"),
                s -> s.getConditions().get(1).setReason("PortsActive"),
                s -> s.getConditions().get(1).setMessage("all fine"),
                s -> s.getConditions().get(1).setLastTransitionTime("2099-01-01T00:00:00Z"),
                s -> s.setLastProbeTime("2099-01-01T00:00:00Z"),
                s -> s.setProbeRound(99L),
                s -> s.setObservedGeneration(9L),
                s -> s.getLatency().setMeasuredAt("2099-01-01T00:00:00Z"),
                s -> s.setLatency(null),
                s -> s.getInventory().put("hcaFirmware", "28.35.2000"),
                s -> s.getInventory().remove("kernel"),
                s -> s.getInventory().put("rdmaCore", "44.0-2"),
                s -> s.setDigest(null));
        for (Consumer<RdmaStorageNodeStatus> edit : edits) {
            RdmaStorageNode verdict = written("training.gpu-01");
            edit.accept(verdict.getStatus());
            assertThat(VerdictDigest.matches(verdict)).as("edited status").isFalse();
        }
    }

    @Test
    void anEditedCounterReadingIsCaughtWhateverSpellingTheApiServerReturns() {
        RdmaStorageNode verdict = withReading("{\"bootId\":\"b1\",\"readAt\":\"2026-03-01T12:00:00Z\",\"ports\":{\"mlx5_0/1\":[0,0,3]}}");

        RdmaStorageNode readBack = Serialization.unmarshal(Serialization.asJson(verdict), RdmaStorageNode.class);
        assertThat(VerdictDigest.matches(readBack)).as("as written, after the round trip").isTrue();

        // the reading set to what the counters read now: the next round would see no errors between rounds
        readBack.getStatus().getDetails().put("RdmaPortErrors", Serialization.unmarshal(
                "{\"baseline\":{\"bootId\":\"b1\",\"readAt\":\"2026-03-01T12:00:00Z\",\"ports\":{\"mlx5_0/1\":[0,0,9]}}}",
                com.fasterxml.jackson.databind.JsonNode.class));
        assertThat(VerdictDigest.matches(readBack)).as("edited reading").isFalse();
    }

    @Test
    void aVerdictWithoutACounterReadingKeepsTheDigestItHadBefore() {
        RdmaStorageNode verdict = written("training.gpu-01");
        RdmaStorageNodeStatus status = verdict.getStatus();
        status.getDetails().put("RdmaDevices", Serialization.unmarshal("{\"ports\":1}", com.fasterxml.jackson.databind.JsonNode.class));

        assertThat(VerdictDigest.matches(verdict)).as("other details are not covered").isTrue();
    }

    private static RdmaStorageNode withReading(String baseline) {
        RdmaStorageNode verdict = written("training.gpu-01");
        RdmaStorageNodeStatus status = verdict.getStatus();
        status.getDetails().put("RdmaPortErrors", Serialization.unmarshal("{\"baseline\":" + baseline + "}",
                com.fasterxml.jackson.databind.JsonNode.class));
        VerdictDigest.stamp("training.gpu-01", status);
        return verdict;
    }

    @Test
    void theInventoryMatchesWhateverOrderTheApiServerReturnsItsKeysIn() {
        RdmaStorageNode verdict = written("training.gpu-01");
        Map<String, String> reversed = new LinkedHashMap<>();
        reversed.put("kernel", verdict.getStatus().getInventory().get("kernel"));
        reversed.put("hcaFirmware", verdict.getStatus().getInventory().get("hcaFirmware"));

        verdict.getStatus().setInventory(reversed);

        assertThat(VerdictDigest.matches(verdict)).isTrue();
    }

    @Test
    void aDigestWrittenBeforeTheInventoryWasCoveredStillMatchesSoAnUpgradeReprobesNothing() {
        RdmaStorageNode verdict = written("training.gpu-01");
        RdmaStorageNodeStatus status = verdict.getStatus();
        status.setDigest(VerdictDigest.withoutInventoryOf("training.gpu-01", status));

        assertThat(VerdictDigest.matches(verdict)).as("as an earlier operator wrote it").isTrue();
        status.getConditions().get(0).setStatus("True");
        assertThat(VerdictDigest.matches(verdict)).as("its conditions still guarded").isFalse();

        RdmaStorageNode rewritten = written("training.gpu-01");
        assertThat(rewritten.getStatus().getDigest()).as("the next write stamps the full digest")
                .isNotEqualTo(VerdictDigest.withoutInventoryOf("training.gpu-01", rewritten.getStatus()));
        rewritten.getStatus().getInventory().put("hcaFirmware", "28.35.2000");
        assertThat(VerdictDigest.matches(rewritten)).as("and from then on the inventory is guarded").isFalse();
    }

    @Test
    void aStatusCopiedFromAnotherNodesVerdictIsCaught() {
        RdmaStorageNode healthy = written("training.gpu-01");
        RdmaStorageNode failing = written("training.gpu-02");

        failing.setStatus(healthy.getStatus());

        assertThat(VerdictDigest.matches(failing)).isFalse();
    }

    @Test
    void aVerdictWithoutStatusHasNothingToDistrust() {
        RdmaStorageNode creating = new RdmaStorageNode();
        creating.getMetadata().setName("training.gpu-01");
        creating.setStatus(null);

        assertThat(VerdictDigest.matches(creating)).isTrue();
    }

    private static RdmaStorageNode written(String name) {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setObservedGeneration(3L);
        status.setConditions(new java.util.ArrayList<>(List.of(
                Conditions.of(CheckTypes.READY, Conditions.FALSE, Reasons.CHECKS_FAILED, "RdmaDevices: PortDown", 3, AT),
                Conditions.of("RdmaDevices", Conditions.FALSE, "PortDown", "mlx5_0/1 is DOWN", 3, AT))));
        status.setLastProbeTime(AT.toString());
        status.setProbeRound(4L);
        LatencyResult latency = new LatencyResult();
        latency.setMeasuredAt(AT.toString());
        latency.setRound(2L);
        latency.setTypicalMicros(1.5);
        status.setLatency(latency);
        status.getInventory().put("hcaFirmware", "28.39.1002");
        status.getInventory().put("kernel", "6.8.0-45-generic");
        RdmaStorageNode verdict = new RdmaStorageNode();
        verdict.getMetadata().setName(name);
        verdict.setStatus(VerdictDigest.stamp(name, status));
        return verdict;
    }
}
