package io.rdmastorage.operator.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.LatencyResult;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbePod;
import io.rdmastorage.operator.verdict.ReportTrust;
import io.rdmastorage.operator.verdict.VerdictPart;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's VerbsLatency verdict from the attempts of one latency round, and what each side's pod
 * came to. Pure. The rules:
 * <ul>
 * <li>the last attempt measured (or perftest failed in a way that is not about reaching the peer):
 * its verdict, with the peer it could not reach first named in the message;</li>
 * <li>two peers could not be reached: False {@code PeerUnreachable}, this node is the likely cause;</li>
 * <li>one peer could not be reached and there was no other to try: Unknown {@code PeerUnreachable},
 * saying that it cannot tell which side failed;</li>
 * <li>this node's own client pod failed: Unknown with the pod's failure.</li>
 * </ul>
 */
public final class LatencyVerdicts {

    private LatencyVerdicts() {
    }

    /**
     * {@code stored} with the VerbsLatency condition and {@code status.latency} of a pairwise
     * measurement ({@link VerdictPart#PAIR_PROBE}), and {@code Ready} worked out again; the node's
     * own probe results stay as they are. Pass the result through {@link NodeVerdicts#merge}.
     *
     * @param stored the stored status; may be null
     */
    public static RdmaStorageNodeStatus withLatency(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus stored,
                                                    Condition verbsLatency, LatencyResult latency, long generation,
                                                    Instant at) {
        RdmaStorageNodeStatus next = NodeVerdicts.withPart(spec, stored, VerdictPart.PAIR_PROBE,
                Map.of(verbsLatency.getType(), verbsLatency), generation, at);
        next.setLatency(latency);
        return next;
    }

    /**
     * The verbs latency measurements that count, by node: those behind a True or False VerbsLatency
     * condition (an Unknown one, e.g. ResultExpired, keeps its old numbers in the status, but they
     * no longer say how the node is).
     */
    public static Map<String, LatencyResult> counting(Map<String, RdmaStorageNodeStatus> byNode) {
        Map<String, LatencyResult> latency = new TreeMap<>();
        byNode.forEach((node, status) -> {
            if (status == null || status.getLatency() == null || status.getConditions() == null) {
                return;
            }
            boolean counts = status.getConditions().stream().anyMatch(c -> CheckType.VERBS_LATENCY.conditionType().equals(c.getType())
                    && (Conditions.TRUE.equals(c.getStatus()) || Conditions.FALSE.equals(c.getStatus())));
            if (counts) {
                latency.put(node, status.getLatency());
            }
        });
        return latency;
    }

    /** What a latency round decided for its node: VerbsLatency and the numbers behind it ({@code status.latency}). */
    public record Decision(Condition condition, LatencyResult result) {
    }

    /** The client pod's result. */
    public static LatencyAttempt fromClient(LatencyPod client, ProbeOutcome outcome, Duration probeTimeout) {
        ProbePod pod = probePod(client);
        Peer peer = client.peer();
        if (outcome instanceof ProbeOutcome.Finished finished) {
            ReportTrust trust = ReportTrust.of(pod, finished.exitCode(), null, finished.terminationMessage());
            if (trust instanceof ReportTrust.Untrusted untrusted) {
                return new LatencyAttempt.ClientFailed(peer, untrusted.failure());
            }
            return ((ReportTrust.Trusted) trust).report().check(CheckType.VERBS_LATENCY.conditionType())
                    .<LatencyAttempt>map(check -> new LatencyAttempt.Reported(peer, check))
                    .orElseGet(() -> new LatencyAttempt.ClientFailed(peer, new ProbeFailure(Reasons.NOT_REPORTED,
                            "latency-client pod " + pod.name() + " reported no VerbsLatency entry: the probe image may "
                                    + "be older than the operator. See " + pod.logsCommand())));
        }
        return new LatencyAttempt.ClientFailed(peer, ProbeFailure.of(pod, outcome, probeTimeout));
    }

    /** The server pod ended (or never started) before its client was started. */
    public static LatencyAttempt fromServer(LatencyPod server, ProbeOutcome outcome, Duration probeTimeout) {
        ProbePod pod = probePod(server);
        String what = outcome instanceof ProbeOutcome.Finished f
                ? "ended (exit code " + f.exitCode() + ") before its client could be started"
                : ProbeFailure.of(pod, outcome, probeTimeout).message();
        return new LatencyAttempt.PeerFailed(server.peer(), "the latency-server pod " + pod.name() + " on "
                + server.peer().node() + " " + what);
    }

    /** The server's node left the cluster mid-round. */
    public static LatencyAttempt serverNodeGone(LatencyPod server) {
        return new LatencyAttempt.PeerFailed(server.peer(), "node " + server.peer().node()
                + " left the cluster while it was to serve the measurement");
    }

