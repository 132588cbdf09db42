package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GpfsFixtures;
import io.rdmastorage.probe.testing.NodeScenarios;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator end to end on the real API server: four simulated GPU nodes, each with a different
 * host (healthy; GPFS falling back to TCP; NVMe-oF on tcp; IOMMU on), one profile with every check
 * and every node marking, verdicts per node, the aggregate on the profile, and a fix that turns a
 * node True on the next round.
 */
class OperatorEndToEndTest {

    private static final Duration VERDICT_WAIT = Duration.ofSeconds(90);
    /** The DESIGN example's checks, less what cannot pass on fixture nodes (see NodeScenarios.HEALTHY_SPEC). */
    static final String CHECKS = NodeScenarios.healthyProfileChecks();

    private static OperatorEnvironment env;
    private static final AtomicInteger MAX_ALIVE = new AtomicInteger();
    private static Watch podWatch;

    @BeforeAll
    static void start() {
        env = OperatorEnvironment.start("e2e");
        Set<String> alive = ConcurrentHashMap.newKeySet();
        podWatch = env.admin.pods().inNamespace(env.namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                boolean running = action != Action.DELETED && pod.getMetadata().getDeletionTimestamp() == null
                        && !"Succeeded".equals(pod.getStatus().getPhase()) && !"Failed".equals(pod.getStatus().getPhase());
                if (running) {
                    alive.add(pod.getMetadata().getName());
                } else {
                    alive.remove(pod.getMetadata().getName());
                }
                MAX_ALIVE.accumulateAndGet(alive.size(), Math::max);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        env.addNode("gpu-a", null);
        env.addNode("gpu-b", "gpfs-tcp-fallback");
        env.addNode("gpu-c", "nvmeof-on-tcp");
        env.addNode("gpu-d", "gds-iommu-enabled");
        env.startOperator();
    }

    @AfterAll
    static void stop() {
        if (podWatch != null) {
            podWatch.close();
        }
        if (env != null) {
            env.close();
        }
    }

    @Test
    void verdictsPerNodeAggregateOnTheProfileAndAFixTurnsTrue() {
        env.applyProfile("training", """
                interval: 1m
                probeTimeout: 30s
                maxConcurrentProbes: 2
                nodeLabels: true
                taintNotReady: true
                nodeCondition: true
                """, CHECKS);

        await("all four nodes judged", VERDICT_WAIT, () -> {
            RdmaStorageProfile p = env.profile("training");
            return p.getStatus() != null && p.getStatus().getNodes() != null
                    && p.getStatus().getNodes().getMatched() == 4 && p.getStatus().getNodes().getUnknown() == 0;
        });

        assertThat(conditions("gpu-a")).containsEntry("Ready", "True/AllChecksPassed")
                .containsEntry("RdmaDevices", "True/PortsActive").containsEntry("GpfsVerbs", "True/RdmaInUse")
                .containsEntry("NvmeofRdma", "True/ConnectedOverRdma").containsEntry("GdsReady", "True/GdsReady");
        assertThat(conditions("gpu-b")).containsEntry("Ready", "False/ChecksFailed")
                .containsEntry("GpfsVerbs", "False/TcpFallback").containsEntry("NvmeofRdma", "True/ConnectedOverRdma")
                .containsEntry("GdsReady", "True/GdsReady");
        assertThat(conditions("gpu-c")).containsEntry("NvmeofRdma", "False/TransportTcp")
                .containsEntry("GpfsVerbs", "True/RdmaInUse");
        assertThat(conditions("gpu-d")).containsEntry("GdsReady", "False/IommuEnabled")
                .containsEntry("NvmeofRdma", "True/ConnectedOverRdma");
        RdmaStorageNode b = env.verdict("training", "gpu-b");
        assertThat(message(b.getStatus().getConditions(), "GpfsVerbs")).contains("gpu-02-ib");
        assertThat(b.getStatus().getDetails()).containsKey("GpfsVerbs");
        // each check's action beside its facts, as the API server stores it
        assertThat(b.getStatus().getDetails().get("GpfsVerbs").path("recommendedAction").asText()).isEqualTo("FixConfig");
        assertThat(b.getStatus().getDetails().get("GdsReady").path("recommendedAction").asText()).isEqualTo("None");
        assertThat(env.verdict("training", "gpu-d").getStatus().getDetails().get("GdsReady").path("recommendedAction").asText())
                .as("IommuEnabled").isEqualTo("FixConfig");
        assertThat(b.getStatus().getLastProbeTime()).isNotBlank();
        assertThat(b.getStatus().getProbePod()).startsWith("training-gpu-b-");

        RdmaStorageProfile profile = env.profile("training");
        assertThat(profile.getStatus().getObservedGeneration()).isEqualTo(profile.getMetadata().getGeneration());
        assertThat(profile.getStatus().getNodes().getReady()).isEqualTo(1);
        assertThat(profile.getStatus().getNodes().getNotReady()).isEqualTo(3);
        Condition ready = find(profile.getStatus().getConditions(), "Ready");
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo("NodesNotReady");
        assertThat(ready.getMessage()).contains("3 of 4 nodes not ready").contains("gpu-b (GpfsVerbs: TcpFallback")
                .contains("gpu-c").contains("gpu-d");
        assertThat(profile.getStatus().getNotReadyNodes()).containsExactly("gpu-b", "gpu-c", "gpu-d");
        assertThat(find(profile.getStatus().getConditions(), "GpfsVerbs").getStatus()).isEqualTo("False");
        assertThat(MAX_ALIVE.get()).as("probe pods alive at once").isBetween(1, 2);

        // opt-in node markings follow the verdict
        assertThat(env.nodeLabels("gpu-a")).containsEntry("rdmastorage.io/training", "ready");
        assertThat(env.nodeLabels("gpu-b")).containsEntry("rdmastorage.io/training", "not-ready");
        Node nodeB = env.admin.nodes().withName("gpu-b").get();
        assertThat(nodeB.getSpec().getTaints()).anyMatch(t -> t.getKey().equals("rdmastorage.io/training")
                && t.getEffect().equals("NoSchedule"));
        assertThat(nodeB.getStatus().getConditions()).extracting(NodeCondition::getType, NodeCondition::getStatus)
                .contains(org.assertj.core.groups.Tuple.tuple("rdmastorage.io/training", "False"));
        assertThat(env.admin.nodes().withName("gpu-a").get().getSpec().getTaints())
                .noneMatch(t -> t.getKey().equals("rdmastorage.io/training"));

        // a failing node's first verdict is a Warning for what is wrong, nothing for what passed
        assertThat(eventsOf(b)).extracting(e -> e.getType() + "/" + e.getReason())
                .containsExactly("Warning/TcpFallback");
        assertThat(eventsOf(env.verdict("training", "gpu-a"))).isEmpty();

        // all probe pods are gone once harvested
        await("probe pods removed", Duration.ofSeconds(30),
                () -> env.admin.pods().inNamespace(env.namespace).list().getItems().isEmpty());

        // the administrator fixes GPFS on gpu-b; a spec change re-probes every node at once
        FixtureHost hostB = FixtureHost.at(env.cluster.node("gpu-b").orElseThrow().hostRoot());
        GpfsFixtures.healthy(hostB);
        env.editProfile("training", p -> p.getSpec().setMaxConcurrentProbes(4));
        await("gpu-b ready after the fix", VERDICT_WAIT,
                () -> "True/AllChecksPassed".equals(conditions("gpu-b").get("Ready")));
        await("profile counts the fix", VERDICT_WAIT, () -> env.profile("training").getStatus().getNodes().getReady() == 2);
        assertThat(env.nodeLabels("gpu-b")).containsEntry("rdmastorage.io/training", "ready");
        assertThat(env.verdict("training", "gpu-b").getStatus().getDetails().get("GpfsVerbs").path("recommendedAction").asText())
                .isEqualTo("None");
        assertThat(env.admin.nodes().withName("gpu-b").get().getSpec().getTaints())
                .noneMatch(t -> t.getKey().equals("rdmastorage.io/training"));
        // the recovery is a change: Normal events for the check and the node's Ready
        await("gpu-b's recovery events", Duration.ofSeconds(30), () -> eventsOf(b).size() == 3);
        assertThat(eventsOf(b)).extracting(e -> e.getType() + "/" + e.getReason())
                .containsExactlyInAnyOrder("Warning/TcpFallback", "Normal/RdmaInUse", "Normal/AllChecksPassed");
    }

    private static List<Event> eventsOf(RdmaStorageNode verdict) {
        return env.admin.v1().events().inNamespace("default").withField("involvedObject.uid", verdict.getMetadata().getUid())
                .list().getItems();
    }

    private static Map<String, String> conditions(String node) {
        return env.conditions("training", node);
    }

    private static Condition find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " condition in " + conditions));
    }

    private static String message(List<Condition> conditions, String type) {
        return find(conditions, type).getMessage();
    }
}
