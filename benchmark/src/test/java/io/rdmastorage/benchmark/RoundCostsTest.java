package io.rdmastorage.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.PodCgroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** How {@link RoundCosts} cuts an audit log into rounds and puts each write to its actor. */
class RoundCostsTest {

    private static final String OPERATOR = "system:serviceaccount:rso:rso";
    private static final String KUBELET = "system:node:n1";
    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    private final List<AuditLog.Request> requests = new ArrayList<>();

    private void write(int second, String user, String agent, String verb, String resource, int code) {
        requests.add(new AuditLog.Request(T0.plusSeconds(second), verb, "", resource, "rso", code, user, agent, "x"));
    }

    /** One round from second {@code s}: what a real kubelet and the operator write for one probe pod. */
    private void round(int s) {
        write(s, OPERATOR, "operator", "create", "pods", 201);
        write(s, KUBELET, "kubelet/v1.34.4", "patch", "pods/status", 200);
        write(s + 1, KUBELET, "kubelet/v1.34.4", "create", "events", 201);
        write(s + 1, KUBELET, "kubelet/v1.34.4", "patch", "pods/status", 200);
        write(s + 2, OPERATOR, "operator", "patch", "rdmastoragenodes/status", 200);
        write(s + 2, OPERATOR, "operator", "delete", "pods", 200);
        write(s + 3, OPERATOR, "operator", "delete", "pods", 404);   // refused: not stored
        write(s + 3, OPERATOR, "operator", "get", "pods", 200);      // a read: not counted
    }

    private RoundCosts costs(NavigableMap<Instant, Double> wal) {
        List<RoundCosts.ProbePod> pods = List.of(
                RoundCosts.ProbePod.created("p1", T0.plusSeconds(100)).sampled(new PodCgroup.Usage(600_000_000L, 40L << 20)),
                RoundCosts.ProbePod.created("p2", T0.plusSeconds(160)).sampled(new PodCgroup.Usage(500_000_000L, 38L << 20)));
        return new RoundCosts(OPERATOR, requests, T0, T0.plusSeconds(60), T0.plusSeconds(90), T0.plusSeconds(230), wal, pods);
    }

    @Test
    void eachRoundCountsItsStoredWritesByActorAndLeavesTheStandingOnesOut() {
        // the quiet minute: leases and the node's status, written whether or not anything is probed
        write(10, OPERATOR, "operator", "patch", "leases", 200);
        write(20, KUBELET, "kubelet/v1.34.4", "patch", "nodes/status", 200);
        write(30, "system:apiserver", "kube-apiserver/v1.34.4", "update", "leases", 200);
        write(95, "admin", "kubectl/v1.34.4", "patch", "rdmastorageprofiles", 200);   // the profile applied: round 1
        round(100);
        write(130, OPERATOR, "operator", "patch", "leases", 200);                     // standing, in a round: left out
        round(160);
        write(162, "admin", "kube-controller-manager/v1.34.4 (linux/amd64) kubernetes/abc/generic-garbage-collector",
                "delete", "pods", 200);
        NavigableMap<Instant, Double> wal = new TreeMap<>();
        wal.put(T0, 0.0);
        wal.put(T0.plusSeconds(60), 6_000.0);      // the quiet minute: 100 bytes a second
        wal.put(T0.plusSeconds(159), 40_000.0);
        wal.put(T0.plusSeconds(230), 60_000.0);

        RoundCosts costs = costs(wal);
        List<RoundCosts.Round> rounds = costs.rounds();

        assertThat(rounds).hasSize(2);
        RoundCosts.Round first = rounds.get(0);
        assertThat(first.from()).isEqualTo(T0.plusSeconds(90));
        assertThat(first.count(w -> RoundCosts.stored(w) && w.user().equals(OPERATOR))).isEqualTo(3);
        assertThat(first.count(w -> RoundCosts.stored(w) && w.user().equals(KUBELET))).isEqualTo(3);
        assertThat(first.count(w -> !RoundCosts.stored(w))).isEqualTo(1);
        assertThat(first.count(RoundCosts::event)).isEqualTo(1);
        assertThat(first.count(RoundCosts::perProfile)).isEqualTo(1);
        assertThat(first.pod().name()).isEqualTo("p1");
        assertThat(first.toVerdict()).hasSeconds(2);
        RoundCosts.Round second = rounds.get(1);
        assertThat(second.from()).isEqualTo(T0.plusSeconds(159));
        assertThat(second.count(w -> costs.actor(w).equals("kube-controller-manager"))).isEqualTo(1);
        // etcd's log in the second round (159 s to 230 s) less the quiet minute's 100 bytes a second
        assertThat(second.walBytes()).isEqualTo(20_000.0 - 7_100.0);
        assertThat(second.pod().cpuNanos()).isEqualTo(500_000_000L);

        String report = costs.report(2);
        assertThat(report).contains("| 2 (routine) | 3 | 3 | 0 | 1 | 0 | 1 | 7 | 0 | 1 (0) |");
        assertThat(report).contains("- operator: patch leases: 1.0");
    }

    @Test
    void aReportWithFewerRoundsThanAskedForFails() {
        round(100);
        NavigableMap<Instant, Double> wal = new TreeMap<>();
        wal.put(T0, 0.0);

        assertThatThrownBy(() -> costs(wal).report(4)).hasMessageContaining("found 1 rounds");
    }
}