    /** The verdict of a round whose attempts are done (one or two, in order). */
    public static Decision decide(List<LatencyAttempt> attempts, long round, long generation, Instant now) {
        LatencyAttempt last = attempts.get(attempts.size() - 1);
        List<LatencyAttempt> earlier = attempts.subList(0, attempts.size() - 1);
        LatencyResult result = result(last.peer(), round, generation, now);
        for (LatencyAttempt a : earlier) {
            result.getUnreachablePeers().add(a.peer().node());
        }
        String firstTried = earlier.isEmpty() ? "" : " (first tried " + describe(earlier) + "; measured against "
                + last.peer() + " instead)";
        if (last instanceof LatencyAttempt.ClientFailed failed) {
            return new Decision(condition(Conditions.UNKNOWN, failed.failure().reason(), "the latency-client pod on this "
                    + "node, against " + last.peer() + ", gave no result: " + failed.failure().message() + firstTried,
                    generation, now), result);
        }
        if (!last.peerSideInDoubt()) {
            var check = ((LatencyAttempt.Reported) last).check();
            numbers(check.details(), result);
            return new Decision(condition(check.status(), check.reason(), check.message() + firstTried, generation, now),
                    result);
        }
        result.getUnreachablePeers().add(last.peer().node());
        if (attempts.size() >= 2) {
            return new Decision(condition(Conditions.FALSE, Reasons.PEER_UNREACHABLE, "this node reached neither "
                    + describe(attempts) + ". Two peers failing points at this node's side: check its RDMA port "
                    + "(`ibstat`), its route to them, and that TCP ports " + LatencyPods.BASE_TCP_PORT + "-"
                    + (LatencyPods.BASE_TCP_PORT + 2 * LatencyPods.MAX_SERVED_AT_ONCE - 1) + " are open between the nodes",
                    generation, now), result);
        }
        return new Decision(condition(Conditions.UNKNOWN, Reasons.PEER_UNREACHABLE, "this node could not reach "
                + describe(attempts) + ". There is no other peer to try, so it cannot tell whether this node or "
                + last.peer().node() + " is at fault", generation, now), result);
    }

    /** The only measurable node: no peer to measure against. */
    public static Decision noPeer(String node, long round, long generation, Instant now) {
        LatencyResult result = new LatencyResult();
        result.setMeasuredAt(Timestamps.format(now));
        result.setRound(round);
        result.setObservedGeneration(generation);
        return new Decision(condition(Conditions.UNKNOWN, Reasons.NO_PEER, "node " + node + " has no peer to measure "
                + "verbs latency against: it is the only node that can take part (a second matching, Ready node with "
                + "an address, or a reference node, is needed)", generation, now), result);
    }

    /**
     * The stored VerbsLatency as Unknown {@link Reasons#RESULT_EXPIRED}: its measurement is older
     * than {@code expiry}. The numbers stay in {@code status.latency}, dated by {@code measuredAt}.
     */
    public static Condition expired(Condition stored, LatencyResult measured, Duration expiry, Instant now) {
        return Conditions.expired(stored, "the last verbs latency measurement is from "
                + SafeText.escape(measured.getMeasuredAt()) + ", older than " + Timestamps.human(expiry)
                + " (3 × spec.interval), so it no longer counts. Check the operator's logs and its latency pods "
                + "(`kubectl get pods -A -l " + LatencyPods.ROLE + "`)", now);
    }

    private static String describe(List<LatencyAttempt> attempts) {
        List<String> parts = new ArrayList<>(attempts.size());
        for (LatencyAttempt a : attempts) {
            parts.add(a.peer() + ": " + a.why());
        }
        return String.join(" nor ", parts);
    }

    private static LatencyResult result(Peer peer, long round, long generation, Instant now) {
        LatencyResult result = new LatencyResult();
        result.setPeer(peer.node());
        result.setPeerAddress(peer.address());
        result.setMeasuredAt(Timestamps.format(now));
        result.setRound(round);
        result.setObservedGeneration(generation);
        return result;
    }

    /** The numbers node-probe reports (its detail names) into status.latency. */
    private static void numbers(ObjectNode details, LatencyResult result) {
        result.setTypicalMicros(number(details, "tTypicalMicros"));
        result.setP99Micros(number(details, "p99Micros"));
        result.setTcpTypicalMicros(number(details, "tcpTypicalMicros"));
        result.setRdmaSpeedup(number(details, "rdmaSpeedup"));
    }

    private static Double number(ObjectNode details, String field) {
        JsonNode value = details.get(field);
        return value != null && value.isNumber() ? value.doubleValue() : null;
    }

    private static Condition condition(String status, String reason, String message, long generation, Instant now) {
        return Conditions.of(CheckType.VERBS_LATENCY.conditionType(), status, reason, message, generation, now);
    }

    private static ProbePod probePod(LatencyPod p) {
        return new ProbePod(p.pod().getMetadata().getNamespace(), p.pod().getMetadata().getName(), p.runsOn());
    }

}
