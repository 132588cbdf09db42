package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.acceptance.AcceptancePods;
import io.rdmastorage.operator.acceptance.AcceptanceMarkdown;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.NodeFault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The acceptance run's lifecycle on the real API server: simulated kubelets run the real
 * node-probe {@code acceptance} in-process against fixture nodes ({@link AcceptanceFixtures}: sysfs
 * controllers, a stub nvme that connects and disconnects, a stub fio printing the recorded fio
 * JSON), so the status, the ratios and the record come from the probe's own document.
 */
class AcceptanceLifecycleTest {

    private static final Duration WAIT = AcceptanceRuns.WAIT;

    private AcceptanceRuns runs;
    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        runs = AcceptanceRuns.start("acceptance");
        env = runs.env;
    }

    @AfterEach
    void stop() {
        runs.close();
    }

    /** A node with the target's rdma controller; tcp too when {@code tcpConnected}; tcp {@code tcpSlower} times slower. */
    private Path node(String name, boolean tcpConnected, int tcpSlower) {
        Path[] logs = new Path[1];
        env.addFixtureNode(name, host -> {
            logs[0] = host.root().resolveSibling(name + "-logs");
            try {
                Files.createDirectories(logs[0]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            AcceptanceFixtures.node(host, logs[0]);
            if (tcpConnected) {
                AcceptanceFixtures.tcpConnected(host);
            }
            AcceptanceFixtures.fio(AcceptanceLauncher.fioOf(host.root()), host, logs[0], tcpSlower);
            return host;
        });
        return logs[0];
    }

    /** {@code nvmeof}: more fields of the nvmeof section; {@code spec}: more fields of the spec, YAML. */
    private void applyRun(String name, String node, String nvmeof, String spec) {
        applyRun(name, node, NvmeofFixtures.TARGET_ADDRESS, nvmeof, spec);
    }

    private void applyRun(String name, String node, String address, String nvmeof, String spec) {
        String yaml = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: %s
                spec:
                  nodeName: %s
                  nvmeof:
                    nqn: "%s"
                    address: %s
                    port: %d
                %s
                %s
                  latency: {durationSeconds: 5}
                  iops: {durationSeconds: 5, jobs: 4, iodepth: 8}
                  bandwidth: {durationSeconds: 5}
                """.formatted(name, node, NvmeofFixtures.TARGET_NQN, address, NvmeofFixtures.TARGET_PORT,
                indent(nvmeof, "    "), indent(spec, "  "));
        env.plane.kubectl().applyYaml(yaml).orThrow("kubectl apply acceptance " + name);
    }

    private static String indent(String yaml, String by) {
        return yaml.strip().lines().map(l -> by + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    @Test
    void aStatusEditedBehindTheOperatorsBackFailsTheRunStatusEditedWhileItsOwnWritesAreTrusted() throws InterruptedException {
        node("edited", true, 4);
        applyRun("accept-edited", "edited", "transports: [rdma, tcp]", "");
        await("accept-edited Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("accept-edited")));
        assertThat(runs.run("accept-edited").getStatus().getDigest()).as("stamped, and kept by the CRD schema").isNotBlank();

        CommandResult patch = env.plane.kubectl().run("patch", "rdmastorageacceptance", "accept-edited",
                "--subresource=status", "--type=merge", "-p", "{\"status\":{\"startTime\":\"2999-01-01T00:00:00Z\"}}");
        assertThat(patch.exitCode()).as(patch.toString()).isZero();

        await("accept-edited Failed StatusEdited", WAIT, () -> "Failed".equals(runs.phase("accept-edited")));
        assertThat(runs.condition("accept-edited", "Complete").getReason()).isEqualTo("StatusEdited");
        String completed = runs.run("accept-edited").getStatus().getCompletionTime();
        assertThat(runs.pods("accept-edited")).isEmpty();
        // its own failure is trusted: not failed again and again
        Thread.sleep(3_000);
        assertThat(runs.run("accept-edited").getStatus().getCompletionTime()).isEqualTo(completed);
    }

    /** Security round 4 (1): before, this one patch made the operator create cleanup pods in a loop (177 in 53 s). */
    @Test
    void anEditedPendingCleanupOnAFinishedRunStartsNoCleanupPodAndNoLoop() throws InterruptedException {
        node("claimed", true, 4);
        applyRun("accept-claimed", "claimed", "transports: [rdma, tcp]", "");
        await("accept-claimed Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("accept-claimed")));

        CommandResult patch = env.plane.kubectl().run("patch", "rdmastorageacceptance", "accept-claimed",
                "--subresource=status", "--type=merge", "-p", "{\"status\":{\"pendingCleanup\":{\"nodeName\":\"claimed\","
                        + "\"controllers\":[{\"transport\":\"tcp\",\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\""
                        + NvmeofFixtures.TARGET_ADDRESS + "\",\"port\":" + NvmeofFixtures.TARGET_PORT + "}]}}}");
        assertThat(patch.exitCode()).as(patch.toString()).isZero();

        await("accept-claimed Failed StatusEdited", WAIT, () -> "Failed".equals(runs.phase("accept-claimed")));
        assertThat(runs.condition("accept-claimed", "Complete").getReason()).isEqualTo("StatusEdited");
        assertThat(runs.condition("accept-claimed", "Complete").getMessage()).contains("no cleanup pod runs for it");
        int events = runs.events("accept-claimed").size();
        String completed = runs.run("accept-claimed").getStatus().getCompletionTime();
        Thread.sleep(5_000);
        assertThat(runs.pods("accept-claimed")).as("no cleanup pod, ever").isEmpty();
        assertThat(runs.run("accept-claimed").getStatus().getCompletionTime()).isEqualTo(completed);
        assertThat(runs.events("accept-claimed")).as("no Event after the one that said StatusEdited").hasSize(events);
        assertThat(env.plane.kubectl().run("delete", "rdmastorageacceptance", "accept-claimed", "--timeout=30s").exitCode())
                .as("its deletion waits for no cleanup").isZero();
    }

    @Test
    void rdmaFasterAndCheaperSucceedsWithTheNumbersSideBySide() {
        node("fast", true, 4);
        applyRun("accept-fast", "fast", "transports: [rdma, tcp]", "");

        await("accept-fast Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("accept-fast")));

        RdmaStorageAcceptance r = runs.run("accept-fast");
        assertThat(runs.condition("accept-fast", "Complete").getStatus()).isEqualTo("True");
        Condition effective = runs.condition("accept-fast", "RdmaEffective");
        assertThat(effective.getStatus()).isEqualTo("True");
        assertThat(effective.getReason()).isEqualTo("Effective");
        assertThat(effective.getMessage()).contains("rdma 103 µs vs tcp 412 µs", "4.00× lower, at least 2.00× required");
        assertThat(r.getStatus().getRatios().getLatency()).isEqualTo(4.0);
        assertThat(r.getStatus().getRatios().getCpuPerIo()).isCloseTo(4.0, within(0.01));
        List<AcceptanceTransportResult> rows = r.getStatus().getTransports();
        assertThat(rows).extracting(AcceptanceTransportResult::getTransport).containsExactly("rdma", "tcp");
        assertThat(rows.get(0).getLatencyP50Micros()).isEqualTo(102.912);
        assertThat(rows.get(0).getIopsCoresBusy()).isEqualTo(1.0);
        assertThat(rows.get(0).getIopsSoftPercent()).isEqualTo(10.0);
        assertThat(rows.get(1).getDevice()).isEqualTo("/dev/nvme2n1");
        assertThat(rows.get(1).getConnectedByProbe()).isFalse();

        String record = runs.configMap(AcceptancePods.reportName("accept-fast")).getData().get(AcceptanceMarkdown.KEY);
        assertThat(record).contains("# RDMA storage acceptance: accept-fast", "| 4 KiB random read, depth 1: p50 latency (µs) | 103 | 412 | 4.00x |",
                "fio --name=latency --filename=DEVICE --readonly --direct=1 --rw=randread --bs=4k", "fio-3.14-6-g97134");
        assertThat(r.getStatus().getReport()).isEqualTo(AcceptancePods.reportName("accept-fast"));
        await("pod and spec removed", WAIT, () -> runs.pods("accept-fast").isEmpty()
                && runs.configMap(AcceptancePods.specName("accept-fast")) == null);

        CommandResult get = env.plane.kubectl().run("get", "rdmastorageacceptance", "accept-fast");
        assertThat(get.stdout()).contains("NODE", "TARGET", "LATENCY-RATIO", "CPU-RATIO", "RDMA-EFFECTIVE")
                .contains("fast", NvmeofFixtures.TARGET_NQN, "Succeeded", "True");
        assertThat(env.plane.kubectl().run("get", "rdmastorage").stdout()).contains("rdmastorageacceptance.rdmastorage.io/accept-fast");
    }

    /** The admin's bounds on the real API server: refused before any pod or spec exists, the reason naming the rule. */
    @Test
    void aControlPlaneNodeAndAnAddressNoProfileOrAdminNamesAreRefusedBeforeAnyPod() {
        node("control", true, 4);
        ContendedEdits.label(env.admin, "control", "node-role.kubernetes.io/control-plane", "");
        applyRun("accept-control", "control", "transports: [rdma, tcp]", "");
        node("worker", false, 4);
        applyRun("accept-elsewhere", "worker", "192.0.2.99", "connect: true", "");

        for (String run : List.of("accept-control", "accept-elsewhere")) {
            await(run + " Failed", WAIT, () -> "Failed".equals(runs.phase(run)));
            assertThat(runs.condition(run, "Complete").getReason()).isEqualTo("OutsideAdminBounds");
            assertThat(runs.pods(run)).as("no pod").isEmpty();
            assertThat(runs.configMap(AcceptancePods.specName(run))).as("no spec").isNull();
        }
        assertThat(runs.condition("accept-control", "Complete").getMessage()).contains("control is a control-plane node");
        assertThat(runs.condition("accept-elsewhere", "Complete").getMessage())
                .contains("at 192.0.2.99:" + NvmeofFixtures.TARGET_PORT + " is named by no profile's nvmeof targets");
        assertThat(runs.events("accept-control")).contains("Warning OutsideAdminBounds");
    }

    @Test
    void connectTrueConnectsTheMissingTransportAndTheSameNumbersAreNotEffective() throws IOException {
        Path logs = node("connects", false, 1);
        applyRun("accept-connect", "connects", "connect: true", "");

        await("accept-connect Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("accept-connect")));

        assertThat(Files.readAllLines(logs.resolve(AcceptanceFixtures.NVME_LOG))).containsExactly(
                "connect -t tcp -a " + NvmeofFixtures.TARGET_ADDRESS + " -s 4420 -n " + NvmeofFixtures.TARGET_NQN,
                "disconnect -d nvme2");
        RdmaStorageAcceptance r = runs.run("accept-connect");
        assertThat(r.getStatus().getTransports().get(1).getConnectedByProbe()).isTrue();
        assertThat(runs.condition("accept-connect", "Complete").getMessage()).contains("connected and disconnected again: nvme2");
        Condition effective = runs.condition("accept-connect", "RdmaEffective");
        assertThat(effective.getStatus()).isEqualTo("False");
        assertThat(effective.getReason()).isEqualTo("NotEffective");
        assertThat(effective.getMessage()).contains("1.00× lower");
    }

    @Test
    void aNodeInServiceIsNotFencedWhileARunConnectsThereAndIsProbedAgainOnceTheConnectionIsUndone() {
        Path logs = node("in-service", false, 1);
        env.applyProfile("storage", "interval: 1h\nprobeTimeout: 30s\nnodeLabels: true\ntaintNotReady: true",
                "nvmeof: " + NvmeofFixtures.SECTION);
        await("in-service verified", WAIT, () -> env.verdict("storage", "in-service") != null
                && "True/AllChecksPassed".equals(env.conditions("storage", "in-service").get("Ready")));

        // the run's pod hangs, connected: a probe now would see the run's TCP controller beside the RDMA one
        env.cluster.setFault("in-service", NodeFault.PROBE_HANGS);
        applyRun("accept-in-service", "in-service", "connect: true", "");
        await("the profile holds the node", WAIT, () -> "Unknown/AcceptanceRunInProgress".equals(
                env.conditions("storage", "in-service").get("Ready")));
        assertThat(env.conditions("storage", "in-service").get("NvmeofRdma")).isEqualTo("Unknown/AcceptanceRunInProgress");
        assertThat(env.admin.nodes().withName("in-service").get().getSpec().getTaints())
                .as("never fenced for a measurement its admin asked for")
                .noneMatch(t -> t.getKey().equals("rdmastorage.io/storage"));
        assertThat(env.nodeLabels("in-service")).as("workloads that select ready nodes keep it")
                .containsEntry("rdmastorage.io/storage", "ready");
        await("the profile counts it paused", WAIT, () -> "NodesPaused".equals(env.profileCondition("storage", "Ready")
                .getReason()));

        await("accept-in-service Succeeded, its connection undone", WAIT, () -> {
            env.cluster.setFault("in-service", NodeFault.NONE);
            return "Succeeded".equals(runs.phase("accept-in-service"))
                    && runs.run("accept-in-service").getStatus().getPendingCleanup() == null;
        });
        assertThat(readLines(logs.resolve(AcceptanceFixtures.NVME_LOG))).last().isEqualTo("disconnect -d nvme2");
        await("in-service probed again at once (interval 1h)", WAIT, () -> "True/AllChecksPassed".equals(
                env.conditions("storage", "in-service").get("Ready")));
        assertThat(env.nodeLabels("in-service")).containsEntry("rdmastorage.io/storage", "ready");
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aTransportThatIsNotConnectedFailsTheRunWithoutAVerdict() {
        node("only-rdma", false, 1);
        applyRun("accept-missing", "only-rdma", "", "");

        await("accept-missing Failed", WAIT, () -> "Failed".equals(runs.phase("accept-missing")));

        Condition complete = runs.condition("accept-missing", "Complete");
        assertThat(complete.getReason()).isEqualTo("Incomplete");
        assertThat(complete.getMessage()).contains("tcp: no live tcp controller", "nvme connect -t tcp");
        assertThat(runs.condition("accept-missing", "RdmaEffective").getStatus()).isEqualTo("Unknown");
        assertThat(runs.condition("accept-missing", "RdmaEffective").getReason()).isEqualTo("NoComparison");
        assertThat(runs.run("accept-missing").getStatus().getTransports().get(0).getLatencyP50Micros()).isEqualTo(102.912);
        assertThat(runs.configMap(AcceptancePods.reportName("accept-missing")).getData().get(AcceptanceMarkdown.KEY))
                .contains("not compared: no live tcp controller");
    }

    @Test
    void aRunPastItsDeadlineFailsAndItsPodIsDeleted() {
        node("hangs", true, 1);
        env.cluster.setFault("hangs", NodeFault.PROBE_HANGS);
        applyRun("accept-slow", "hangs", "connect: true", "timeoutSeconds: 10");
        await("accept-slow Running", WAIT, () -> "Running".equals(runs.phase("accept-slow")) && !runs.pods("accept-slow").isEmpty());
        Pod pod = runs.pods("accept-slow").get(0);
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(10L);
        assertThat(pod.getSpec().getHostNetwork()).as("connect: true").isTrue();
        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getContainers().get(0).getSecurityContext().getPrivileged()).isTrue();
        assertThat(pod.getSpec().getContainers().get(0).getArgs()).startsWith("acceptance");
        assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits().get("cpu").toString()).isEqualTo("4");

        await("accept-slow Failed", WAIT, () -> "Failed".equals(runs.phase("accept-slow")));

        assertThat(runs.condition("accept-slow", "Complete").getReason()).isEqualTo("TimedOut");
        assertThat(runs.condition("accept-slow", "Complete").getMessage()).contains("the pod was deleted");
        // no report said the run undid what it may have connected: its cleanup pod runs on the node, which
        // no longer hangs probes (the probe never ran there, so its journal is absent: nothing to undo)
        // The cleanup pod may be created the moment the run fails, and the simulated kubelet may decide its fate
        // (hang) just as the fault is lifted: clearing the fault again re-drives every pod left hanging
        // The pod and the spec go before the status that says so is written (the executor deletes, JOSDK
        // then patches the status): wait for all three
        await("pod and spec removed, CleanedUp", WAIT, () -> {
            env.cluster.setFault("hangs", NodeFault.NONE);
            return runs.pods("accept-slow").isEmpty() && runs.configMap(AcceptancePods.specName("accept-slow")) == null
                    && "CleanedUp".equals(runs.condition("accept-slow", "CleanedUp").getReason());
        });
        assertThat(runs.condition("accept-slow", "CleanedUp").getMessage()).contains("no journal");
    }

    @Test
    void deletingARunMidwayRemovesItsPodAndConfigMaps() {
        node("busy", true, 1);
        env.cluster.setFault("busy", NodeFault.PROBE_HANGS);
        applyRun("accept-deleted", "busy", "", "");
        await("accept-deleted Running", WAIT, () -> !runs.pods("accept-deleted").isEmpty());
        assertThat(runs.configMap(AcceptancePods.specName("accept-deleted"))).isNotNull();

        env.admin.resources(RdmaStorageAcceptance.class).withName("accept-deleted").delete();

        await("run, pod and spec gone", WAIT, () -> runs.run("accept-deleted") == null && runs.pods("accept-deleted").isEmpty()
                && runs.configMap(AcceptancePods.specName("accept-deleted")) == null);
    }

    @Test
    void deletingARunThatMayHaveConnectedWaitsForItsCleanupPodThenGoes() {
        node("busy-connect", false, 1);
        env.cluster.setFault("busy-connect", NodeFault.PROBE_HANGS);
        applyRun("accept-deleted-connect", "busy-connect", "connect: true", "");
        await("accept-deleted-connect Running", WAIT, () -> !runs.pods("accept-deleted-connect").isEmpty()
                && runs.run("accept-deleted-connect").getStatus().getPendingCleanup() != null);
        String cleanupPod = AcceptancePods.cleanupPodName(runs.run("accept-deleted-connect"));

        env.admin.resources(RdmaStorageAcceptance.class).withName("accept-deleted-connect").delete();

        // its cleanup pod hangs as the run's did: the run stays, Terminating, until it ran
        await("cleanup pod of the terminating run", WAIT, () -> runs.pods("accept-deleted-connect").stream()
                .anyMatch(p -> p.getMetadata().getName().equals(cleanupPod)));
        RdmaStorageAcceptance terminating = runs.run("accept-deleted-connect");
        assertThat(terminating.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(runs.condition("accept-deleted-connect", "CleanedUp").getReason()).isEqualTo("CleanupRunning");

        await("run, pods and spec gone once the cleanup ran", WAIT, () -> {
            env.cluster.setFault("busy-connect", NodeFault.NONE);
            return runs.run("accept-deleted-connect") == null && runs.pods("accept-deleted-connect").isEmpty()
                    && runs.configMap(AcceptancePods.specName("accept-deleted-connect")) == null;
        });
        assertThat(runs.events("accept-deleted-connect")).contains("Normal CleanedUp");
    }

    @Test
    void aRunCreatedAgainUnderTheSameNameNeverTakesTheEarlierRunsTerminatingPod() {
        node("recreated", true, 4);
        env.cluster.setFault("recreated", NodeFault.PROBE_HANGS);
        applyRun("accept-again", "recreated", "transports: [rdma, tcp]", "");
        await("accept-again Running", WAIT, () -> "Running".equals(runs.phase("accept-again"))
                && !runs.pods("accept-again").isEmpty());
        // the node's kubelet goes down and the run is deleted: its pod stays Terminating, as in a real cluster
        env.cluster.setReady("recreated", false);
        String earlier = runs.run("accept-again").getMetadata().getUid();
        env.admin.resources(RdmaStorageAcceptance.class).withName("accept-again").delete();
        await("the first run gone, its pod Terminating", WAIT, () -> runs.run("accept-again") == null
                && !runs.pods("accept-again").isEmpty()
                && runs.pods("accept-again").stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));

        env.cluster.setFault("recreated", NodeFault.NONE);
        applyRun("accept-again", "recreated", "transports: [rdma, tcp]", "");
        await("the new run waits", WAIT, () -> "Pending".equals(runs.phase("accept-again")));
        assertThat(runs.run("accept-again").getMetadata().getUid()).isNotEqualTo(earlier);
        assertThat(runs.pods("accept-again")).as("only the earlier run's pod, still Terminating").singleElement()
                .satisfies(p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull());

        env.cluster.setReady("recreated", true);
        await("the new run Succeeded in a pod of its own", WAIT, () -> "Succeeded".equals(runs.phase("accept-again")));
        assertThat(runs.condition("accept-again", "Complete").getReason()).isEqualTo("Measured");
    }

    @Test
    void aSecondRunOnTheSameNodeWaitsForTheFirst() {
        node("shared", true, 2);
        env.cluster.setFault("shared", NodeFault.PROBE_HANGS);
        applyRun("accept-first", "shared", "", "");
        await("accept-first Running", WAIT, () -> "Running".equals(runs.phase("accept-first")));
        applyRun("accept-second", "shared", "", "");

        await("accept-second Pending", WAIT, () -> "Pending".equals(runs.phase("accept-second")));
        Condition waiting = runs.condition("accept-second", "Complete");
        assertThat(waiting.getReason()).isEqualTo("WaitingForNode");
        assertThat(waiting.getMessage()).contains("accept-first is measuring node shared");
        assertThat(runs.pods("accept-second")).isEmpty();

        env.cluster.setFault("shared", NodeFault.NONE);
        env.admin.resources(RdmaStorageAcceptance.class).withName("accept-first").delete();

        await("accept-second Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("accept-second")));
        assertThat(runs.condition("accept-second", "RdmaEffective").getStatus()).isEqualTo("True");
    }

    @Test
    void aNodeThatDoesNotExistFailsAtOnce() {
        applyRun("accept-nowhere", "no-such-node", "", "");

        await("accept-nowhere Failed", WAIT, () -> "Failed".equals(runs.phase("accept-nowhere")));
        assertThat(runs.condition("accept-nowhere", "Complete").getReason()).isEqualTo("NodeNotFound");
    }

    @Test
    void theApiServerRefusesValuesThatWouldReachThePodAndChangesToTheSpec() {
        String base = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: accept-invalid
                spec:
                  nodeName: some-node
                  nvmeof: {nqn: "%s", address: "%s"%s}
                %s
                """;
        CommandResult badNqn = env.plane.kubectl().applyYaml(base.formatted("nqn.2014-08.org.example:t;reboot", "10.0.0.1", "", ""));
        assertThat(badNqn.succeeded()).isFalse();
        assertThat(badNqn.stderr()).contains("spec.nvmeof.nqn");
        CommandResult badAddress = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "-a", "", ""));
        assertThat(badAddress.stderr()).contains("must be an IPv4 or IPv6 address");
        CommandResult badTransport = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.1",
                ", transports: [rdma, fc]", ""));
        assertThat(badTransport.stderr()).contains("spec.nvmeof.transports[1]");
        CommandResult twice = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.1",
                ", transports: [tcp, tcp]", ""));
        assertThat(twice.stderr()).contains("names a transport twice");
        CommandResult deepLatency = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.1", "",
                "  latency: {iodepth: 32}"));
        assertThat(deepLatency.stderr()).contains("latency runs one job at iodepth 1");
        CommandResult longRun = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.1", "",
                "  bandwidth: {durationSeconds: 3600}"));
        assertThat(longRun.stderr()).contains("spec.bandwidth.durationSeconds");

        env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.1", "", "")).orThrow("valid run");
        CommandResult changed = env.plane.kubectl().applyYaml(base.formatted(NvmeofFixtures.TARGET_NQN, "10.0.0.2", "", ""));
        assertThat(changed.stderr()).contains("spec is immutable");
    }
}
