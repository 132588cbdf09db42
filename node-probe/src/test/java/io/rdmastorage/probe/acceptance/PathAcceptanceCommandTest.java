package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.cli.NodeProbe;
import io.rdmastorage.probe.testing.AcceptanceFixtures;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.ProbeRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance command's {@code path} target on a fixture host: the real CLI, a temporary
 * directory as the file system, a stub fio that logs its argv and the size of the file it was
 * given (and then answers as {@link AcceptanceFixtures#fio} does). No storage counters exist on
 * this host, so the transport stays unproven here; which transport the counters name is
 * {@link PathTransportProofTest}'s, and the real thing is on the VM node (AcceptanceVmIT).
 */
class PathAcceptanceCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DIRECTORY = "/data/acceptance";
    private static final String FILE = DIRECTORY + "/rdmastorage-acceptance-run-1.fio";
    private static final String FILES_LOG = "fio-files.log";

    @TempDir
    Path dir;
    private FixtureHost host;
    private Path fio;

    @BeforeEach
    void node() throws IOException {
        host = FixtureHost.at(dir.resolve("host")).sampleFile("/proc/stat", "proc/stat_2cpu_pair-1s_before.txt")
                .file(DIRECTORY + "/keep.txt", "the user's data\n")
                // /data is an NFS mount: a path run writes only on shared storage
                .file(AcceptanceDirectory.MOUNTS, "/dev/vda1 / ext4 rw 0 0\n10.0.0.5:/export /data nfs4 rw,vers=4.2 0 0\n");
        fio = fioLoggingItsFile(AcceptanceFixtures.fio(dir.resolve("bin/fio-answer"), host, dir));
    }

    /** A fio that writes the size of its --filename (or "absent") to the log, then answers as {@code answer}. */
    private Path fioLoggingItsFile(Path answer) throws IOException {
        Path script = dir.resolve("bin/fio");
        Files.writeString(script, "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --filename=*) f=\"${a#--filename=}\"\n"
                + "  if [ -f \"$f\" ]; then wc -c < \"$f\"; else echo absent; fi >> "
                + FixtureHost.shQuote(dir.resolve(FILES_LOG).toString()) + ";; esac; done\n"
                + "exec " + FixtureHost.shQuote(answer.toString()) + " \"$@\"\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        return script;
    }

    private static String spec(int fileSizeMiB) {
        return "{\"path\":{\"directory\":\"" + DIRECTORY + "/\",\"fileSizeMiB\":" + fileSizeMiB
                + ",\"fileName\":\"rdmastorage-acceptance-run-1.fio\"},\"latency\":{\"durationSeconds\":5},"
                + "\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},\"bandwidth\":{\"durationSeconds\":5}}";
    }

    private List<String> arguments(Path fioTool) {
        return new ArrayList<>(List.of("acceptance", "--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "test-node", "--spec", "-", "--tool", "fio=" + fioTool));
    }

    private List<String> log(String name) throws IOException {
        Path p = dir.resolve(name);
        return Files.exists(p) ? Files.readAllLines(p, StandardCharsets.UTF_8) : List.of();
    }

    private List<String> directoryEntries() throws IOException {
        try (Stream<Path> entries = Files.list(host.path(DIRECTORY))) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void laysOutItsOneFileReadsItReadOnlyAndRemovesIt() throws IOException {
        ProbeRun run = ProbeRun.run(arguments(fio), spec(16));

        JsonNode doc = JSON.readTree(run.stdout());
        JsonNode row = doc.get("transports").get(0);
        assertThat(row.get("device").asText()).isEqualTo(FILE);
        // every workload read the laid-out file, 16 MiB of it, read-only, bypassing the page cache
        assertThat(log(FILES_LOG)).as(run.stderr()).containsExactly("16777216", "16777216", "16777216");
        List<String> calls = log(AcceptanceFixtures.FIO_LOG);
        assertThat(calls).hasSize(3).allSatisfy(c -> assertThat(c)
                .contains("--filename=" + host.path(FILE), "--readonly", "--direct=1").containsPattern("--rw=(rand)?read "));
        assertThat(row.get("latency").get("p50Micros").asDouble()).isEqualTo(102.912);
        assertThat(row.get("iops").get("coresBusy").asDouble()).isPositive();
        // this host has no RDMA port and no ss: the numbers are not attributed to a transport
        assertThat(row.get("transport").asText()).isEqualTo("unknown");
        assertThat(row.get("problem").asText()).startsWith("which transport carried the reads is not proven");
        assertThat(doc.get("complete").asBoolean()).isFalse();
        assertThat(run.exitCode()).isEqualTo(1);
        // removed at the end; nothing else in the directory touched
        assertThat(directoryEntries()).containsExactly("keep.txt");
        assertThat(Files.readString(host.path(DIRECTORY + "/keep.txt"))).isEqualTo("the user's data\n");
    }

    @Test
    void aDirectoryBehindASymbolicLinkIsRefusedAndNothingIsWrittenThere() throws IOException {
        host.file("/etc/hostname", "gpu-07\n");
        Files.createSymbolicLink(host.path("/data/etc"), host.path("/etc"));

        ProbeRun run = ProbeRun.run(arguments(fio), spec(16).replace(DIRECTORY + "/", "/data/etc/"));

        assertThat(JSON.readTree(run.stdout()).get("transports").get(0).get("problem").asText())
                .isEqualTo("/data/etc is a symbolic link on the node; a run never writes through a link: name the directory "
                        + "itself in path.directory");
        assertThat(log(AcceptanceFixtures.FIO_LOG)).as("nothing measured").isEmpty();
        try (Stream<Path> entries = Files.list(host.path("/etc"))) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("hostname");
        }
    }

    @Test
    void aDirectoryOnALocalFileSystemIsRefused() throws IOException {
        host.file(AcceptanceDirectory.MOUNTS, "/dev/vda1 / ext4 rw 0 0\n10.0.0.5:/export /data nfs4 rw 0 0\n"
                + "/dev/nvme0n1p1 /data/acceptance xfs rw 0 0\n");

        ProbeRun run = ProbeRun.run(arguments(fio), spec(16));

        assertThat(JSON.readTree(run.stdout()).get("transports").get(0).get("problem").asText())
                .startsWith(DIRECTORY + "/ is on a local xfs file system (mounted at /data/acceptance)");
        assertThat(log(AcceptanceFixtures.FIO_LOG)).isEmpty();
        assertThat(directoryEntries()).containsExactly("keep.txt");
    }

    @Test
    void aSpecOutsideTheAdminsBoundsIsRefusedOnTheNodeToo() throws IOException {
        String bounded = spec(16).replaceFirst("}$", ",\"bounds\":{\"pathPrefixes\":[\"/gpfs/\"],\"nvmeofAddresses\":[],"
                + "\"maxFileSizeMiB\":16384,\"maxDurationSeconds\":3600}}");

        ProbeRun run = ProbeRun.run(arguments(fio), bounded);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("path.directory /data/acceptance/ is under none of the directories the cluster "
                + "admin allows in acceptance.pathPrefixes: /gpfs/");
        assertThat(directoryEntries()).containsExactly("keep.txt");
        assertThat(ProbeRun.run(arguments(fio), bounded.replace("/gpfs/", "/data/")).exitCode()).isEqualTo(1);
    }

    @Test
    void anExistingFileOfItsNameIsRefusedAndLeftAsItWas() throws IOException {
        host.file(FILE, "someone else's file\n");

        ProbeRun run = ProbeRun.run(arguments(fio), spec(16));

        JsonNode row = JSON.readTree(run.stdout()).get("transports").get(0);
        assertThat(row.get("problem").asText()).startsWith(FILE + " already exists; the run never overwrites a file")
                .contains("rm " + FILE);
        assertThat(log(AcceptanceFixtures.FIO_LOG)).as("nothing measured").isEmpty();
        assertThat(Files.readString(host.path(FILE))).isEqualTo("someone else's file\n");
        assertThat(directoryEntries()).containsExactly("keep.txt", "rdmastorage-acceptance-run-1.fio");
        assertThat(run.exitCode()).isEqualTo(1);
    }

    @Test
    void aLinkOfItsNameIsNotFollowed() throws IOException {
        Path elsewhere = dir.resolve("elsewhere.txt");
        Files.writeString(elsewhere, "not to be written\n");
        Files.createSymbolicLink(host.path(FILE), elsewhere);

        ProbeRun run = ProbeRun.run(arguments(fio), spec(16));

        assertThat(JSON.readTree(run.stdout()).get("transports").get(0).get("problem").asText()).contains("already exists");
        assertThat(Files.readString(elsewhere)).isEqualTo("not to be written\n");
        assertThat(Files.isSymbolicLink(host.path(FILE))).isTrue();
    }

    @Test
    void theFileIsRemovedWhenFioFails() throws IOException {
        ProbeRun run = ProbeRun.run(arguments(fioLoggingItsFile(AcceptanceFixtures.failingFio(dir.resolve("bin/fio-fails")))),
                spec(16));

        JsonNode row = JSON.readTree(run.stdout()).get("transports").get(0);
        assertThat(row.get("problem").asText()).startsWith("latency: 'fio --name=latency");
        assertThat(row.has("latency")).as("no numbers from a failed fio").isFalse();
        assertThat(log(FILES_LOG)).as("fio had the file").containsExactly("16777216");
        assertThat(directoryEntries()).containsExactly("keep.txt");
    }

    @Test
    void aMissingDirectoryIsReportedAndNothingIsCreated() throws IOException {
        String spec = spec(16).replace(DIRECTORY + "/", "/data/absent/");

        ProbeRun run = ProbeRun.run(arguments(fio), spec);

        assertThat(JSON.readTree(run.stdout()).get("transports").get(0).get("problem").asText())
                .contains("/data/absent/rdmastorage-acceptance-run-1.fio does not exist on the node");
        assertThat(Files.exists(host.path("/data/absent"))).isFalse();
    }

    @Test
    void aSpecWithADotDotDirectoryOrAForeignFileNameIsRefusedBeforeAnyWrite() throws IOException {
        ProbeRun dotDot = ProbeRun.run(arguments(fio), spec(16).replace(DIRECTORY + "/", "/data/../etc"));
        ProbeRun foreign = ProbeRun.run(arguments(fio), spec(16).replace("rdmastorage-acceptance-run-1.fio", "passwd"));
        ProbeRun pseudo = ProbeRun.run(arguments(fio), spec(16).replace(DIRECTORY + "/", "/proc/sys"));

        assertThat(dotDot.exitCode()).isEqualTo(2);
        assertThat(dotDot.stderr()).contains("path.directory");
        assertThat(foreign.exitCode()).isEqualTo(2);
        assertThat(foreign.stderr()).contains("path.fileName");
        assertThat(pseudo.exitCode()).isEqualTo(2);
        assertThat(log(FILES_LOG)).isEmpty();
    }

    /** SIGTERM, as the kubelet sends it at the run's deadline or deletion: the shutdown hook removes the file. */
    @Test
    void theFileIsRemovedWhenTheProbeIsStoppedMidRun() throws Exception {
        stopMidRun("");
    }

    /**
     * A fio that does not end on SIGTERM (one blocked in a read does not) is killed after the grace,
     * and the file removed only once it is gone: the probe's JVM exits after it, never beside it.
     */
    @Test
    void aFioThatIgnoresSigtermIsKilledBeforeTheFileIsRemoved() throws Exception {
        stopMidRun("trap '' TERM\n");   // ignored by the shell and so by the sleep it becomes

        long fio = Long.parseLong(Files.readString(dir.resolve("fio-started")).strip());
        assertThat(ProcessHandle.of(fio).filter(ProcessHandle::isAlive)).as("fio, after the probe exited").isEmpty();
    }

    /** Starts the probe with a fio that runs {@code preamble} and then sleeps, stops it with SIGTERM once fio runs. */
    private void stopMidRun(String preamble) throws Exception {
        Path slowFio = dir.resolve("bin/fio-slow");
        Files.writeString(slowFio, "#!/bin/sh\n" + preamble + "echo $$ > " + FixtureHost.shQuote(dir.resolve("fio-started").toString())
                + "\nexec sleep 20\n");
        assertThat(slowFio.toFile().setExecutable(true)).isTrue();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NodeProbe.class.getName()));
        command.addAll(arguments(slowFio));
        Process probe = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("probe.out").toFile()).start();
        probe.getOutputStream().write(spec(16).getBytes(StandardCharsets.UTF_8));
        probe.getOutputStream().close();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(dir.resolve("fio-started")) && System.nanoTime() < deadline && probe.isAlive()) {
            Thread.sleep(50);
        }
        assertThat(Files.exists(dir.resolve("fio-started"))).as(String.join("\n", log("probe.out"))).isTrue();
        assertThat(directoryEntries()).contains("rdmastorage-acceptance-run-1.fio");

        probe.destroy();   // SIGTERM

        assertThat(probe.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(directoryEntries()).containsExactly("keep.txt");
    }
}
