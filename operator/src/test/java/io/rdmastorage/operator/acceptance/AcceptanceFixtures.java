package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptanceTransport;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.api.AcceptanceWorkloadSpec;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.nodes.NodeAvailability;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The runs, pods, nodes and plans the acceptance planners' in-memory tests share. */
final class AcceptanceFixtures {

    /** The NVMe-oF target a profile names in these tests, whole: the runs' target. */
    static final ProbeSpec.Target PROFILE_TARGET = new ProbeSpec.Target("nqn.2024-01.dev.wutz:target1", "10.68.20.10", 4420);
    /** The label the admin's node selector names in these tests; every node here carries it. */
    static final Map<String, String> WORKERS = Map.of("kubernetes.io/os", "linux");
    /** The chart's default bounds, with the test nodes taking runs and the path target on under /gpfs/fs1/ (it is off until an admin names a prefix). */
    static final OperatorConfig CONFIG = new OperatorConfig("rso", "registry.example/node-probe:1", "IfNotPresent", false, 0)
            .withAcceptance(AcceptanceBounds.DEFAULT.withPathPrefixes("/gpfs/fs1/").withNodeSelector(WORKERS));
    static final Instant NOW = Instant.parse("2026-12-01T16:00:00Z");
    static final String REPORT = """
            {"apiVersion":"rdmastorage.io/v1alpha1","kind":"AcceptanceReport","node":"gpu-07","probeVersion":"0.1.0",
             "fioVersion":"fio-3.33","startedAt":"2026-12-01T16:00:00Z","durationMillis":200000,"complete":true,"message":"",
             "transports":[{"transport":"rdma","controller":"nvme1","device":"/dev/nvme1n1","connectedByProbe":false,
               "latency":{"iops":39000.0,"bytesPerSecond":159744000,"p50Micros":25.1,"p99Micros":31.2,"p999Micros":45.0,
                          "coresBusy":1.1,"softPercent":0.5,"sysPercent":2.0},
               "iops":{"iops":1500000.0,"bytesPerSecond":6144000000,"coresBusy":1.8,"softPercent":1.0,"sysPercent":3.0},
               "bandwidth":{"iops":11000.0,"bytesPerSecond":11800000000,"coresBusy":0.9}}],
             "disconnected":[]}
            """;

    static final String CLEANED = """
            {"kind":"AcceptanceCleanup","node":"gpu-07","runUid":"u-gpu-07-connect","complete":true,
             "disconnected":["nvme2"],"removed":[],"gone":[],"problems":[]}
            """;

    private AcceptanceFixtures() {
    }

    /** An nvmeof run that may connect the missing transports. */
    static RdmaStorageAcceptance connecting(String name) {
        RdmaStorageAcceptance run = nvmeof(name, "2026-12-01T15:00:00Z");
        run.getSpec().getNvmeof().setConnect(true);
        return run;
    }

    /** {@link #connecting}, Running since five minutes, with what it may change recorded. */
    static RdmaStorageAcceptance connectingRunning(String name) {
        RdmaStorageAcceptance run = connecting(name);
        run.setStatus(status(Reasons.Acceptance.PHASE_RUNNING, NOW.minusSeconds(300)));
        run.getStatus().setPodName(AcceptancePods.podName(run));
        try {
            run.getStatus().setPendingCleanup(AcceptanceCleanupPlanner.intended(run, AcceptanceSpecDocument.of(run.getSpec(), name)));
        } catch (io.rdmastorage.contract.spec.InvalidSpecException e) {
            throw new AssertionError(e);
        }
        AcceptanceDigest.stamp(run, run.getStatus());
        return run;
    }

    /** {@link #connectingRunning} whose pod was killed and whose cleanup pod was created. */
    static RdmaStorageAcceptance cleaningUp(String name) {
        RdmaStorageAcceptance run = connectingRunning(name);
        RdmaStorageAcceptanceStatus ended = plan(snapshot(run, Set.of(killed(run)), nodes("gpu-07"), List.of(run))).status();
        run.setStatus(AcceptanceDigest.stamp(run, ended));
        run.setStatus(AcceptanceDigest.stamp(run, plan(snapshot(run, Set.of(), nodes("gpu-07"), List.of(run))).status()));
        return run;
    }

