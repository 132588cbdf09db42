package io.rdmastorage.benchmark;

import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.PodCgroup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The figures of {@link RoundCostBenchmark}: its audit log cut into the quiet minute and one
 * window per probe round (from one operator pod create to the next), each write put to its actor,
 * and the extrapolation to a fleet at the default interval. Standing writes (leases, the kubelet's
 * node status, the API server's own) are what a cluster writes whether or not it is probed: they
 * are reported from the quiet minute and left out of a round's count.
 */
final class RoundCosts {

    static final List<String> ACTORS = List.of("operator", "kubelet", "kube-scheduler", "kube-controller-manager", "other");
    /** The interval a fleet runs at (the profile's default), for the extrapolation. */
    static final Duration FLEET_INTERVAL = Duration.ofMinutes(15);
    /** Node Problem Detector's condition heartbeat: one Node status patch per node every 5 minutes. */
    static final Duration NPD_HEARTBEAT = Duration.ofMinutes(5);
    /** A round's first pod create may follow writes of the round a moment before it. */
    private static final Duration LEAD = Duration.ofSeconds(1);

    private final String operatorUser;
    private final List<AuditLog.Request> writes;
    private final Instant quietFrom;
    private final Instant quietTo;
    private final Instant roundsFrom;
    private final Instant roundsTo;
    private final NavigableMap<Instant, Double> wal;
    private final List<ProbePod> pods;

    RoundCosts(String operatorUser, List<AuditLog.Request> requests, Instant quietFrom, Instant quietTo, Instant roundsFrom,
               Instant roundsTo, NavigableMap<Instant, Double> wal, List<ProbePod> pods) {
        this.operatorUser = operatorUser;
        this.writes = requests.stream().filter(AuditLog.Request::write).toList();
        this.quietFrom = quietFrom;
        this.quietTo = quietTo;
        this.roundsFrom = roundsFrom;
        this.roundsTo = roundsTo;
        this.wal = new TreeMap<>(wal);
        this.pods = pods;
    }

    /** A probe pod as the API server and its cgroup told: when it was made and deleted, its CPU time and memory high-water mark. */
    record ProbePod(String name, Instant created, Instant deleted, long cpuNanos, long peakBytes, boolean cgroupSeen,
                    boolean cgroupGone) {
        static ProbePod created(String name, Instant created) {
            return new ProbePod(name, created, null, 0, 0, false, false);
        }

        ProbePod deletedAt(Instant when) {
            return new ProbePod(name, created, when, cpuNanos, peakBytes, cgroupSeen, cgroupGone);
        }

        ProbePod sampled(PodCgroup.Usage usage) {
            return new ProbePod(name, created, deleted, Math.max(cpuNanos, usage.cpuNanos()),
                    Math.max(peakBytes, usage.peakMemoryBytes()), true, false);
        }

        /** No cgroup now: not made yet, or removed after the pod ended (then no more samples are taken). */
        ProbePod cgroupAbsent() {
            return cgroupSeen ? new ProbePod(name, created, deleted, cpuNanos, peakBytes, true, true) : this;
        }
    }

    /** One round's writes and what its probe pod cost. */
    record Round(int number, Instant from, Instant to, List<AuditLog.Request> writes, double walBytes, ProbePod pod,
                 Duration toVerdict) {
        long count(Predicate<AuditLog.Request> which) {
            return writes.stream().filter(which).count();
        }
    }

    String actor(AuditLog.Request r) {
        if (r.user().equals(operatorUser)) {
            return "operator";
        }
        if (r.user().startsWith("system:node:")) {
            return "kubelet";
        }
        if (r.userAgent().startsWith("kube-scheduler")) {
            return "kube-scheduler";
        }
        if (r.userAgent().startsWith("kube-controller-manager")) {
            return "kube-controller-manager";
        }
        return "other";
    }

    /** Written whether or not anything is probed: leases, the kubelet's node status, the API server's own writes. */
    boolean standing(AuditLog.Request r) {
        return r.resource().equals("leases") || (actor(r).equals("kubelet") && r.resource().equals("nodes/status"))
                || r.user().equals("system:apiserver");
    }

    /** A write the API server carried out (a refused one, 404 or 409, changed nothing in etcd). */
    static boolean stored(AuditLog.Request r) {
        return r.code() < 400;
    }

    static boolean event(AuditLog.Request r) {
        return r.resource().equals("events");
    }

    /** Written once per profile and round, whatever the number of nodes. */
    static boolean perProfile(AuditLog.Request r) {
        return r.resource().startsWith("rdmastorageprofiles");
    }

    List<Round> rounds() {
        List<Instant> starts = writes.stream().filter(w -> w.user().equals(operatorUser) && w.verb().equals("create")
                && w.resource().equals("pods") && !w.received().isBefore(roundsFrom)).map(AuditLog.Request::received).sorted().toList();
        double standingWal = standingWalPerSecond();
        List<Round> rounds = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            Instant from = i == 0 ? roundsFrom : starts.get(i).minus(LEAD);
            Instant to = i + 1 < starts.size() ? starts.get(i + 1).minus(LEAD) : roundsTo;
            Instant created = starts.get(i);
            List<AuditLog.Request> in = writes.stream().filter(w -> !w.received().isBefore(from) && w.received().isBefore(to)).toList();
            ProbePod pod = pods.stream().filter(p -> !p.created().isBefore(created.minusSeconds(1)) && p.created().isBefore(to))
                    .findFirst().orElse(null);
            Duration toVerdict = in.stream().filter(w -> w.user().equals(operatorUser) && w.resource().equals("rdmastoragenodes/status")
                    && !w.received().isBefore(created)).map(w -> Duration.between(created, w.received())).findFirst().orElse(null);
            rounds.add(new Round(i + 1, from, to, in.stream().filter(w -> !standing(w)).toList(), walBetween(from, to)
                    - standingWal * Duration.between(from, to).toMillis() / 1000.0, pod, toVerdict));
        }
        return rounds;
    }

    private double walBetween(Instant from, Instant to) {
        Map.Entry<Instant, Double> a = wal.floorEntry(from);
        Map.Entry<Instant, Double> b = wal.floorEntry(to);
        return a == null || b == null ? Double.NaN : b.getValue() - a.getValue();
    }

    double standingWalPerSecond() {
        return walBetween(quietFrom, quietTo) / (Duration.between(quietFrom, quietTo).toMillis() / 1000.0);
    }

    /** The quiet minute's writes, by actor and "verb resource", per minute. */
    Map<String, Double> standingPerMinute() {
        double minutes = Duration.between(quietFrom, quietTo).toMillis() / 60_000.0;
        Map<String, Double> counts = new TreeMap<>();
        writes.stream().filter(w -> !w.received().isBefore(quietFrom) && w.received().isBefore(quietTo))
                .forEach(w -> counts.merge(actor(w) + ": " + w.key(), 1 / minutes, Double::sum));
        return counts;
    }

    /** The report: per-round table, what a routine round writes, the standing costs, and the fleet's figures. */
    String report(int expectedRounds) {
        List<Round> rounds = rounds();
        if (rounds.size() < expectedRounds) {
            throw new IllegalStateException("found " + rounds.size() + " rounds in the audit log, expected " + expectedRounds);
        }
        StringBuilder out = new StringBuilder();
        out.append("Writes the API server carried out (refused ones apart), standing writes left out:\n\n");
        out.append("| round | operator | kubelet | scheduler | controller-manager | other | of them Events | per node | per profile "
                + "| refused (409) | etcd WAL KiB | pod created → verdict | probe CPU-s | probe peak MiB |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Round r : rounds) {
            out.append("| ").append(r.number() == 1 ? "1 (profile applied)" : r.number() + " (routine)");
            for (String actor : ACTORS) {
                out.append(" | ").append(r.count(w -> stored(w) && actor(w).equals(actor)));
            }
            out.append(" | ").append(r.count(w -> stored(w) && event(w)));
            out.append(" | ").append(r.count(w -> stored(w) && !perProfile(w)));
            out.append(" | ").append(r.count(w -> stored(w) && perProfile(w)));
            out.append(" | ").append(r.count(w -> w.code() >= 400)).append(" (").append(r.count(w -> w.code() == 409)).append(")");
            out.append(" | ").append("%.1f".formatted(r.walBytes() / 1024));
            out.append(" | ").append(seconds(r.toVerdict()));
            out.append(" | ").append(r.pod() == null ? "—" : "%.2f".formatted(r.pod().cpuNanos() / 1e9));
            out.append(" | ").append(r.pod() == null ? "—" : "%.0f".formatted(r.pod().peakBytes() / 1048576.0));
            out.append(" |\n");
        }
        List<Round> routine = rounds.subList(1, rounds.size());
        out.append("\nWhat a routine round writes (rounds 2–").append(rounds.size()).append(", per round):\n\n");
        Map<String, Double> routineKinds = new TreeMap<>();
        routine.forEach(r -> r.writes().forEach(w -> routineKinds.merge(actor(w) + ": " + w.key()
                + (w.code() >= 400 ? " (" + w.code() + ")" : ""), 1.0 / routine.size(), Double::sum)));
        routineKinds.forEach((k, v) -> out.append("- ").append(k).append(": ").append("%.2f".formatted(v)).append('\n'));
        out.append("\nStanding writes, per minute, with no profile (the quiet minute):\n\n");
        standingPerMinute().forEach((k, v) -> out.append("- ").append(k).append(": ").append("%.1f".formatted(v)).append('\n'));
        out.append("- etcd's write-ahead log: %.1f KiB per minute\n".formatted(standingWalPerSecond() * 60 / 1024));
        out.append(fleet(routine));
        return out.toString();
    }

    /** A routine round's figures at 1,000 and 10,000 nodes probed every 15 minutes, beside Node Problem Detector's heartbeat. */
    private String fleet(List<Round> routine) {
        double perNode = routine.stream().mapToLong(r -> r.count(w -> stored(w) && !perProfile(w))).average().orElse(Double.NaN);
        double events = routine.stream().mapToLong(r -> r.count(w -> stored(w) && event(w))).average().orElse(Double.NaN);
        double walPerNode = routine.stream().mapToDouble(Round::walBytes).average().orElse(Double.NaN);
        double cpu = routine.stream().filter(r -> r.pod() != null).mapToDouble(r -> r.pod().cpuNanos() / 1e9).average().orElse(Double.NaN);
        double peak = routine.stream().filter(r -> r.pod() != null).mapToDouble(r -> r.pod().peakBytes() / 1048576.0).max().orElse(Double.NaN);
        double interval = FLEET_INTERVAL.toSeconds();
        StringBuilder out = new StringBuilder("\nAt the default interval (15m), from the routine rounds' mean: ")
                .append("%.2f writes per node and round carried out (%.2f of them Events), %.1f KiB of etcd log, probe %.2f CPU-s, peak %.0f MiB\n\n"
                        .formatted(perNode, events, walPerNode / 1024, cpu, peak));
        out.append("| nodes | probe pods per second | writes per second (all actors) | etcd log KiB per second "
                + "| probe CPU, mean over the interval | Node Problem Detector's heartbeats per second |\n|---|---|---|---|---|---|\n");
        for (int nodes : List.of(1_000, 10_000)) {
            out.append("| %,d | %.2f | %.1f | %.1f | %.2f millicores per node | %.1f |\n".formatted(nodes, nodes / interval,
                    perNode * nodes / interval, walPerNode * nodes / interval / 1024, cpu / interval * 1000,
                    nodes / (double) NPD_HEARTBEAT.toSeconds()));
        }
        return out.toString();
    }

    private static String seconds(Duration d) {
        return d == null ? "—" : "%.1f s".formatted(d.toMillis() / 1000.0);
    }
}
