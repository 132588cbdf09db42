package io.rdmastorage.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SafeTextTest {

    @Test
    void quotesEscapesAndCutsByCodePoint() {
        assertThat(SafeText.quote("", 80)).isEqualTo("(empty)");
        assertThat(SafeText.quote("a \"b\" \\ c", 80)).isEqualTo("\"a \\\"b\\\" \\\\ c\"");
        assertThat(SafeText.quote("😀".repeat(3), 2)).isEqualTo("\"😀😀\" (first 2 of 3 characters)");
        assertThat(SafeText.quote("µs → é", 80)).isEqualTo("\"µs → é\"");
        assertThat(SafeText.quote("\u0000\u0007\u009b\u200b\u202e\u2028", 80))
                .isEqualTo("\"\\u0000\\u0007\\u009b\\u200b\\u202e\\u2028\"");
    }

    @Test
    void cleanLeavesProseAloneAndEscapesWhatIsInvisible() {
        String prose = "GPFS \"verbs\" ok: 2 peers, 5 µs\nnext\tline";
        assertThat(SafeText.clean(prose)).isSameAs(prose);
        assertThat(SafeText.clean("a\u001b[2Jb\u200b")).isEqualTo("a\\u001b[2Jb\\u200b");
    }
}
