package io.rdmastorage.probe.report;

import io.rdmastorage.probe.check.CheckResult;
import java.util.List;
import java.util.Map;

/** The report as a person reads it: one row per check, then each check's facts, then the inventory facts. */
public final class ReportText {

    private ReportText() {
    }

    public static String render(Report report) {
        StringBuilder out = new StringBuilder();
        out.append("node ").append(report.node()).append(": ").append(report.status().wire())
                .append("  (node-probe ").append(report.probeVersion()).append(", ")
                .append(report.durationMillis()).append(" ms, ").append(report.startedAt()).append(")\n\n");
        if (report.checks().isEmpty()) {
            return out.append("no checks applied: the spec is empty and the node has none of RDMA, GPFS, NVMe-oF, GDS or Ceph\n").toString();
        }
        int typeWidth = "CHECK".length();
        int reasonWidth = "REASON".length();
        for (CheckResult c : report.checks()) {
            typeWidth = Math.max(typeWidth, c.type().conditionType().length());
            reasonWidth = Math.max(reasonWidth, c.reason().length());
        }
        String row = "%-" + typeWidth + "s  %-7s  %-" + reasonWidth + "s  %s%n";
        out.append(String.format(row, "CHECK", "STATUS", "REASON", "MESSAGE"));
        for (CheckResult c : report.checks()) {
            out.append(String.format(row, c.type(), c.status().wire(), c.reason(), c.message()));
        }
        for (CheckResult c : report.checks()) {
            if (!c.details().isEmpty()) {
                out.append('\n').append(c.type()).append(":\n");
                c.details().forEach((k, v) -> out.append("  ").append(k).append(": ").append(show(v)).append('\n'));
            }
        }
        if (!report.inventory().isEmpty()) {
            out.append("\ninventory (compared across the profile's nodes):\n");
            report.inventory().forEach((fact, value) -> out.append("  ").append(fact.key()).append(": ").append(value).append('\n'));
        }
        return out.toString();
    }

    private static String show(Object value) {
        if (value instanceof List<?> list) {
            return list.isEmpty() ? "(none)" : String.join(", ", list.stream().map(ReportText::show).toList());
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder s = new StringBuilder("{");
            map.forEach((k, v) -> s.append(s.length() > 1 ? ", " : "").append(k).append('=').append(show(v)));
            return s.append('}').toString();
        }
        return String.valueOf(value);
    }
}
