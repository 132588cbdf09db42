package io.rdmastorage.probe.report;

import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.check.CheckResult;
import java.util.List;

/**
 * The probe's output, versioned by {@code apiVersion}/{@code kind} so the operator can refuse a
 * report it does not understand. Field names are part of the contract with the operator
 * ({@link ReportSchema}).
 *
 * @param status  the worst check status: True only when every check is True (and there is one)
 */
public record Report(String apiVersion, String kind, String node, String probeVersion, String startedAt,
                     long durationMillis, Status status, List<CheckResult> checks) {

    public static Report of(String node, String probeVersion, String startedAt, long durationMillis,
                            List<CheckResult> checks) {
        Status worst = checks.isEmpty() ? Status.UNKNOWN : Status.TRUE;
        for (CheckResult c : checks) {
            worst = worst.worse(c.status());
        }
        return new Report(ReportSchema.API_VERSION, ReportSchema.KIND, node, probeVersion, startedAt, durationMillis, worst, List.copyOf(checks));
    }
}
