package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnknownCauseTest {

    private static Condition unknown(String reason) {
        return new Condition(null, "m", null, reason, Conditions.UNKNOWN, "GpfsVerbs");
    }

    @Test
    void eachNodeReasonStandsForOneCause() {
        assertThat(UnknownCause.of(Reasons.AWAITING_PROBE)).isEqualTo(UnknownCause.AWAITING);
        assertThat(UnknownCause.of(Reasons.AWAITING_MEASUREMENT)).isEqualTo(UnknownCause.AWAITING);
        // RdmaPortErrors' first round: the next round judges; a counter without a delta is no wait
        assertThat(UnknownCause.of("NoCounterBaseline")).isEqualTo(UnknownCause.AWAITING);
        assertThat(UnknownCause.of("NoCounterDelta")).isEqualTo(UnknownCause.TROUBLE);
        assertThat(UnknownCause.of(Reasons.NODE_NOT_READY)).isEqualTo(UnknownCause.PAUSED);
        assertThat(UnknownCause.of(Reasons.NODE_UNSCHEDULABLE)).isEqualTo(UnknownCause.PAUSED);
        // anything else, a reason this operator does not know included, is trouble
        for (String reason : new String[] {Reasons.PROBE_TIMED_OUT, Reasons.RESULT_EXPIRED, Reasons.NO_PEER, "ToolNotFound",
                                           "SomeFutureReason", null}) {
            assertThat(UnknownCause.of(reason)).as(reason).isEqualTo(UnknownCause.TROUBLE);
        }
    }

    @Test
    void theWorstCauseWins() {
        assertThat(UnknownCause.of(List.of(unknown(Reasons.NODE_UNSCHEDULABLE), unknown(Reasons.AWAITING_PROBE))))
                .isEqualTo(UnknownCause.AWAITING);
        assertThat(UnknownCause.of(List.of(unknown(Reasons.AWAITING_PROBE), unknown(Reasons.PROBE_FAILED))))
                .isEqualTo(UnknownCause.TROUBLE);
        assertThat(UnknownCause.PAUSED.worse(null)).isEqualTo(UnknownCause.PAUSED);
        // no condition to tell by is never taken for waiting
        assertThat(UnknownCause.of(List.of())).isEqualTo(UnknownCause.TROUBLE);
    }

    @Test
    void eachCauseHasItsOwnReason() {
        assertThat(UnknownCause.PAUSED.reason()).isEqualTo("NodesPaused");
        assertThat(UnknownCause.AWAITING.reason()).isEqualTo("NodesAwaiting");
        assertThat(UnknownCause.TROUBLE.reason()).isEqualTo("NodesUnknown");
    }
}
