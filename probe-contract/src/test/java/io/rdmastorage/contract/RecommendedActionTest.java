package io.rdmastorage.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every reason a check can give recommends an action with each of its statuses, chosen by hand:
 * None with True, and with False only where {@link #FALSE_WITH_NOTHING_TO_DO} says why nothing on
 * the node would help (a False that asks nothing of anyone is a remediation tool's blind spot).
 */
class RecommendedActionTest {

    /** "Check/Reason" → why a False with that reason recommends nothing. Empty: every False asks for something. */
    private static final Map<String, String> FALSE_WITH_NOTHING_TO_DO = Map.of();

    @Test
    void everyReasonOfEveryCheckRecommendsAnActionWithEachOfItsStatuses() {
        for (Map.Entry<String, Reason> r : allReasons()) {
            assertThat(r.getValue().actions().keySet()).as("%s: an action with each status", r.getKey())
                    .isEqualTo(r.getValue().statuses());
            assertThat(r.getValue().actions().values()).as("%s", r.getKey()).doesNotContainNull();
            if (r.getValue().statuses().contains(Status.TRUE)) {
                assertThat(r.getValue().actions().get(Status.TRUE)).as("%s with True", r.getKey()).isEqualTo(RecommendedAction.NONE);
            }
        }
    }

    @Test
    void aFalseReasonRecommendsNothingOnlyWithAJustification() {
        Set<String> falseWithNone = new TreeSet<>();
        for (Map.Entry<String, Reason> r : allReasons()) {
            if (r.getValue().actions().get(Status.FALSE) == RecommendedAction.NONE) {
                falseWithNone.add(r.getKey());
            }
        }
        assertThat(falseWithNone).as("False reasons recommending None: each needs its entry in FALSE_WITH_NOTHING_TO_DO")
                .isEqualTo(FALSE_WITH_NOTHING_TO_DO.keySet());
    }

    @Test
    void aReasonThatCanBeFalseOrUnknownMayRecommendLessWhenItCannotTell() {
        Reason rate = CheckType.RDMA_DEVICES.descriptor().reason("RateBelowExpected").orElseThrow();
        assertThat(rate.actions()).isEqualTo(Map.of(Status.FALSE, RecommendedAction.RESEAT_CABLE, Status.UNKNOWN, RecommendedAction.NONE));
        Reason peer = CheckType.VERBS_LATENCY.descriptor().reason("PeerUnreachable").orElseThrow();
        assertThat(peer.actions()).isEqualTo(Map.of(Status.FALSE, RecommendedAction.INVESTIGATE_NODE, Status.UNKNOWN, RecommendedAction.NONE));
        assertThat(Reasons.COMMON.get(0).actions()).as("ToolNotFound: install it, whether required or not")
                .isEqualTo(Map.of(Status.FALSE, RecommendedAction.FIX_CONFIG, Status.UNKNOWN, RecommendedAction.FIX_CONFIG));
    }

    @Test
    void aReasonCannotLackAnActionNorRecommendOneWhenTrue() {
        Map<Status, RecommendedAction> falseOnly = new EnumMap<>(Map.of(Status.FALSE, RecommendedAction.FIX_CONFIG));
        assertThatThrownBy(() -> new Reason("Broken", EnumSet.of(Status.FALSE, Status.UNKNOWN), "m",
                EnumSet.of(Reason.Writer.PROBE), falseOnly)).hasMessageContaining("an action for each of its statuses");
        assertThatThrownBy(() -> Reason.probe("Fine", Status.TRUE, "m", RecommendedAction.RESTART_DAEMON))
                .hasMessageContaining("True reason recommends no action");
        assertThatThrownBy(() -> Reason.probe("Down", Status.FALSE, "m", RecommendedAction.RESEAT_CABLE)
                .withAction(Status.UNKNOWN, RecommendedAction.NONE)).hasMessageContaining("not given with Unknown");
    }

    @Test
    void actionsAreSpelledInCamelCase() {
        assertThat(RecommendedAction.values()).extracting(RecommendedAction::wire)
                .containsExactly("ReseatCable", "ReplaceNIC", "FixConfig", "RestartDaemon", "InvestigateNode", "None");
        assertThat(RecommendedAction.ofWire("ReplaceNIC")).contains(RecommendedAction.REPLACE_NIC);
        assertThat(RecommendedAction.ofWire("REPLACE_NIC")).isEmpty();
    }

    /** "Check/Reason" → reason, over every descriptor and the common reasons (as "*" for every check). */
    private static List<Map.Entry<String, Reason>> allReasons() {
        List<Map.Entry<String, Reason>> all = new ArrayList<>();
        for (CheckType type : CheckType.values()) {
            type.descriptor().reasons().forEach(r -> all.add(Map.entry(type.conditionType() + "/" + r.name(), r)));
        }
        Reasons.COMMON.forEach(r -> all.add(Map.entry("*/" + r.name(), r)));
        assertThat(all).hasSizeGreaterThan(90);
        return all;
    }
}
