package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one combiner: worst first, the others mentioned, problems listed, True only without findings. */
class VerdictsTest {

    private static final Finding PASSED = Finding.passed("AllGood", "all good");
    private static final Finding UNKNOWN = Finding.of(Status.UNKNOWN, "CannotTell", "cannot tell", "unclear");
    private static final Finding DOWN = Finding.of(Status.FALSE, "Down", "port 2 is down", "port 2 down");
    private static final Finding MISSING = Finding.of(Status.FALSE, "Missing", "device 3 is missing", "device 3 missing");

    private static CheckResult combine(Verdicts.Mention mention, List<String> precedence, Finding... findings) {
        return Verdicts.combine(CheckType.RDMA_DEVICES, mention, precedence,
                Judgement.of(List.of(findings), PASSED, new Details().put("fact", 1)));
    }

    @Test
    void noFindingIsTheJudgementsTrue() {
        CheckResult result = combine(Verdicts.Mention.COUNTED, List.of());

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("AllGood");
        assertThat(result.details()).containsOnlyKeys("fact");
    }

    @Test
    void falseOutranksUnknownWhateverTheOrder() {
        CheckResult result = combine(Verdicts.Mention.COUNTED, List.of(), UNKNOWN, DOWN);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("Down");
        assertThat(result.message()).isEqualTo("port 2 is down; also 1 more: unclear");
        assertThat(result.details().get("problems")).isEqualTo(List.of("Down", "CannotTell"));
    }

    @Test
    void precedenceOrdersFindingsOfOneStatus() {
        CheckResult result = combine(Verdicts.Mention.COUNTED, List.of("Missing"), DOWN, UNKNOWN, MISSING);

        assertThat(result.reason()).isEqualTo("Missing");
        assertThat(result.message()).isEqualTo("device 3 is missing; also 2 more: port 2 down; unclear");
    }

    @Test
    void sentencesMentionEachProblemWithItsFix() {
        CheckResult result = combine(Verdicts.Mention.SENTENCES, List.of(), DOWN, MISSING);

        assertThat(result.message()).isEqualTo("port 2 is down. Also Missing: device 3 is missing.");
    }

    @Test
    void reasonsNameTheOthersOnly() {
        CheckResult result = combine(Verdicts.Mention.REASONS, List.of(), DOWN, UNKNOWN);

        assertThat(result.message()).isEqualTo("port 2 is down. Also: unclear");
    }

    @Test
    void aSingleFindingIsSaidAsIsWithItsOwnDetails() {
        CheckResult result = Verdicts.combine(CheckType.GPFS_VERBS, Verdicts.Mention.SENTENCES,
                Judgement.only(UNKNOWN.withDetail("command", "mmdiag --network"), new Details().put("fact", 1)));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.message()).isEqualTo("cannot tell");
        assertThat(result.details()).containsExactly(
                java.util.Map.entry("fact", 1), java.util.Map.entry("command", "mmdiag --network"));
    }

    @Test
    void theNoteEndsEveryVerdict() {
        Judgement judgement = Judgement.of(List.of(), PASSED, new Details()).withNote(" (log: 2 errors)");

        assertThat(Verdicts.combine(CheckType.GPFS_VERBS, Verdicts.Mention.SENTENCES, judgement).message())
                .isEqualTo("all good (log: 2 errors)");
    }
}
