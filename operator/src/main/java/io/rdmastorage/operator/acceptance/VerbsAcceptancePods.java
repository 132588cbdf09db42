package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.latency.LatencyPods;
import io.rdmastorage.operator.latency.Peer;
import io.rdmastorage.operator.probe.ProbePodFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two pods of an acceptance run's verbs target, both owned by the run and marked with it:
 * {@code node-probe acceptance-server} on the peer node and {@code node-probe acceptance-client
 * --peer <address>} on the run's node, created together. As the latency check's pair, they use the
 * host network (perftest and TCP between the nodes' own addresses) and otherwise have the probe
 * pods' posture ({@link ProbePodFactory#pod}: privileged, no API token, host root read-only).
 *
 * <p>Ports: the four runs use {@link #BASE_TCP_PORT} to {@code BASE_TCP_PORT + 3}, just above the
 * latency check's pairs, so a profile's latency measurement on the same nodes never collides; one
 * acceptance run per node at a time (the peer counted) means one set of ports is enough. The client
 * tries a refused connection again for {@link #CONNECT_WINDOW}: the server pod may start later.
 */
public final class VerbsAcceptancePods {

    public static final String SERVER_SUFFIX = "acceptance-server";
    /** Above the latency check's ports (18515 + 2 per pair served at once). */
    public static final int BASE_TCP_PORT = LatencyPods.BASE_TCP_PORT + 2 * LatencyPods.MAX_SERVED_AT_ONCE;
    static final Duration CONNECT_WINDOW = AcceptanceSpecDocument.START_OVERHEAD;
    /** perftest busy-polls one core and fio drives the TCP stream with another. */
    static final Quantity CPU_LIMIT = new Quantity("2");

    private VerbsAcceptancePods() {
    }

    /** {@code <run>-<peer>-<hash>-acceptance-server}, cut to a DNS label. */
    public static String serverName(RdmaStorageAcceptance run) {
        return ProbePodFactory.podName(run.getMetadata().getName(), run.getSpec().getVerbs().getPeerNode(), SERVER_SUFFIX);
    }

    /** The server side on the peer: waits for all four runs at once, each for at most the run's deadline. */
    public static Pod server(RdmaStorageAcceptance run, AcceptanceSpecDocument document, OperatorConfig config) {
        List<String> args = new ArrayList<>(ProbePodFactory.arguments(List.of("acceptance-server"), document.deadline()));
        args.addAll(List.of("--tcp-port", Integer.toString(BASE_TCP_PORT)));
        String peer = run.getSpec().getVerbs().getPeerNode();
        Map<String, String> labels = AcceptancePods.labels(run);
        labels.put(Labels.NODE, Labels.nodeValue(peer));
        return pod(run, document, peer, serverName(run), labels, args, config);
    }

    /** The client side on the run's node, connecting to {@code peer}'s address; its pod name is the run's pod. */
    public static Pod client(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Peer peer, OperatorConfig config) {
        List<String> args = new ArrayList<>(ProbePodFactory.arguments(
                List.of("acceptance-client", "--peer", peer.address()), AcceptancePods.TOOL_TIMEOUT));
        args.addAll(List.of("--tcp-port", Integer.toString(BASE_TCP_PORT),
                "--connect-timeout", ProbePodFactory.cliDuration(CONNECT_WINDOW)));
        return pod(run, document, run.getSpec().getNodeName(), AcceptancePods.podName(run), AcceptancePods.labels(run),
                args, config);
    }

    private static Pod pod(RdmaStorageAcceptance run, AcceptanceSpecDocument document, String node, String name,
                           Map<String, String> labels, List<String> args, OperatorConfig config) {
        ProbePodFactory.Owner owner = new ProbePodFactory.Owner(AcceptancePods.ownerReference(run), AcceptancePods.COMPONENT,
                Map.of(), ProbePodFactory.tolerations(run.getSpec().getTolerations()),
                AcceptancePods.specName(run.getMetadata().getName()));
        ProbePodFactory.Budget budget = new ProbePodFactory.Budget(document.deadline(), AcceptancePods.TERMINATION_GRACE_SECONDS,
                AcceptancePods.CPU_REQUEST, CPU_LIMIT, AcceptancePods.MEMORY_REQUEST, AcceptancePods.MEMORY_LIMIT);
        labels.remove(Labels.COMPONENT);   // the pod shape sets it from the owner
        return ProbePodFactory.pod(owner, node, name, labels, args, true, budget, config);
    }
}
