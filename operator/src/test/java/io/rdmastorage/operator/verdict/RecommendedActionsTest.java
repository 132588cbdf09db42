package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.RecommendedAction;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecommendedActionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    @Test
    void aConditionRecommendsWhatItsReasonDeclaresWithItsStatus() {
        assertThat(RecommendedActions.of("RdmaDevices", "False", "PortDown")).isEqualTo(RecommendedAction.RESEAT_CABLE);
        // a port switched off or waiting for a subnet manager: no cable work helps
        assertThat(RecommendedActions.of("RdmaDevices", "False", "PortDisabled")).isEqualTo(RecommendedAction.FIX_CONFIG);
        assertThat(RecommendedActions.of("RdmaDevices", "False", "PortNotActivated")).isEqualTo(RecommendedAction.FIX_CONFIG);
        assertThat(RecommendedActions.of("RdmaDevices", "False", "DeviceFatalLogged")).isEqualTo(RecommendedAction.REPLACE_NIC);
        assertThat(RecommendedActions.of("GpfsVerbs", "False", "GpfsNotRunning")).isEqualTo(RecommendedAction.RESTART_DAEMON);
        assertThat(RecommendedActions.of("GpfsVerbs", "True", "RdmaInUse")).isEqualTo(RecommendedAction.NONE);
        // the same reason recommends less when the check could only not tell
        assertThat(RecommendedActions.of("RdmaDevices", "False", "RateBelowExpected")).isEqualTo(RecommendedAction.RESEAT_CABLE);
        assertThat(RecommendedActions.of("RdmaDevices", "Unknown", "RateBelowExpected")).isEqualTo(RecommendedAction.NONE);
        // a common reason, as every check declares it
        assertThat(RecommendedActions.of("NfsRdma", "False", "ToolNotFound")).isEqualTo(RecommendedAction.FIX_CONFIG);
        // SourcesDisagree is each check's own
        assertThat(RecommendedActions.of("GdsReady", "Unknown", "SourcesDisagree")).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
        assertThat(RecommendedActions.of("NfsRdma", "Unknown", "SourcesDisagree")).isEqualTo(RecommendedAction.NONE);
    }

    @Test
    void theOperatorsOwnReasonsOnChecksRecommendWhatTheyDeclare() {
        assertThat(RecommendedActions.of("GpfsVerbs", "Unknown", Reasons.PROBE_TIMED_OUT)).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
        assertThat(RecommendedActions.of("VerbsLatency", "Unknown", Reasons.RESULT_EXPIRED)).isEqualTo(RecommendedAction.NONE);
        assertThat(RecommendedActions.of("RdmaDevices", "Unknown", Reasons.NODE_NOT_READY)).isEqualTo(RecommendedAction.NONE);
        assertThat(RecommendedActions.of("VerbsLatency", "Unknown", Reasons.AWAITING_MEASUREMENT)).isEqualTo(RecommendedAction.NONE);
    }

    @Test
    void aReasonThisOperatorDoesNotDeclareAsksAPersonToLookUnlessTrue() {
        assertThat(RecommendedActions.of("RdmaDevices", "False", "SomethingNewer")).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
        assertThat(RecommendedActions.of("RdmaDevices", "Unknown", "SomethingNewer")).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
        assertThat(RecommendedActions.of("RdmaDevices", "True", "SomethingNewer")).isEqualTo(RecommendedAction.NONE);
        // declared, but not with that status (a report of another version)
        assertThat(RecommendedActions.of("RdmaDevices", "False", "PortsActive")).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
        // a status no one should write reads as Unknown, as everywhere
        assertThat(RecommendedActions.of("GpfsVerbs", "Maybe", "GpfsNotRunning")).isEqualTo(RecommendedAction.INVESTIGATE_NODE);
    }

    @Test
    void eachChecksDetailsGetItsActionBesideTheFactsAndNothingElseDoes() throws Exception {
        Map<String, JsonNode> details = new LinkedHashMap<>();
        details.put("GpfsVerbs", JSON.readTree("{\"peersOnTcp\":[\"gpu-02\"],\"recommendedAction\":\"None\"}"));
        details.put("CephMessenger", JSON.readTree("{\"recommendedAction\":\"FixConfig\"}"));   // its check left the profile
        details.put("NvmeofRdma", JSON.readTree("{\"targets\":1,\"recommendedAction\":\"FixConfig\"}"));
        List<Condition> conditions = List.of(
                condition("Ready", "False", "ChecksFailed"),
                condition("GpfsVerbs", "False", "TcpFallback"),
                condition("NvmeofRdma", "False", "TransportTcp"),
                condition("RdmaDevices", "True", "PortsActive"),
                condition("MatchesFleet", "False", "DiffersFromFleet"));

        Map<String, JsonNode> written = RecommendedActions.inDetails(conditions, details);

        assertThat(written).containsOnlyKeys("GpfsVerbs", "NvmeofRdma", "RdmaDevices");
        assertThat(written.get("GpfsVerbs")).isEqualTo(JSON.readTree("{\"peersOnTcp\":[\"gpu-02\"],\"recommendedAction\":\"FixConfig\"}"));
        assertThat(written.get("NvmeofRdma")).as("already right: kept as it is").isSameAs(details.get("NvmeofRdma"));
        assertThat(written.get("RdmaDevices")).isEqualTo(JSON.readTree("{\"recommendedAction\":\"None\"}"));
        assertThat(details.get("GpfsVerbs").path(RecommendedActions.FIELD).asText()).as("the argument is not modified").isEqualTo("None");
        assertThat(RecommendedActions.inDetails(conditions, written)).as("idempotent").isEqualTo(written);
    }

    @Test
    void factsOfATypeWithoutACheckConditionLoseOnlyTheAction() throws Exception {
        Map<String, JsonNode> details = Map.of("RdmaTraffic", JSON.readTree("{\"rdmaBytesPerSecond\":5,\"recommendedAction\":\"None\"}"));

        assertThat(RecommendedActions.inDetails(List.of(), details))
                .containsExactly(Map.entry("RdmaTraffic", JSON.readTree("{\"rdmaBytesPerSecond\":5}")));
        assertThat(RecommendedActions.inDetails(List.of(), null)).isEmpty();
    }

    private static Condition condition(String type, String status, String reason) {
        return Conditions.of(type, status, reason, "m", 1, T0);
    }
}
