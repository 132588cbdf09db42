package io.rdmastorage.operator.latency;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.checks.VerbsLatency;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.probe.ProbePodFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two pods of a latency pair: {@code node-probe latency-server} on the peer, then, once it runs,
 * {@code node-probe latency-client --peer <address>} on the node being measured. Both use the host
 * network (perftest and the TCP comparison need the nodes' own addresses) and otherwise have the
 * posture of every probe pod ({@link ProbePodFactory#pod}). Their marks say which measurement they belong
 * to; see {@link LatencyPod}.
 *
 * <p>Ports: a pair uses perftest's out-of-band port P and, for the TCP comparison, P + 1. A node may
 * serve several clients at once (reference nodes; a ring node that is also a retry peer), each on
 * its own pair of ports from {@link #BASE_TCP_PORT}: 18515–18530 must be open between the nodes.
 */
public final class LatencyPods {

    public static final String ROLE = "rdmastorage.io/latency-role";
    public static final String SERVER = "server";
    public static final String CLIENT = "client";
    public static final String ATTEMPT = "rdmastorage.io/latency-attempt";
    public static final String CLIENT_NODE_ANNOTATION = "rdmastorage.io/latency-client-node";
    public static final String PEER_NODE_ANNOTATION = "rdmastorage.io/latency-peer-node";
    public static final String PEER_ADDRESS_ANNOTATION = "rdmastorage.io/latency-peer-address";
    public static final String TCP_PORT_ANNOTATION = "rdmastorage.io/latency-tcp-port";

    /** perftest's default out-of-band port, as node-probe defaults to it. */
    public static final int BASE_TCP_PORT = VerbsLatency.DEFAULT_TCP_PORT;
    /** Pairs one node serves at once; a further client waits for a free pair of ports. */
    public static final int MAX_SERVED_AT_ONCE = 8;

    private LatencyPods() {
    }

    /** The server side of {@code client}'s measurement against {@code peer}, pinned to the peer. */
    public static Pod server(RdmaStorageProfile profile, String client, Peer peer, long round, int attempt, int tcpPort,
                             OperatorConfig config) {
        Duration probeTimeout = ProfileSettings.of(profile.getSpec()).probeTimeout();
        // the server waits for a client that is created only once the server runs: most of the deadline
        List<String> args = ProbePodFactory.arguments(List.of("latency-server"), serverTimeout(probeTimeout));
        args.addAll(List.of("--tcp-port", Integer.toString(tcpPort), "--bind", peer.address()));
        return pod(profile, SERVER, peer.node(), client, peer, round, attempt, tcpPort, args, config);
    }

    /** The client side, on the node being measured, for the server pod {@code server} that runs now. */
    public static Pod client(RdmaStorageProfile profile, LatencyPod server, OperatorConfig config) {
        Duration probeTimeout = ProfileSettings.of(profile.getSpec()).probeTimeout();
        List<String> args = ProbePodFactory.arguments(List.of("latency-client", "--peer", server.peer().address()),
                runTimeout(probeTimeout));
        args.addAll(List.of("--tcp-port", Integer.toString(server.tcpPort()),
                "--connect-timeout", ProbePodFactory.cliDuration(connectTimeout(probeTimeout))));
        return pod(profile, CLIENT, server.clientNode(), server.clientNode(), server.peer(), server.round(),
                server.attempt(), server.tcpPort(), args, config);
    }

    private static Pod pod(RdmaStorageProfile profile, String role, String runsOn, String client, Peer peer, long round,
                           int attempt, int tcpPort, List<String> args, OperatorConfig config) {
        String profileName = profile.getMetadata().getName();
        Map<String, String> labels = Labels.forNode(profileName, client);
        labels.put(Labels.ROUND, Long.toString(round));
        labels.put(ROLE, role);
        labels.put(ATTEMPT, Integer.toString(attempt));
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(CLIENT_NODE_ANNOTATION, client);
        annotations.put(PEER_NODE_ANNOTATION, peer.node());
        annotations.put(PEER_ADDRESS_ANNOTATION, peer.address());
        annotations.put(TCP_PORT_ANNOTATION, Integer.toString(tcpPort));
        return ProbePodFactory.pod(profile, runsOn, name(profileName, client, round, attempt, role), labels, annotations,
                args, true, config);
    }

    /**
     * {@code <profile>-<client>-<hash>-l<round>-<attempt>s} (or {@code c}): deterministic, so a
     * restarted operator that creates a side again gets AlreadyExists, never a second pod.
     */
    static String name(String profile, String client, long round, int attempt, String role) {
        return ProbePodFactory.podName(profile, client, "l" + round + "-" + attempt + role.charAt(0));
    }

    /** Whether the server side runs, so its client can be started: the container is running. */
    public static boolean serving(Pod server) {
        if (server.getStatus() == null || !"Running".equals(server.getStatus().getPhase())
                || server.getStatus().getContainerStatuses() == null) {
            return false;
        }
        return server.getStatus().getContainerStatuses().stream()
                .filter(c -> ProbePodFactory.CONTAINER.equals(c.getName()))
                .map(ContainerStatus::getState)
                .anyMatch(state -> state != null && state.getRunning() != null);
    }

    /** The lowest out-of-band port not in {@code used} (steps of two: P and P + 1 per pair); -1 when all are. */
    public static int freePort(Collection<Integer> used) {
        for (int i = 0; i < MAX_SERVED_AT_ONCE; i++) {
            int port = BASE_TCP_PORT + 2 * i;
            if (!used.contains(port)) {
                return port;
            }
        }
        return -1;
    }

    /** How long the server waits for its client and the run: 80% of the probe timeout. */
    static Duration serverTimeout(Duration probeTimeout) {
        return atLeastOneSecond(probeTimeout.multipliedBy(8).dividedBy(10));
    }

    /** How long the client keeps trying a refused connect: a quarter of the probe timeout. */
    static Duration connectTimeout(Duration probeTimeout) {
        return atLeastOneSecond(probeTimeout.dividedBy(4));
    }

    /** How long one ib_write_lat run of the client may take: half of the probe timeout. */
    static Duration runTimeout(Duration probeTimeout) {
        return atLeastOneSecond(probeTimeout.dividedBy(2));
    }

    private static Duration atLeastOneSecond(Duration d) {
        Duration ms = Duration.ofMillis(d.toMillis());
        return ms.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : ms;
    }

    /** Every port in use by the server pods among {@code pods}, per node they run on. */
    public static Map<String, List<Integer>> portsInUse(List<LatencyPod> pods) {
        Map<String, List<Integer>> used = new HashMap<>();
        for (LatencyPod p : pods) {
            if (p.isServer() && p.runsOn() != null) {
                used.computeIfAbsent(p.runsOn(), n -> new ArrayList<>()).add(p.tcpPort());
            }
        }
        return used;
    }
}