    /** The run's pod, SIGKILLed: exit 137 and no termination message. */
    static Pod killed(RdmaStorageAcceptance run) {
        return new PodBuilder(pod(run, NOW.minusSeconds(300), null)).editStatus().withPhase("Failed").addNewContainerStatus()
                .withName("node-probe").withNewState().withNewTerminated().withExitCode(137).withReason("Error")
                .withFinishedAt(Timestamps.format(NOW)).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    /** The run's cleanup pod, ended with {@code exitCode} and {@code report}. */
    static Pod cleanupPod(RdmaStorageAcceptance run, int exitCode, String report) {
        return new PodBuilder().withNewMetadata().withName(AcceptancePods.cleanupPodName(run)).withNamespace("rso")
                .withCreationTimestamp(Timestamps.format(NOW.minusSeconds(20))).withOwnerReferences(AcceptancePods.ownerReference(run))
                .endMetadata().withNewStatus().withPhase(exitCode == 0 ? "Succeeded" : "Failed").addNewContainerStatus()
                .withName("node-probe").withNewState().withNewTerminated().withExitCode(exitCode).withMessage(report)
                .withFinishedAt(Timestamps.format(NOW)).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    static Condition cleanedUp(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.CLEANED_UP);
    }

    static void assertRefused(AcceptancePlan plan, String... message) {
        assertThat(plan.creates()).isEmpty();
        assertThat(plan.applies()).isEmpty();
        assertThat(plan.status().getPhase()).isEqualTo(Reasons.Acceptance.FAILED);
        assertThat(complete(plan).getReason()).isEqualTo(Reasons.Acceptance.OUTSIDE_ADMIN_BOUNDS);
        assertThat(complete(plan).getMessage()).contains(message);
        assertThat(plan.step()).isEqualTo(AcceptancePlan.Step.ENDED);
    }

    static AcceptancePlan plan(AcceptanceSnapshot snapshot, AcceptanceBounds bounds) {
        return RdmaStorageAcceptanceReconciler.plan(snapshot, CONFIG.withAcceptance(bounds), NOW);
    }

    static AcceptancePlan plan(AcceptanceSnapshot snapshot) {
        return RdmaStorageAcceptanceReconciler.plan(snapshot, CONFIG, NOW);
    }

    static AcceptanceSnapshot snapshot(RdmaStorageAcceptance run, Set<Pod> pods, Map<String, Node> nodes,
                                               List<RdmaStorageAcceptance> runs) {
        return new AcceptanceSnapshot(run, pods, Optional.empty(), false, nodes, runs, Set.of());
    }

    static RdmaStorageAcceptance nvmeof(String name, String created) {
        AcceptanceNvmeofTarget target = new AcceptanceNvmeofTarget();
        target.setNqn("nqn.2024-01.dev.wutz:target1");
        target.setAddress("10.68.20.10");
        target.setTransports(List.of(AcceptanceTransport.RDMA, AcceptanceTransport.TCP));
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setNvmeof(target);
        return run(name, created, spec);
    }

    static RdmaStorageAcceptance path(String name, String compareWith) {
        AcceptancePathTarget path = new AcceptancePathTarget();
        path.setDirectory("/gpfs/fs1/acceptance");
        path.setCompareWith(compareWith);
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setPath(path);
        return run(name, "2026-12-01T15:00:00Z", spec);
    }

    static RdmaStorageAcceptance verbs(String name) {
        AcceptanceVerbsTarget verbs = new AcceptanceVerbsTarget();
        verbs.setPeerNode("storage-01");
        verbs.setDevice("mlx5_0");
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setVerbs(verbs);
        return run(name, "2026-12-01T15:00:00Z", spec);
    }

    static RdmaStorageAcceptance run(String name, String created, RdmaStorageAcceptanceSpec spec) {
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName(name).withUid("u-" + name).withGeneration(1L)
                .withCreationTimestamp(created).build());
        run.setSpec(spec);
        return run;
    }

    /** Running since {@code started}, its status stamped as the operator writes it. */
    static RdmaStorageAcceptance running(RdmaStorageAcceptance run, Instant started) {
        run.setStatus(status(Reasons.Acceptance.PHASE_RUNNING, started));
        run.getStatus().setPodName(AcceptancePods.podName(run));
        AcceptanceDigest.stamp(run, run.getStatus());
        return run;
    }

    static RdmaStorageAcceptanceStatus status(String phase, Instant started) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setPhase(phase);
        status.setStartTime(started == null ? null : Timestamps.format(started));
        return status;
    }

    /** The run's pod (owned by its UID), created at {@code created}; with a report, its container ended with it. */
    static Pod pod(RdmaStorageAcceptance run, Instant created, String report) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(AcceptancePods.podName(run)).withNamespace("rso")
                .withCreationTimestamp(Timestamps.format(created)).withOwnerReferences(AcceptancePods.ownerReference(run))
                .endMetadata();
        if (report == null) {
            return pod.withNewStatus().withPhase("Running").endStatus().build();
        }
        return pod.withNewStatus().withPhase("Succeeded").addNewContainerStatus().withName("node-probe").withNewState()
                .withNewTerminated().withExitCode(0).withMessage(report).withFinishedAt(Timestamps.format(NOW))
                .endTerminated().endState().endContainerStatus().endStatus().build();
    }

    static Map<String, Node> nodes(String... names) {
        Map<String, Node> nodes = new java.util.HashMap<>();
        for (String name : names) {
            nodes.put(name, node(name));
        }
        return nodes;
    }

    /** A Ready, schedulable node. */
    static Node node(String name) {
        return node(name, Map.of());
    }

    static Node node(String name, Map<String, String> labels) {
        Map<String, String> all = new java.util.HashMap<>(WORKERS);
        all.putAll(labels);
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(all).endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    static Node notReady(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(WORKERS).endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("Unknown").endCondition().endStatus().build();
    }

    static Condition complete(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.COMPLETE);
    }

    static Condition effective(AcceptancePlan plan) {
        return Conditions.byType(plan.status().getConditions()).get(Reasons.Acceptance.RDMA_EFFECTIVE);
    }
}
