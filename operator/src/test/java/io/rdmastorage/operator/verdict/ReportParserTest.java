package io.rdmastorage.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.verdict.ReportParser.Parsed;
import io.rdmastorage.operator.verdict.ReportParser.Unparseable;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ReportParserTest {

    @TempDir
    Path dir;

    private static final String VALID = """
            {"apiVersion":"rdmastorage.io/v1alpha1","kind":"NodeProbeReport","node":"gpu-07","probeVersion":"0.1.0",\
            "startedAt":"2024-05-01T10:00:00Z","durationMillis":312,"status":"False","checks":[\
            {"type":"GpfsVerbs","status":"False","reason":"TcpFallback","message":"2 peers over TCP","details":{"tcpPeers":["gpu-02"]}}]}""";

    @Test
    void aRealHealthyReportParsesWithEveryCheck() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-01");

        ProbeReport report = parsed(t.message());
        assertThat(t.exitCode()).isZero();
        assertThat(report.node()).isEqualTo("gpu-01");
        assertThat(report.status()).isEqualTo("True");
        assertThat(report.durationMillis()).isNotNull();
        assertThat(report.probeVersion()).isNotBlank();
        assertThat(report.checks()).extracting(ProbeReport.Check::type)
                .containsExactly("RdmaDevices", "GpfsVerbs", "NvmeofRdma", "GdsReady", "CephMessenger");
        assertThat(report.checks()).allSatisfy(c -> {
            assertThat(c.status()).isEqualTo("True");
            assertThat(c.reason()).isNotBlank();
            assertThat(c.message()).isNotBlank();
        });
    }

    @Test
    void aRealFailureReportKeepsReasonMessageAndDetails() {
        RealProbe.Termination t = RealProbe.scenario(dir, "gpu-07", "gpfs-tcp-fallback");

        ProbeReport report = parsed(t.message());
        assertThat(t.exitCode()).isEqualTo(1);
        ProbeReport.Check gpfs = report.check("GpfsVerbs").orElseThrow();
        assertThat(gpfs.status()).isEqualTo("False");
        assertThat(gpfs.reason()).isEqualTo("TcpFallback");
        assertThat(gpfs.message()).contains("gpu-02");
        assertThat(gpfs.details().isEmpty()).isFalse();
        assertThat(report.check("VerbsLatency")).isEmpty();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\n", " \t\n"})
    void noMessageIsReportMissing(String message) {
        Unparseable u = unparseable(message);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_MISSING);
        assertThat(u.message()).contains("without a report");
    }

    @Test
    void overLimitIsReportOversizedCountingBytesNotCharacters() {
        String wide = "{\"x\":\"" + "é".repeat(2100) + "\"}"; // 2,108 characters, 4,208 bytes
        Unparseable u = unparseable(wide);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_OVERSIZED);
        assertThat(u.message()).contains("4208 bytes", "4096-byte limit").contains("\"{\\\"x\\\":\\\"éé");
    }

    @Test
    void aMessageCutAtTheKubeletLimitIsReportOversized() {
        String tail = "e\"}]}" + "x".repeat(4096 - 5); // the last 4096 bytes of a longer report
        Unparseable u = unparseable(tail);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_OVERSIZED);
        assertThat(u.message()).contains("exactly 4096 bytes", "cut by the kubelet");
    }

    @Test
    void aValidReportOfExactly4096BytesParses() {
        String padded = VALID.replace("\"probeVersion\":\"0.1.0\"",
                "\"probeVersion\":\"0.1.0" + " ".repeat(4096 - VALID.length()) + "\"");
        assertThat(padded.length()).isEqualTo(4096);
        assertThat(ReportParser.parse(padded)).isInstanceOf(Parsed.class);
    }

    @Test
    void notJsonIsUnparseableAndQuotesTheFirst80CharactersEscaped() {
        String head = "panic: \u001b[31mruntime error\u001b[0m \u202Eevil\n";
        String garbage = head + "y".repeat(200);
        Unparseable u = unparseable(garbage);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_UNPARSEABLE);
        assertThat(u.message())
                .startsWith("the termination message is not JSON (")
                .contains("line 1, column")
                .contains("\"panic: \\u001b[31mruntime error\\u001b[0m \\u202eevil\\n" + "y".repeat(80 - head.length()) + "\"")
                .endsWith("(first 80 of " + garbage.length() + " characters)")
                .doesNotContain("\u001b", "\u202E", "\n");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "[1,2,3]                                                                   | is not a JSON object",
            "null                                                                      | is not a JSON object",
            "\"a string\"                                                              | is not a JSON object",
            "{\"apiVersion\":\"v1\",\"kind\":\"NodeProbeReport\"}                      | is apiVersion \"v1\", kind \"NodeProbeReport\", not rdmastorage.io/v1alpha1 NodeProbeReport",
            "{\"apiVersion\":\"rdmastorage.io/v1alpha1\",\"kind\":\"Pod\"}             | kind \"Pod\"",
            "{\"apiVersion\":\"rdmastorage.io/v1alpha1\"}                              | kind (none)",
            "{\"kind\":\"NodeProbeReport\"}                                            | is apiVersion (none)"})
    void wrongShapesAreUnparseable(String message, String expected) {
        Unparseable u = unparseable(message);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_UNPARSEABLE);
        assertThat(u.message()).contains(expected).contains("it starts with \"");
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
            "\"node\":\"gpu-07\",                 | ''                             | has no node",
            "\"node\":\"gpu-07\",                 | '\"node\":7,'                  | has node that is not a string",
            "\"status\":\"False\",                | '\"status\":\"Maybe\",'        | has status \"Maybe\", not True, False or Unknown",
            "\"status\":\"False\",                | ''                             | has no status",
            "\"durationMillis\":312,              | '\"durationMillis\":-1,'       | durationMillis that is not a whole number",
            "\"durationMillis\":312,              | '\"durationMillis\":\"312\",'  | durationMillis that is not a whole number",
            "\"status\":\"False\",\"reason\"      | '\"status\":\"Sure\",\"reason\"' | has checks[0].status \"Sure\", not True, False or Unknown",
            "\"reason\":\"TcpFallback\",          | ''                             | has no checks[0].reason",
            "\"reason\":\"TcpFallback\",          | '\"reason\":\"Tcp Fallback!\",' | checks[0].reason \"Tcp Fallback!\", not a CamelCase reason",
            "\"message\":\"2 peers over TCP\",    | '\"message\":\"\",'            | has an empty checks[0].message",
            "\"type\":\"GpfsVerbs\",              | ''                             | has no checks[0].type",
            "\"type\":\"GpfsVerbs\",              | '\"type\":\"gpfs verbs\",'     | not a CamelCase condition type",
            "{\"tcpPeers\":[\"gpu-02\"]}          | '[\"gpu-02\"]'                 | checks[0].details that is not an object"})
    void missingOrWrongFieldsAreUnparseable(String replace, String with, String expected) {
        String message = VALID.replace(replace.strip(), with);
        assertThat(message).isNotEqualTo(VALID);
        Unparseable u = unparseable(message);
        assertThat(u.reason()).isEqualTo(Reasons.REPORT_UNPARSEABLE);
        assertThat(u.message()).contains(expected);
    }

    @Test
    void checksMustBeAList() {
        assertThat(unparseable(VALID.replaceAll("\"checks\":\\[.*]}$", "\"checks\":{}}")).message())
                .contains("has checks that are not a list");
        assertThat(unparseable(VALID.replaceAll(",\"checks\":\\[.*]}$", "}")).message()).contains("has no checks");
    }

    @Test
    void aCheckReportedTwiceIsUnparseable() {
        String twice = VALID.replace("}]}", "},{\"type\":\"GpfsVerbs\",\"status\":\"True\",\"reason\":\"Ok\",\"message\":\"m\"}]}");
        assertThat(unparseable(twice).message()).contains("reports GpfsVerbs twice");
    }

    @Test
    void duplicateKeysAndTrailingDocumentsAreUnparseable() {
        assertThat(unparseable(VALID.replace("\"node\":\"gpu-07\"", "\"node\":\"gpu-07\",\"node\":\"gpu-08\"")).message())
                .contains("not JSON").contains("Duplicate field 'node'");
        assertThat(unparseable(VALID + "{}").message()).contains("not JSON").contains("Trailing token");
    }

    @Test
    void optionalFieldsMayBeAbsentAndUnknownOnesAreIgnored() {
        String minimal = "{\"apiVersion\":\"rdmastorage.io/v1alpha1\",\"kind\":\"NodeProbeReport\",\"node\":\"n\","
                + "\"status\":\"Unknown\",\"checks\":[],\"future\":{\"a\":1}}";
        ProbeReport r = parsed(minimal);
        assertThat(r.checks()).isEmpty();
        assertThat(r.probeVersion()).isNull();
        assertThat(r.durationMillis()).isNull();
        assertThat(parsed(VALID.replace(",\"details\":{\"tcpPeers\":[\"gpu-02\"]}", "")).checks().get(0).details().isEmpty())
                .isTrue();
    }

    @Test
    void controlCharactersInReportMessagesAreEscaped() {
        ProbeReport r = parsed(VALID.replace("2 peers over TCP", "bad \\u001b[2J tool \\u200b output\\nnext line"));
        assertThat(r.checks().get(0).message()).isEqualTo("bad \\u001b[2J tool \\u200b output\nnext line");
    }

    private static ProbeReport parsed(String message) {
        ReportParser.Result result = ReportParser.parse(message);
        assertThat(result).as(String.valueOf(result)).isInstanceOf(Parsed.class);
        return ((Parsed) result).report();
    }

    private static Unparseable unparseable(String message) {
        ReportParser.Result result = ReportParser.parse(message);
        assertThat(result).as(String.valueOf(result)).isInstanceOf(Unparseable.class);
        return (Unparseable) result;
    }
}
