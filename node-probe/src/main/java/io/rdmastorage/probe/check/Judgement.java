package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Status;
import java.util.List;
import java.util.Map;

/**
 * What a check's pure judge made of its facts: the problems found (in the check's own order of
 * importance), what the condition says when there are none, and the facts worth showing.
 * {@link Findings#combine} makes the condition of it.
 */
public record Judgement(List<Finding> findings, Finding passed, Map<String, Object> details, String note) {

    public Judgement {
        findings = List.copyOf(findings);
        note = note == null ? "" : note;
    }

    public static Judgement of(List<Finding> findings, Finding passed, Details details) {
        return new Judgement(findings, passed, details.asMap(), "");
    }

    /** With a sentence that ends whatever verdict is given ({@code " mmfs.log.latest has 2 VERBS RDMA errors …"}). */
    public Judgement withNote(String text) {
        return new Judgement(findings, passed, details, text);
    }

    /** A single finding decides: a tool that could not answer, a source that is absent. */
    public static Judgement only(Finding finding, Details details) {
        return finding.status() == Status.TRUE
                ? new Judgement(List.of(), finding, details.asMap(), "")
                : new Judgement(List.of(finding), null, details.asMap(), "");
    }
}
