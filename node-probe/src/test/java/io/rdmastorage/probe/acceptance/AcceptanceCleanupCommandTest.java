package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NvmeofFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead journal of an acceptance run ({@link AcceptanceJournal}) and
 * {@code acceptance-cleanup} ({@link AcceptanceCleanup}) on a fixture host
 * ({@link AcceptanceFixtures}: nvme0 local, nvme1 over rdma to the target, a stub nvme that connects
 * nvme2 over tcp): the real CLI. A killed run is a journal left on the host with what it had done.
 */
class AcceptanceCleanupCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UID = "0f5c2a9e-7d1b-4c3a-9e8f-1a2b3c4d5e6f";
    private static final String BOOT = "6c1d0e4a-2b3f-4a5c-8d9e-0f1a2b3c4d5e";
    private static final String DIRECTORY = "/data/acceptance";
    private static final String FILE = DIRECTORY + "/rdmastorage-acceptance-run-1.fio";
    private static final String JOURNAL_LOG = "journal.log";

    @TempDir
    Path dir;
    private FixtureHost host;

    @BeforeEach
    void node() {
        host = AcceptanceFixtures.node(FixtureHost.at(dir.resolve("host")), dir)
                .file(AcceptanceJournal.BOOT_ID, BOOT + "\n")
                .file(DIRECTORY + "/keep.txt", "the user's data\n");
    }

    /** nvme2 over tcp to the target, as the run's {@code nvme connect} left it. */
    private void runsControllerConnected() {
        AcceptanceFixtures.tcpConnected(host);
    }

    /** The journal a run killed after connecting nvme2 and creating its file left behind. */
    private void journal(String boot, String controller, boolean file) {
        journalOf(boot, "[" + tcpController("[\"nvme0\",\"nvme1\"]", controller) + "]", file);
    }

    /** A journal of this run on the host, as node-probe writes it. */
    private void journalOf(String boot, String controllers, boolean file) {
        host.file(AcceptanceJournal.hostPath(UID), "{\"kind\":\"AcceptanceJournal\",\"runUid\":\"" + UID + "\",\"bootId\":\"" + boot
                + "\",\"controllers\":" + controllers + (file ? ",\"file\":\"" + FILE + "\"" : "") + "}");
    }

    /** A tcp controller to the fixtures' target, announced with the controllers there {@code before}. */
    private static String tcpController(String before, String controller) {
        return "{\"transport\":\"tcp\",\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\""
                + NvmeofFixtures.TARGET_ADDRESS + "\",\"port\":" + NvmeofFixtures.TARGET_PORT + ",\"before\":" + before
                + ",\"controller\":\"" + controller + "\"}";
    }

    /** A tcp-only run that may connect. */
    private static String connectSpec() {
        return "{\"nvmeof\":{\"nqn\":\"" + NvmeofFixtures.TARGET_NQN + "\",\"address\":\"" + NvmeofFixtures.TARGET_ADDRESS
                + "\",\"port\":" + NvmeofFixtures.TARGET_PORT + ",\"transports\":[\"tcp\"],\"connect\":true},"
                + "\"latency\":{\"durationSeconds\":5},\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},"
                + "\"bandwidth\":{\"durationSeconds\":5}}";
    }

    private ProbeRun cleanup() {
        return ProbeRun.run(List.of("acceptance-cleanup", "--run-uid", UID, "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "test-node"), "");
    }

    private List<String> nvmeLog() throws IOException {
        Path p = dir.resolve(AcceptanceFixtures.NVME_LOG);
        return Files.exists(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
    }

    /** A fio that copies the journal as it stands while the run measures, then answers as the fixtures' fio. */
    private Path fioCopyingTheJournal() throws IOException {
        Path fio = dir.resolve("bin/fio");
        Path answer = AcceptanceFixtures.fio(dir.resolve("bin/fio-answer"), host, dir);
        Files.writeString(fio, "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path(AcceptanceJournal.hostPath(UID)).toString())
                + " >> " + FixtureHost.shQuote(dir.resolve(JOURNAL_LOG).toString()) + "; echo >> "
                + FixtureHost.shQuote(dir.resolve(JOURNAL_LOG).toString()) + "\nexec " + FixtureHost.shQuote(answer.toString())
                + " \"$@\"\n");
        assertThat(fio.toFile().setExecutable(true)).isTrue();
        return fio;
    }

    @Test
    void aPathRunRecordsItsFileBeforeCreatingItAndRemovesTheJournalWithTheFile() throws IOException {
        // /data is an NFS mount: a path run writes only on shared storage
        host.file(AcceptanceDirectory.MOUNTS, "/dev/vda1 / ext4 rw 0 0\n10.0.0.5:/export /data nfs4 rw,vers=4.2 0 0\n");
        String spec = "{\"path\":{\"directory\":\"" + DIRECTORY + "/\",\"fileSizeMiB\":16,\"fileName\":"
                + "\"rdmastorage-acceptance-run-1.fio\"},\"latency\":{\"durationSeconds\":5},"
                + "\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},\"bandwidth\":{\"durationSeconds\":5}}";

        ProbeRun run = ProbeRun.run(List.of("acceptance", "--run-uid", UID, "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "test-node", "--spec", "-", "--tool", "fio=" + fioCopyingTheJournal()), spec);

        // measured (which transport carried the reads is not proven on this node: not the point here)
        assertThat(JSON.readTree(run.stdout()).get("transports").get(0).get("latency")).as(run.stderr()).isNotNull();
        JsonNode during = JSON.readTree(Files.readAllLines(dir.resolve(JOURNAL_LOG)).get(0));
        assertThat(during.get("file").asText()).isEqualTo(FILE);
        assertThat(during.get("controllers")).isEmpty();
        assertThat(host.path(FILE)).doesNotExist();
        assertThat(host.path(AcceptanceJournal.hostPath(UID))).doesNotExist();
    }

    @Test
    void aConnectingRunWritesItsJournalBeforeTheChangeAndRemovesItOnceUndone() throws IOException {
        Path fio = fioCopyingTheJournal();

        ProbeRun run = ProbeRun.run(List.of("acceptance", "--run-uid", UID, "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "test-node", "--spec", "-", "--tool", "fio=" + fio), connectSpec());

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        JsonNode during = JSON.readTree(Files.readAllLines(dir.resolve(JOURNAL_LOG)).get(0));
        assertThat(during.get("kind").asText()).isEqualTo("AcceptanceJournal");
        assertThat(during.get("runUid").asText()).isEqualTo(UID);
        assertThat(during.get("bootId").asText()).isEqualTo(BOOT);
        JsonNode controller = during.get("controllers").get(0);
        assertThat(controller.get("transport").asText()).isEqualTo("tcp");
        assertThat(controller.get("nqn").asText()).isEqualTo(NvmeofFixtures.TARGET_NQN);
        assertThat(controller.get("address").asText()).isEqualTo(NvmeofFixtures.TARGET_ADDRESS);
        assertThat(controller.get("port").asInt()).isEqualTo(NvmeofFixtures.TARGET_PORT);
        assertThat(controller.get("controller").asText()).isEqualTo("nvme2");
        assertThat(controller.get("before")).extracting(JsonNode::asText).containsExactly("nvme0", "nvme1");
        assertThat(host.path(AcceptanceJournal.hostPath(UID))).doesNotExist();
        assertThat(host.path(AcceptanceJournal.DIRECTORY)).isEmptyDirectory();
    }

    @Test
    void aConnectThatMakesTwoControllersRecordsBoth() throws IOException {
        // this target answers on two paths: one connect, nvme2 and nvme3
        Path nvme = host.path("/usr/sbin/nvme");
        Files.writeString(nvme, Files.readString(nvme).replace(" \"$cls/nvme2\" ;;", " \"$cls/nvme2\"\n"
                + "  cp -r \"$ctl/nvme2\" \"$ctl/nvme3\"; mv \"$ctl/nvme3/nvme2n1\" \"$ctl/nvme3/nvme3n1\"\n"
                + "  ln -s ../../devices/virtual/nvme-fabrics/ctl/nvme3 \"$cls/nvme3\" ;;"));

        ProbeRun run = ProbeRun.run(List.of("acceptance", "--run-uid", UID, "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "test-node", "--spec", "-", "--tool", "fio=" + fioCopyingTheJournal()),
                connectSpec());

        JsonNode during = JSON.readTree(Files.readAllLines(dir.resolve(JOURNAL_LOG)).get(0));
        assertThat(during.get("controllers")).as(run.stderr()).extracting(c -> c.get("controller").asText())
                .containsExactly("nvme2", "nvme3");
        assertThat(during.get("controllers").get(1).get("before")).extracting(JsonNode::asText).containsExactly("nvme0", "nvme1");
        assertThat(nvmeLog()).contains("disconnect -d nvme2", "disconnect -d nvme3");
        assertThat(host.path(AcceptanceJournal.hostPath(UID))).doesNotExist();
    }

    @Test
    void aJournalThatCannotBeWrittenStopsTheConnectItWasToAnnounce() throws IOException {
        // a file where the journal's directory should be: nothing can be written there
        host.file("/var/lib/rdma-storage-operator", "not a directory\n");

        ProbeRun run = ProbeRun.run(List.of("acceptance", "--run-uid", UID, "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "test-node", "--spec", "-", "--tool",
                "fio=" + AcceptanceFixtures.fio(dir.resolve("bin/fio"), host, dir)), connectSpec());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(JSON.readTree(run.stdout()).get("message").asText()).contains("cannot write the run's journal");
        assertThat(nvmeLog()).isEmpty();
    }

    @Test
    void cleanupDisconnectsOnlyTheRunsControllerAndRemovesOnlyItsFile() throws IOException {
        runsControllerConnected();
        host.file(FILE, "the run's data\n");
        journal(BOOT, "nvme2", true);

        ProbeRun run = cleanup();

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("kind").asText()).isEqualTo("AcceptanceCleanup");
        assertThat(doc.get("complete").asBoolean()).isTrue();
        assertThat(doc.get("disconnected")).extracting(JsonNode::asText).containsExactly("nvme2");
        assertThat(doc.get("removed")).extracting(JsonNode::asText).containsExactly(FILE);
        assertThat(nvmeLog()).containsExactly("disconnect -d nvme2");
        assertThat(host.path("/sys/class/nvme/nvme1")).exists();
        assertThat(host.path(FILE)).doesNotExist();
        assertThat(host.path(DIRECTORY + "/keep.txt")).exists();
        assertThat(host.path(AcceptanceJournal.hostPath(UID))).doesNotExist();
    }

    @Test
    void aRunKilledBeforeItNamedItsControllerIsUndoneByTheControllersItDidNotHaveBefore() throws IOException {
        runsControllerConnected();
        journal(BOOT, "", false);

        ProbeRun run = cleanup();

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(nvmeLog()).containsExactly("disconnect -d nvme2");
        assertThat(host.path("/sys/class/nvme/nvme1")).exists();
    }

    @Test
    void aControllerConnectedBeforeTheRunIsNeverDisconnected() throws IOException {
        runsControllerConnected();
        // the journal says nvme2 was there before the connect it announced: not the run's
        journalOf(BOOT, "[" + tcpController("[\"nvme0\",\"nvme1\",\"nvme2\"]", "") + "]", false);

        ProbeRun run = cleanup();

        assertThat(run.exitCode()).isZero();
        assertThat(nvmeLog()).isEmpty();
        assertThat(JSON.readTree(run.stdout()).get("gone").get(0).asText()).contains("is no longer connected");
    }

    @Test
    void afterARebootNothingIsDisconnectedButTheFileIsRemoved() throws IOException {
        // nvme2 now is whatever connected after the reboot: not the run's
        runsControllerConnected();
        host.file(FILE, "the run's data\n");
        journal("a-boot-before-the-reboot", "nvme2", true);

        ProbeRun run = cleanup();

        assertThat(run.exitCode()).isZero();
        assertThat(nvmeLog()).isEmpty();
        assertThat(host.path("/sys/class/nvme/nvme2")).exists();
        assertThat(host.path(FILE)).doesNotExist();
        assertThat(JSON.readTree(run.stdout()).get("gone").get(0).asText()).contains("went with the node's reboot");
    }

    @Test
    void aFileReachedThroughALinkOrReplacedByOneIsNotRemovedAndTheJournalStays() throws IOException {
        host.file("/etc/important", "keep\n").symlink(FILE, "/etc/important");
        journalOf(BOOT, "[]", true);

        ProbeRun run = cleanup();

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(doc.get("problems").get(0).asText()).contains("not a regular file");
        assertThat(host.path("/etc/important")).hasContent("keep");
        assertThat(host.path(AcceptanceJournal.hostPath(UID))).exists();
    }

    @Test
    void withoutAJournalThereIsNothingToUndo() throws IOException {
        ProbeRun run = cleanup();

        assertThat(run.exitCode()).isZero();
        JsonNode doc = JSON.readTree(run.stdout());
        assertThat(doc.get("complete").asBoolean()).isTrue();
        assertThat(doc.get("disconnected")).isEmpty();
        assertThat(nvmeLog()).isEmpty();
    }

    @Test
    void cleanupNeedsTheRunsUidAndTakesNoOtherName() {
        assertThat(ProbeRun.run(List.of("acceptance-cleanup", "--host-root", host.root().toString()), "").exitCode())
                .isEqualTo(2);
        assertThat(ProbeRun.run(List.of("acceptance-cleanup", "--run-uid", "../../etc/passwd", "--host-root",
                host.root().toString()), "").exitCode()).isEqualTo(2);
    }
}
