package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.CheckType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one combiner: worst first, the others mentioned, problems listed, True only without findings. */
class FindingsTest {

    private static final Finding PASSED = Finding.passed("PortsActive", "all good");
    private static final Finding UNKNOWN = Finding.of(Status.UNKNOWN, "PortStateUnreadable", "cannot tell", "unclear");
    private static final Finding DOWN = Finding.of(Status.FALSE, "PortDown", "port 2 is down", "port 2 down");
    private static final Finding MISSING = Finding.of(Status.FALSE, "DeviceMissing", "device 3 is missing", "device 3 missing");

    private static CheckResult combine(Findings.Mention mention, List<String> precedence, Finding... findings) {
        return Findings.combine(CheckType.RDMA_DEVICES, mention, precedence,
                Judgement.of(List.of(findings), PASSED, new Details().put("fact", 1)));
    }

    @Test
    void noFindingIsTheJudgementsTrue() {
        CheckResult result = combine(Findings.Mention.COUNTED, List.of());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("PortsActive");
        assertThat(result.details()).containsOnlyKeys("fact");
    }

    @Test
    void falseOutranksUnknownWhateverTheOrder() {
        CheckResult result = combine(Findings.Mention.COUNTED, List.of(), UNKNOWN, DOWN);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("PortDown");
        assertThat(result.message()).isEqualTo("port 2 is down; also 1 more: unclear");
        assertThat(result.details().get("problems")).isEqualTo(List.of("PortDown", "PortStateUnreadable"));
    }

    @Test
    void precedenceOrdersFindingsOfOneStatus() {
        CheckResult result = combine(Findings.Mention.COUNTED, List.of("DeviceMissing"), DOWN, UNKNOWN, MISSING);

        assertThat(result.reason()).isEqualTo("DeviceMissing");
        assertThat(result.message()).isEqualTo("device 3 is missing; also 2 more: port 2 down; unclear");
    }

    @Test
    void sentencesMentionEachProblemWithItsFix() {
        CheckResult result = combine(Findings.Mention.SENTENCES, List.of(), DOWN, MISSING);

        assertThat(result.message()).isEqualTo("port 2 is down. Also DeviceMissing: device 3 is missing.");
    }

    @Test
    void reasonsNameTheOthersOnly() {
        CheckResult result = combine(Findings.Mention.REASONS, List.of(), DOWN, UNKNOWN);

        assertThat(result.message()).isEqualTo("port 2 is down. Also: unclear");
    }

    @Test
    void aSingleFindingIsSaidAsIsWithItsOwnDetails() {
        CheckResult result = Findings.combine(CheckType.RDMA_DEVICES, Findings.Mention.SENTENCES,
                Judgement.only(UNKNOWN.withDetail("command", "ibstat"), new Details().put("fact", 1)));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.message()).isEqualTo("cannot tell");
        assertThat(result.details()).containsExactly(
                java.util.Map.entry("fact", 1), java.util.Map.entry("command", "ibstat"));
    }

    @Test
    void theNoteEndsEveryVerdict() {
        Judgement judgement = Judgement.of(List.of(), PASSED, new Details()).withNote(" (log: 2 errors)");

        assertThat(Findings.combine(CheckType.RDMA_DEVICES, Findings.Mention.SENTENCES, judgement).message())
                .isEqualTo("all good (log: 2 errors)");
    }
}
