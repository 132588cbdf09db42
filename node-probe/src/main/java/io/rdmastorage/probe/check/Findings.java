package io.rdmastorage.probe.check;

import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.CheckType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The one way a check's findings become its condition: the worst finding gives status, reason and
 * message, the others are mentioned after it ("also …") and, when they differ, listed by reason in
 * {@code details.problems}; no finding at all is the judgement's True.
 */
public final class Findings {

    /** How the findings after the first are mentioned in the message. */
    public enum Mention {
        /** {@code "; also 2 more: mlx5_1/1 DOWN/Polling; mlx5_0/2 missing"}: instances of one kind (ports, targets), three named. */
        COUNTED,
        /** {@code ". Also VerbsRdmaSendDisabled: <its whole message>."}: distinct problems, each with its own fix. */
        SENTENCES,
        /** {@code ". Also: FilesystemUnsupported, CompatModeAllowed"}: distinct problems whose messages are long, by reason. */
        REASONS
    }

    private static final int COUNTED_NAMED = 3;

    private Findings() {
    }

    /**
     * @param precedence reasons that go first among findings of the same status, in this order
     *                   (a missing device before a port that is down); the others keep the judge's order
     */
    public static CheckResult combine(CheckType type, Mention mention, List<String> precedence, Judgement judgement) {
        Details details = new Details().putAll(judgement.details());
        List<Finding> sorted = worstFirst(judgement.findings(), precedence);
        if (sorted.isEmpty()) {
            Finding passed = judgement.passed();
            if (passed == null) {
                throw new IllegalStateException(type + ": a judgement without findings needs what True says");
            }
            return build(type, passed.status(), passed.reason(), passed.message() + judgement.note(),
                    details.putAll(passed.details()));
        }
        Finding first = sorted.get(0);
        List<Finding> others = sorted.subList(1, sorted.size());
        List<String> reasons = sorted.stream().map(Finding::reason).distinct().toList();
        details.putAll(first.details());
        if (reasons.size() > 1) {
            details.list("problems", reasons);
        }
        List<Map<String, Object>> faulty = FaultyDevices.of(sorted);
        if (!faulty.isEmpty()) {
            details.put(ReportSchema.FAULTY_DEVICES, faulty);   // whole: the operator fences each of them
            if (sorted.stream().anyMatch(f -> f.status() == Status.FALSE && f.device() == null)) {
                details.put(ReportSchema.FAULTS_BEYOND_DEVICES, true);
            }
        }
        return build(type, first.status(), first.reason(), message(mention, first, others) + judgement.note(), details);
    }

    public static CheckResult combine(CheckType type, Mention mention, Judgement judgement) {
        return combine(type, mention, List.of(), judgement);
    }

    private static List<Finding> worstFirst(List<Finding> findings, List<String> precedence) {
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Comparator.comparingInt((Finding f) -> severity(f.status()))
                .thenComparingInt(f -> precedence.contains(f.reason()) ? precedence.indexOf(f.reason()) : precedence.size()));
        return sorted;   // List.sort is stable: the judge's order within a status and precedence
    }

    private static int severity(Status status) {
        return switch (status) {
            case FALSE -> 0;
            case UNKNOWN -> 1;
            case TRUE -> 2;
        };
    }

    private static String message(Mention mention, Finding first, List<Finding> others) {
        return switch (mention) {
            case COUNTED -> others.isEmpty() ? first.message() : first.message() + "; also " + others.size() + " more: "
                    + String.join("; ", others.stream().limit(COUNTED_NAMED).map(Finding::mention).toList());
            case SENTENCES -> {
                if (others.isEmpty()) {
                    yield first.message();
                }
                StringBuilder m = new StringBuilder(sentence(first.message()));
                others.forEach(o -> m.append(" Also ").append(o.reason()).append(": ").append(sentence(o.message())));
                yield m.toString();
            }
            case REASONS -> others.isEmpty() ? first.message() : first.message() + ". Also: "
                    + String.join(", ", others.stream().map(Finding::mention).toList());
        };
    }

    private static String sentence(String text) {
        return text.endsWith(".") ? text : text + ".";
    }

    private static CheckResult build(CheckType type, Status status, String reason, String message, Details details) {
        return new CheckResult(type, status, reason, message, details.asMap());
    }
}
