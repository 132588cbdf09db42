package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.operator.acceptance.AcceptancePods;
import io.rdmastorage.operator.acceptance.AcceptanceMarkdown;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.NodeFault;
import io.rdmastorage.testing.PodStatuses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The acceptance run's {@code path} target on the real API server: simulated kubelets run the real
 * node-probe {@code acceptance} against a fixture node whose "file system" moves the RDMA port's
 * counters or the NFS socket's bytes as the word in {@link AcceptanceFixtures#TRANSPORT_FILE}
 * says ({@link AcceptanceFixtures#pathNode}), so switching the transport between two runs is what
 * a GPFS daemon restart is on a real node, and the proof, the rows and the ratios come from the
 * probe's own document.
 */
class AcceptancePathLifecycleTest {

    private static final Duration WAIT = AcceptanceRuns.WAIT;
    private static final String DIRECTORY = "/gpfs/fs0/acceptance";

    private AcceptanceRuns runs;
    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        runs = AcceptanceRuns.start("acceptance-path");
        env = runs.env;
    }

    @AfterEach
    void stop() {
        runs.close();
    }

    /** A path node, its file system on rdma at first, TCP 4 times slower; returns its host. */
    private FixtureHost node(String name) {
        FixtureHost[] created = new FixtureHost[1];
        env.addFixtureNode(name, host -> {
            Path logs = host.root().resolveSibling(name + "-logs");
            try {
                Files.createDirectories(logs);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            AcceptanceFixtures.pathNode(host, DIRECTORY).file(DIRECTORY + "/results.csv", "the user's data\n");
            AcceptanceFixtures.pathFio(AcceptanceLauncher.fioOf(host.root()), host, logs, 4);
            created[0] = host;
            return host;
        });
        return created[0];
    }

    private static void switchTo(FixtureHost host, String transport) {
        host.file(AcceptanceFixtures.TRANSPORT_FILE, transport + "\n");
    }

    /** {@code path}: more fields of the path section, YAML. */
    private void applyRun(String name, String node, String directory, String path) {
        String yaml = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: %s
                spec:
                  nodeName: %s
                  path:
                    directory: %s/
                    fileSizeMiB: 16
                %s
                  latency: {durationSeconds: 5}
                  iops: {durationSeconds: 5, jobs: 4, iodepth: 8}
                  bandwidth: {durationSeconds: 5}
                """.formatted(name, node, directory, path.isEmpty() ? "" : "    " + path);
        env.plane.kubectl().applyYaml(yaml).orThrow("kubectl apply acceptance " + name);
    }

    private static List<String> entries(FixtureHost host) throws IOException {
        try (Stream<Path> files = Files.list(host.path(DIRECTORY))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A directory outside the admin's prefixes (/gpfs/ here) is refused before any pod, on the real API server. */
    @Test
    void aDirectoryOutsideTheAdminsPrefixesIsRefusedBeforeAnyPod() throws IOException {
        FixtureHost host = node("gpfs-02");
        host.mkdir("/etc/kubernetes/manifests");
        applyRun("gpfs-02-etc", "gpfs-02", "/etc/kubernetes/manifests", "");

        await("gpfs-02-etc Failed", WAIT, () -> "Failed".equals(runs.phase("gpfs-02-etc")));
        assertThat(runs.condition("gpfs-02-etc", "Complete").getReason()).isEqualTo("OutsideAdminBounds");
        assertThat(runs.condition("gpfs-02-etc", "Complete").getMessage()).contains(
                "path.directory /etc/kubernetes/manifests/ is under none of the directories the cluster admin allows in "
                        + "acceptance.pathPrefixes: /gpfs/");
        assertThat(runs.pods("gpfs-02-etc")).isEmpty();
        try (var entries = Files.list(host.path("/etc/kubernetes/manifests"))) {
            assertThat(entries).isEmpty();
        }
    }

    @Test
    void aRunOverTcpThenOneOverRdmaComparedWithItGiveTheRatios() throws IOException {
        FixtureHost host = node("gpfs-01");
        switchTo(host, "tcp");
        applyRun("gpfs-01-tcp", "gpfs-01", DIRECTORY, "");

        await("gpfs-01-tcp Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("gpfs-01-tcp")));

        RdmaStorageAcceptance tcp = runs.run("gpfs-01-tcp");
        assertThat(tcp.getStatus().getTransports()).singleElement().satisfies(row -> {
            assertThat(row.getTransport()).as(row.getProblem()).isEqualTo("tcp");
            assertThat(row.getDevice()).isEqualTo(DIRECTORY + "/rdmastorage-acceptance-gpfs-01-tcp.fio");
            assertThat(row.getTraffic()).contains("rxe0/1 0 packets", "storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) 120000000000 bytes");
        });
        assertThat(runs.condition("gpfs-01-tcp", "Complete").getMessage()).startsWith("measured over tcp")
                .contains("written for the run and removed after it");
        Condition alone = runs.condition("gpfs-01-tcp", "RdmaEffective");
        assertThat(alone.getStatus()).isEqualTo("Unknown");
        assertThat(alone.getReason()).isEqualTo("NoComparison");
        assertThat(alone.getMessage()).contains("cannot switch its transport without restarting its daemon", "path.compareWith");
        assertThat(entries(host)).as("the run's file is removed, the user's left").containsExactly("results.csv");
        assertThat(runs.events("gpfs-01-tcp")).contains("Normal Started", "Normal Completed");

        // the file system switched to RDMA (on GPFS: verbsRdma enable, mmshutdown, mmstartup)
        switchTo(host, "rdma");
        applyRun("gpfs-01-rdma", "gpfs-01", DIRECTORY, "compareWith: gpfs-01-tcp");
        await("gpfs-01-rdma Running", WAIT, () -> !env.admin.pods().inNamespace(env.namespace)
                .withLabel(RdmaStorageAcceptance.RUN_LABEL, "gpfs-01-rdma").list().getItems().isEmpty()
                || "Succeeded".equals(runs.phase("gpfs-01-rdma")));
        await("gpfs-01-rdma Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("gpfs-01-rdma")));

        RdmaStorageAcceptance rdma = runs.run("gpfs-01-rdma");
        List<AcceptanceTransportResult> rows = rdma.getStatus().getTransports();
        assertThat(rows).extracting(AcceptanceTransportResult::getTransport).containsExactly("rdma", "tcp");
        assertThat(rows).extracting(AcceptanceTransportResult::getRun).containsExactly(null, "gpfs-01-tcp");
        assertThat(rows.get(1).getLatencyP50Micros()).isEqualTo(tcp.getStatus().getTransports().get(0).getLatencyP50Micros());
        Condition effective = runs.condition("gpfs-01-rdma", "RdmaEffective");
        assertThat(effective.getStatus()).isEqualTo("True");
        assertThat(effective.getMessage()).contains("rdma 103 µs vs tcp 412 µs", "4.00× lower");
        assertThat(rdma.getStatus().getRatios().getLatency()).isEqualTo(4.0);
        assertThat(rdma.getStatus().getRatios().getCpuPerIo()).isCloseTo(4.0, within(0.01));
        String record = env.admin.configMaps().inNamespace(env.namespace).withName(AcceptancePods.reportName("gpfs-01-rdma"))
                .get().getData().get(AcceptanceMarkdown.KEY);
        assertThat(record).contains("- Target: directory " + DIRECTORY + "/", "| rdma | tcp (gpfs-01-tcp) | TCP/RDMA |",
                "| 4 KiB random read, depth 1: p50 latency (µs) | 103 | 412 | 4.00x |",
                "fio --name=latency --filename=FILE --readonly --direct=1",
                "The run's only write: " + DIRECTORY + "/rdmastorage-acceptance-gpfs-01-rdma.fio (16 MiB)");
        assertThat(entries(host)).containsExactly("results.csv");
        CommandResult get = env.plane.kubectl().run("get", "rdmastorageacceptance", "gpfs-01-rdma");
        assertThat(get.stdout()).contains("TARGET", "path " + DIRECTORY + "/", "Succeeded", "4");

        // both over the same transport: no comparison, whatever the numbers
        applyRun("gpfs-01-rdma-again", "gpfs-01", DIRECTORY, "compareWith: gpfs-01-rdma");
        await("gpfs-01-rdma-again Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("gpfs-01-rdma-again")));
        Condition same = runs.condition("gpfs-01-rdma-again", "RdmaEffective");
        assertThat(same.getStatus()).isEqualTo("Unknown");
        assertThat(same.getReason()).isEqualTo("SameTransport");
        assertThat(same.getMessage()).contains("both went over rdma");
        assertThat(runs.run("gpfs-01-rdma-again").getStatus().getRatios()).isNull();
    }

    @Test
    void aCompareWithThatIsMissingFailedOrElsewhereIsRefusedBeforeAnythingRuns() throws IOException {
        FixtureHost host = node("gpfs-02");
        node("gpfs-03");
        applyRun("cmp-missing", "gpfs-02", DIRECTORY, "compareWith: no-such-run");
        await("cmp-missing Failed", WAIT, () -> "Failed".equals(runs.phase("cmp-missing")));
        Condition missing = runs.condition("cmp-missing", "Complete");
        assertThat(missing.getReason()).isEqualTo("CompareWithInvalid");
        assertThat(missing.getMessage()).contains("no-such-run, which does not exist");
        assertThat(runs.run("cmp-missing").getStatus().getPodName()).as("no pod was created").isNull();
        assertThat(runs.events("cmp-missing")).containsExactly("Warning CompareWithInvalid");

        // a run that failed: its directory does not exist on the node
        applyRun("gpfs-02-nodir", "gpfs-02", "/gpfs/fs1/absent", "");
        await("gpfs-02-nodir Failed", WAIT, () -> "Failed".equals(runs.phase("gpfs-02-nodir")));
        assertThat(runs.condition("gpfs-02-nodir", "Complete").getMessage()).contains("does not exist on the node");
        applyRun("cmp-failed", "gpfs-02", "/gpfs/fs1/absent", "compareWith: gpfs-02-nodir");
        await("cmp-failed Failed", WAIT, () -> "Failed".equals(runs.phase("cmp-failed")));
        assertThat(runs.condition("cmp-failed", "Complete").getMessage())
                .contains("gpfs-02-nodir is Failed; only a Succeeded run's numbers are compared");

        // a Succeeded run on another node is other hardware
        applyRun("gpfs-03-rdma", "gpfs-03", DIRECTORY, "");
        await("gpfs-03-rdma Succeeded", WAIT, () -> "Succeeded".equals(runs.phase("gpfs-03-rdma")));
        applyRun("cmp-elsewhere", "gpfs-02", DIRECTORY, "compareWith: gpfs-03-rdma");
        await("cmp-elsewhere Failed", WAIT, () -> "Failed".equals(runs.phase("cmp-elsewhere")));
        assertThat(runs.condition("cmp-elsewhere", "Complete").getMessage()).contains("ran on node gpfs-03, not gpfs-02");
        assertThat(entries(host)).containsExactly("results.csv");
    }

    @Test
    void theRunsPodGetsItsDirectoryReadWriteAndNothingElse() {
        FixtureHost host = node("gpfs-04");
        env.cluster.setFault("gpfs-04", NodeFault.PROBE_HANGS);
        applyRun("gpfs-04-pod", "gpfs-04", DIRECTORY, "");
        await("gpfs-04-pod Running", WAIT, () -> !env.admin.pods().inNamespace(env.namespace)
                .withLabel(RdmaStorageAcceptance.RUN_LABEL, "gpfs-04-pod").list().getItems().isEmpty());

        Pod pod = env.admin.pods().inNamespace(env.namespace).withLabel(RdmaStorageAcceptance.RUN_LABEL, "gpfs-04-pod")
                .list().getItems().get(0);
        List<VolumeMount> writable = pod.getSpec().getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> !Boolean.TRUE.equals(m.getReadOnly())).toList();
        // and the journal's directory: what the run is about to change is written there first
        assertThat(writable).extracting(VolumeMount::getMountPath).containsExactlyInAnyOrder("/tmp", "/host" + DIRECTORY,
                "/host" + CleanupSchema.JOURNAL_DIRECTORY);
        assertThat(pod.getSpec().getVolumes()).filteredOn(v -> v.getHostPath() != null)
                .extracting(v -> v.getHostPath().getPath() + " " + v.getHostPath().getType())
                .containsExactlyInAnyOrder("/ Directory", DIRECTORY + " Directory",
                        CleanupSchema.JOURNAL_DIRECTORY + " DirectoryOrCreate");
        assertThat(pod.getSpec().getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(host.path(DIRECTORY).toFile().isDirectory()).isTrue();
    }

    /**
     * A run whose pod was SIGKILLed after it created its file (its journal on the node says so, as
     * node-probe writes it before creating the file): the run ends ProbeFailed, and the cleanup pod,
     * the real node-probe {@code acceptance-cleanup} on the fixture node, removes the file and the
     * journal and nothing else.
     */
    @Test
    void aRunKilledAfterItCreatedItsFileIsCleanedUpFromItsJournal() throws IOException {
        FixtureHost host = node("gpfs-05");
        env.cluster.setFault("gpfs-05", NodeFault.PROBE_HANGS);
        applyRun("gpfs-05-killed", "gpfs-05", DIRECTORY, "");
        await("gpfs-05-killed's pod", WAIT, () -> !runs.pods("gpfs-05-killed").isEmpty()
                && "Running".equals(runs.phase("gpfs-05-killed")));
        assertThat(runs.run("gpfs-05-killed").getStatus().getPendingCleanup().getFile())
                .isEqualTo(DIRECTORY + "/rdmastorage-acceptance-gpfs-05-killed.fio");

        // what the probe had done when it was killed: its journal written, then its file created
        String uid = runs.run("gpfs-05-killed").getMetadata().getUid();
        String file = DIRECTORY + "/rdmastorage-acceptance-gpfs-05-killed.fio";
        host.file(file, "the run's data\n").file(CleanupSchema.JOURNAL_DIRECTORY + "/" + uid + ".json",
                "{\"kind\":\"AcceptanceJournal\",\"runUid\":\"" + uid + "\",\"bootId\":\"\",\"controllers\":[],"
                        + "\"file\":\"" + file + "\"}");
        // its kubelet reports the container SIGKILLed: exit 137, no termination message
        Pod pod = runs.pods("gpfs-05-killed").get(0);
        pod.setStatus(PodStatuses.terminated(pod, "10.0.0.5", Instant.now().minusSeconds(5), Instant.now(),
                Map.of("node-probe", new PodStatuses.Exit(137, null))));
        env.admin.pods().inNamespace(env.namespace).resource(pod).updateStatus();
        env.cluster.setFault("gpfs-05", NodeFault.NONE);

        await("gpfs-05-killed cleaned up", WAIT, () -> runs.run("gpfs-05-killed").getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("CleanedUp") && c.getStatus().equals("True")));
        assertThat(runs.phase("gpfs-05-killed")).isEqualTo("Failed");
        assertThat(runs.condition("gpfs-05-killed", "Complete").getReason()).isEqualTo("ProbeFailed");
        assertThat(runs.condition("gpfs-05-killed", "CleanedUp").getMessage()).isEqualTo("removed " + file);
        assertThat(runs.run("gpfs-05-killed").getStatus().getPendingCleanup()).isNull();
        assertThat(entries(host)).containsExactly("results.csv");
        assertThat(host.path(CleanupSchema.JOURNAL_DIRECTORY + "/" + uid + ".json")).doesNotExist();
        await("the cleanup pod and the spec deleted", WAIT, () -> runs.pods("gpfs-05-killed").isEmpty()
                && runs.configMap("rsa-gpfs-05-killed-spec") == null);
        assertThat(runs.events("gpfs-05-killed")).contains("Warning ProbeFailed", "Normal CleanupRunning", "Normal CleanedUp");
    }

    @Test
    void theApiServerRefusesADirectoryThatCouldEscapeOrIsNoFileSystem() {
        String base = """
                apiVersion: rdmastorage.io/v1alpha1
                kind: RdmaStorageAcceptance
                metadata:
                  name: path-invalid
                spec:
                  nodeName: some-node
                  path: {directory: "%s"}
                """;
        for (String bad : new String[] {"/gpfs/../etc", "gpfs/fs0", "/gpfs/fs0;reboot", "/gpfs/f s", "/gpfs/a:b", "/proc/sys",
                "/dev", "/" + "a".repeat(210)}) {
            CommandResult refused = env.plane.kubectl().applyYaml(base.formatted(bad));
            assertThat(refused.succeeded()).as(bad).isFalse();
            assertThat(refused.stderr()).as(bad).contains("spec.path.directory");
        }
        CommandResult both = env.plane.kubectl().applyYaml(base.formatted("/gpfs/fs0") .replace("  path:",
                "  nvmeof: {nqn: \"nqn.2014-08.org.example:t\", address: \"10.0.0.1\"}\n  path:"));
        assertThat(both.stderr()).contains("needs exactly one target");
        CommandResult badCompare = env.plane.kubectl().applyYaml(base.formatted("/gpfs/fs0").replace("\"}", "\", compareWith: \"-x\"}"));
        assertThat(badCompare.stderr()).contains("spec.path.compareWith");
        env.plane.kubectl().applyYaml(base.formatted("/gpfs/fs0/acceptance/")).orThrow("a valid directory");
    }
}
