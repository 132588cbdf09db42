package io.rdmastorage.operator.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.nodes.DesiredMarkings;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.CheckTypes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The invariants every fault scenario is checked against, from the API server's side (watches of
 * the operator's probe pods, verdicts and nodes, and a clock that samples the verdicts twice a
 * second, since a verdict frozen at True produces no event at all):
 * <ul>
 * <li>at most one probe pod per (profile, node, round) ever created: a pod's name carries its
 * round, so one name with two UIDs is a round started twice;</li>
 * <li>no RdmaStorageNode Ready True whose evidence (the node's probe, and a latency measurement
 * where there is one) is missing or older than the expiry (3 × interval), beyond a slack for the
 * operator's reaction;</li>
 * <li>{@code lastTransitionTime} unchanged where a condition's status did not change;</li>
 * <li>once converged ({@link #awaitConverged}): every verdict as expected, node markings equal to
 * what the verdicts say, no ended probe pod left behind.</li>
 * </ul>
 */
final class VerdictInvariants implements AutoCloseable {

    private final KubernetesClient client;
    private final Duration expiry;
    private final Duration slack;
    private final Map<String, Set<String>> podUids = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<RdmaStorageNode> verdicts;
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "verdict-invariants");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param interval the profiles' interval (the expiry is 3 × it)
     * @param slack    how late past the expiry the operator may write it (a reconcile's latency,
     *                 plus any time the API server could not be written to at all)
     */
    VerdictInvariants(KubernetesClient client, String namespace, Duration interval, Duration slack) {
        this.client = client;
        this.expiry = interval.multipliedBy(3);
        this.slack = slack;
        this.pods = client.pods().inNamespace(namespace).withLabel(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        recordPod(pod);
                    }

                    @Override
                    public void onUpdate(Pod before, Pod pod) {
                        recordPod(pod);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean unknown) {
                    }
                }, 0);
        this.verdicts = client.resources(RdmaStorageNode.class).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(RdmaStorageNode verdict) {
                checkEvidence(verdict, Instant.now());
            }

            @Override
            public void onUpdate(RdmaStorageNode before, RdmaStorageNode verdict) {
                checkEvidence(verdict, Instant.now());
                checkTransitions(before, verdict);
            }

            @Override
            public void onDelete(RdmaStorageNode verdict, boolean unknown) {
            }
        }, 0);
        clock.scheduleAtFixedRate(() -> {
            Instant now = Instant.now();
            verdicts.getStore().list().forEach(v -> checkEvidence(v, now));
        }, 500, 500, TimeUnit.MILLISECONDS);
    }

    private void recordPod(Pod pod) {
        Set<String> uids = podUids.computeIfAbsent(pod.getMetadata().getName(), n -> ConcurrentHashMap.newKeySet());
        if (uids.add(pod.getMetadata().getUid()) && uids.size() > 1) {
            violations.add("probe pod " + pod.getMetadata().getName() + " (one profile, node and round) was created "
                    + uids.size() + " times");
        }
    }

    private void checkEvidence(RdmaStorageNode verdict, Instant now) {
        if (verdict.getStatus() == null || !Conditions.TRUE.equals(Conditions.statusOf(verdict.getStatus()
                .getConditions(), CheckTypes.READY))) {
            return;
        }
        String name = verdict.getMetadata().getName();
        stale("node probe", Timestamps.parse(verdict.getStatus().getLastProbeTime()), now)
                .ifPresent(why -> violations.add(name + " Ready True at " + now + " on " + why));
        if (verdict.getStatus().getLatency() != null) {
            stale("latency measurement", Timestamps.parse(verdict.getStatus().getLatency().getMeasuredAt()), now)
                    .ifPresent(why -> violations.add(name + " Ready True at " + now + " on " + why));
        }
    }

    private Optional<String> stale(String what, Optional<Instant> at, Instant now) {
        if (at.isEmpty()) {
            return Optional.of("no " + what + " time");
        }
        Instant due = at.get().plus(expiry).plus(slack);
        return now.isAfter(due) ? Optional.of("a " + what + " from " + at.get() + ", past its expiry") : Optional.empty();
    }

    private void checkTransitions(RdmaStorageNode before, RdmaStorageNode after) {
        if (before.getStatus() == null || after.getStatus() == null
                || !Objects.equals(before.getMetadata().getUid(), after.getMetadata().getUid())) {
            return;
        }
        for (Condition c : after.getStatus().getConditions()) {
            Condition was = Conditions.find(before.getStatus().getConditions(), c.getType()).orElse(null);
            if (was != null && Objects.equals(was.getStatus(), c.getStatus())
                    && !Objects.equals(was.getLastTransitionTime(), c.getLastTransitionTime())) {
                violations.add(after.getMetadata().getName() + " " + c.getType() + " stayed " + c.getStatus()
                        + " but its lastTransitionTime moved from " + was.getLastTransitionTime() + " to "
                        + c.getLastTransitionTime());
            }
        }
    }

    /** Every violation seen so far; empty when the invariants held. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    /** How many probe pods (distinct UIDs) were ever seen. */
    int podsCreated() {
        return podUids.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * Waits until the profile's verdicts are as {@code expected} (node → Ready's status), each
     * node's label for the profile (where it carries one) says what its verdict's Ready says, and
     * no ended probe pod is left; the invariants must have held meanwhile.
     */
    void awaitConverged(String profile, Map<String, String> expected, Duration timeout) {
        try {
            awaitConvergence(profile, expected, timeout);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; now: " + state(profile, expected) + "; violations " + violations, e);
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("invariants broken: " + violations);
        }
    }

    private String state(String profile, Map<String, String> expected) {
        StringBuilder b = new StringBuilder();
        for (String node : expected.keySet()) {
            RdmaStorageNode v = client.resources(RdmaStorageNode.class).withName(profile + "." + node).get();
            b.append(node).append(": ").append(v == null || v.getStatus() == null ? "no verdict"
                    : v.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + "/"
                    + c.getReason()).toList() + " (" + v.getStatus().getConditions().get(0).getMessage() + ")")
                    .append(", label ")
                    .append(client.nodes().withName(node).get().getMetadata().getLabels().get("rdmastorage.io/" + profile))
                    .append("; ");
        }
        return b.append("pods ").append(pods.getStore().list().stream().map(p -> p.getMetadata().getName() + " "
                + (p.getStatus() == null ? null : p.getStatus().getPhase())).toList()).toString();
    }

    private void awaitConvergence(String profile, Map<String, String> expected, Duration timeout) {
        OperatorEnvironment.await("verdicts " + expected + " and markings converged, no pod left", timeout, () -> {
            for (Map.Entry<String, String> e : expected.entrySet()) {
                RdmaStorageNode v = client.resources(RdmaStorageNode.class).withName(profile + "." + e.getKey()).get();
                String ready = v == null || v.getStatus() == null ? null
                        : Conditions.statusOf(v.getStatus().getConditions(), CheckTypes.READY);
                if (!e.getValue().equals(ready)) {
                    return false;
                }
                Node node = client.nodes().withName(e.getKey()).get();
                String label = node.getMetadata().getLabels().get("rdmastorage.io/" + profile);
                if (label != null && !label.equals(labelFor(ready))) {
                    return false;
                }
            }
            return pods.getStore().list().stream().noneMatch(VerdictInvariants::ended);
        });
    }

    private static String labelFor(String ready) {
        return switch (ready) {
            case Conditions.TRUE -> DesiredMarkings.READY;
            case Conditions.FALSE -> DesiredMarkings.NOT_READY;
            default -> DesiredMarkings.UNKNOWN;
        };
    }

    private static boolean ended(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** The node verdicts as the invariants' own watch holds them. */
    List<RdmaStorageNode> verdicts() {
        return new ArrayList<>(verdicts.getStore().list());
    }

    @Override
    public void close() {
        clock.shutdownNow();
        pods.close();
        verdicts.close();
    }
}
