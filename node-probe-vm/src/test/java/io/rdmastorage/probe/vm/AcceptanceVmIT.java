package io.rdmastorage.probe.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.ReportSchema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The acceptance run on a real kernel: fio (the probe image's) against the nvme-rdma and nvme-tcp
 * controllers of the VM's one nvmet subsystem, the host's real /proc/stat around each workload,
 * {@code nvme connect}/{@code disconnect} by the probe in its pod's view of the node (host root at
 * /host, chroot, host network). Under TCG the numbers say nothing about RDMA against TCP, so this
 * asserts the pipeline (real fio numbers and CPU deltas in the document) and the cleanup (what the
 * probe did not connect is still there; a stopped path run removes its file), not the speedup. The
 * {@code path} target runs on the node's NFS mount over tcp: the counters name the transport, and
 * the run's one file is gone afterwards. The runs over rdma (nvmeof with {@code connect: true},
 * path on NFS over rdma) run in pods real kubelets start: the operator's {@code RealKubeletVmIT};
 * the verbs target's two commands in {@link VerbsAcceptanceVmIT}.
 */
@Order(2)
class AcceptanceVmIT extends VmNodeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NQN = RealKernelNodeVmIT.NQN;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(400);

    private static String spec(boolean connect) {
        return "{\"nvmeof\":{\"nqn\":\"" + NQN + "\",\"address\":\"192.0.2.1\",\"port\":4420,\"transports\":[\"rdma\",\"tcp\"],"
                + "\"connect\":" + connect + "},\"latency\":{\"durationSeconds\":5},"
                + "\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},\"bandwidth\":{\"durationSeconds\":5}}";
    }

    /** node-probe acceptance as the pod runs it (host network: nvme-tcp's sockets live in the connecting netns). */
    private static VmNode.Result acceptance(String spec) {
        String encoded = Base64.getEncoder().encodeToString(spec.getBytes(StandardCharsets.UTF_8));
        return vm.run("bash /mnt/share/scenario.sh probe " + encoded + " --host-network -- acceptance --tool-timeout 30s",
                RUN_TIMEOUT);
    }

    private static void assertMeasured(JsonNode transport) {
        for (String workload : new String[] {"latency", "iops", "bandwidth"}) {
            JsonNode w = transport.path(workload);
            assertThat(w.path("iops").asDouble()).as("%s %s iops in %s", transport.path("transport"), workload, transport)
                    .isPositive();
            assertThat(w.path("bytesPerSecond").asLong()).isPositive();
            // the host's real /proc/stat moved during the run: some CPU was busy, none of it invented
            assertThat(w.path("coresBusy").asDouble()).isPositive().isLessThanOrEqualTo(2.0);
            assertThat(w.path("sysPercent").asDouble()).isBetween(0.0, 100.0);
        }
        assertThat(transport.path("latency").path("p50Micros").asDouble()).isPositive();
        assertThat(transport.path("latency").path("p99Micros").asDouble())
                .isGreaterThanOrEqualTo(transport.path("latency").path("p50Micros").asDouble());
    }

    private static final String NFS_MOUNT = "/mnt/nfs";

    private static String pathSpec() {
        return pathSpec("");
    }

    /** @param more further fields of the spec, each with its leading comma */
    private static String pathSpec(String more) {
        return "{\"path\":{\"directory\":\"" + NFS_MOUNT + "/\",\"fileSizeMiB\":16,\"fileName\":\"rdmastorage-acceptance-vm.fio\"},"
                + "\"latency\":{\"durationSeconds\":5},\"iops\":{\"durationSeconds\":5,\"jobs\":2,\"iodepth\":8},"
                + "\"bandwidth\":{\"durationSeconds\":5}" + more + "}";
    }

    /** As the path run's pod has it: the host root read-only, the named directory read-write (its hostPath volume). */
    private static VmNode.Result pathAcceptance(String spec) {
        String encoded = Base64.getEncoder().encodeToString(spec.getBytes(StandardCharsets.UTF_8));
        return vm.run("bash /mnt/share/scenario.sh probe " + encoded + " --writable " + NFS_MOUNT
                + " -- acceptance --tool-timeout 30s", RUN_TIMEOUT);
    }

    private static String nfsEntries() {
        return vm.run("ls -A " + NFS_MOUNT, Duration.ofSeconds(30)).requireSuccess("ls").stdout().strip();
    }

    @Test
    void aPathOnNfsOverTcpIsMeasuredOverTcpAndItsFileRemoved() throws Exception {
        // over rdma (and the nvmeof target with connect: true) in pods real kubelets run: the operator's RealKubeletVmIT
        for (String transport : new String[] {"tcp"}) {
            scenario("reset").requireSuccess("scenario.sh reset");
            vm.run("bash /mnt/share/scenario.sh nfs-mount " + transport, Duration.ofSeconds(120))
                    .requireSuccess("nfs-mount " + transport);
            String before = nfsEntries();

            // rxe0 the storage rail, rxe1 not: only the storage rail's counters are read (real sysfs)
            VmNode.Result run = pathAcceptance(pathSpec(",\"storageNics\":{\"devices\":[\"rxe0\"]}"));

            JsonNode doc = JSON.readTree(run.stdout());
            JsonNode row = doc.path("transports").get(0);
            assertThat(row.path("transport").asText()).as("%s\n%s", run.stdout(), run.stderr()).isEqualTo(transport);
            assertThat(doc.path("complete").asBoolean()).isTrue();
            assertThat(row.path("device").asText()).isEqualTo(NFS_MOUNT + "/rdmastorage-acceptance-vm.fio");
            assertMeasured(row);
            assertThat(row.path("traffic").asText()).contains(transport.equals("rdma")
                    ? "storage TCP (NVMe/TCP, NFS, GPFS, Lustre, BeeGFS) 0 bytes" : "RDMA ports rxe0/1 0 packets");
            assertThat(nfsEntries()).as("the run's file is gone, the export's own file untouched").isEqualTo(before);
            System.err.printf("vm-node path acceptance over NFS/%s (TCG, not meaningful): p50 %.0f µs; %s%n", transport,
                    row.path("latency").path("p50Micros").asDouble(), row.path("traffic").asText());
        }
    }

    @Test
    void aPathRunStoppedMidRunRemovesItsFile() throws Exception {
        vm.run("bash /mnt/share/scenario.sh nfs-mount tcp", Duration.ofSeconds(120)).requireSuccess("nfs-mount tcp");
        String before = nfsEntries();
        String encoded = Base64.getEncoder().encodeToString(pathSpec().replace("\"durationSeconds\":5}}",
                "\"durationSeconds\":120}}").getBytes(StandardCharsets.UTF_8));
        // SIGTERM to the probe's JVM once fio's bandwidth workload runs, as the kubelet stops a pod at its deadline
        VmNode.Result run = vm.run("(bash /mnt/share/scenario.sh probe " + encoded + " --writable " + NFS_MOUNT
                + " -- acceptance --tool-timeout 30s > /tmp/path-run.out 2>&1 &) ; "
                + "for i in $(seq 600); do pgrep -f -- '--name=bandwidth' >/dev/null && break; sleep 0.5; done; "
                + "ls -A " + NFS_MOUNT + "; pkill -TERM -f 'node-probe.jar acceptance'; "
                + "for i in $(seq 120); do pgrep -f 'node-probe.jar acceptance' >/dev/null || break; sleep 0.5; done; "
                + "echo ---; ls -A " + NFS_MOUNT + "; echo ---; pgrep -f -- '--name=bandwidth' || echo 'no fio'; "
                // should the hook have missed fio, it would read on for two minutes
                + "pkill -f -- '--name=bandwidth'; sleep 1; echo ---; tail -n 20 /tmp/path-run.out", RUN_TIMEOUT);

        String[] parts = run.stdout().split("---", 4);
        assertThat(parts[0]).as(run.stdout() + run.stderr()).contains("rdmastorage-acceptance-vm.fio");
        String probeOutput = "\nthe probe's output ends:\n" + (parts.length > 3 ? parts[3] : run.stdout() + run.stderr());
        // fio first, then the file: removed while fio still read it, NFS would keep it as a .nfsXXXX
        assertThat(parts[2].strip()).as("the shutdown hook stops fio" + probeOutput).isEqualTo("no fio");
        assertThat(parts[1].strip()).as("removed by the shutdown hook" + probeOutput).isEqualTo(before);
    }

    @Test
    void aControllerConnectedBeforeTheRunIsMeasuredAndLeftConnected() throws Exception {
        vm.run("bash /mnt/share/scenario.sh connect rdma", Duration.ofSeconds(60)).requireSuccess("nvme connect -t rdma");
        String before = vm.nvmeControllers();
        assertThat(before).contains(" rdma");
        boolean multipath = vm.run("cat /sys/module/nvme_core/parameters/multipath", Duration.ofSeconds(10))
                .stdout().strip().equals("Y");

        VmNode.Result run = acceptance(spec(true));

        JsonNode doc = JSON.readTree(run.stdout());
        JsonNode rdma = doc.path("transports").get(0);
        JsonNode tcp = doc.path("transports").get(1);
        assertThat(rdma.path("connectedByProbe").asBoolean()).as(run.stdout() + run.stderr()).isFalse();
        assertMeasured(rdma);
        assertThat(tcp.path("connectedByProbe").asBoolean()).isTrue();
        System.err.printf("vm-node acceptance beside a connected rdma controller: multipath %s, tcp: %s%n", multipath,
                tcp.path("problem").asText(tcp.path("traffic").asText()));
        if (multipath) {
            // both controllers are paths of one multipath head: the tcp run would not be tcp's alone
            assertThat(tcp.path("problem").asText()).contains("multipath head", "(rdma)");
            assertThat(doc.path("complete").asBoolean()).isFalse();
        } else {
            assertMeasured(tcp);
        }
        assertThat(doc.path("disconnected")).hasSize(1);
        assertThat(vm.nvmeControllers()).as("only the probe's own controller is gone").isEqualTo(before);
    }

    private static final String JOURNALS = "/var/lib/rdma-storage-operator/acceptance";

    /**
     * Starts node-probe {@code acceptance --run-uid UID} in the background as its pod would (the
     * journal directory and {@code writable} read-write), waits until the shell test {@code changed}
     * holds (the run has changed the node), and SIGKILLs it and its fio as a container's OOM kill or
     * {@code kill -9} would: no shutdown hook runs. Prints the journal as it was left.
     */
    private static VmNode.Result killedRun(String spec, String uid, String options, String changed) {
        String encoded = Base64.getEncoder().encodeToString(spec.getBytes(StandardCharsets.UTF_8));
        return vm.run("mkdir -p " + JOURNALS + "; (bash /mnt/share/scenario.sh probe " + encoded + " " + options
                + " --writable " + JOURNALS + " -- acceptance --run-uid " + uid + " --tool-timeout 30s > /tmp/" + uid
                + ".out 2>&1 &) ; for i in $(seq 600); do " + changed + " && break; sleep 0.5; done; pkill -KILL -f 'node-probe.jar acceptance'; pkill -KILL -x fio; "
                + "for i in $(seq 60); do pgrep -f 'node-probe.jar acceptance' >/dev/null || pgrep -x fio >/dev/null || break; "
                + "sleep 0.5; done; cat " + JOURNALS + "/" + uid + ".json", RUN_TIMEOUT);
    }

    /** node-probe acceptance-cleanup as the cleanup pod runs it (its spec is passed and not read). */
    private static VmNode.Result cleanup(String uid) {
        String encoded = Base64.getEncoder().encodeToString("{}".getBytes(StandardCharsets.UTF_8));
        return vm.run("bash /mnt/share/scenario.sh probe " + encoded + " --writable " + NFS_MOUNT + " --writable " + JOURNALS
                + " -- acceptance-cleanup --run-uid " + uid + " --tool-timeout 30s", Duration.ofSeconds(120));
    }

    @Test
    void aKilledRunIsUndoneFromItsJournal() throws Exception {
        vm.run("bash /mnt/share/scenario.sh nfs-mount tcp", Duration.ofSeconds(120)).requireSuccess("nfs-mount tcp");
        String nfsBefore = nfsEntries();
        String slow = "\"durationSeconds\":120}}";

        // killed while fio measures: past every refusal, so the run would have undone its connect itself had it
        // lived (a controller of the same subsystem connected beforehand makes the run refuse at once, as a
        // multipath head: no moment to kill it in)
        VmNode.Result nvmeof = killedRun(spec(true).replace("[\"rdma\",\"tcp\"]", "[\"tcp\"]")
                .replace("\"durationSeconds\":5}}", slow), "run-nvmeof-killed", "--host-network",
                "grep -Eqs '\"controller\" ?: ?\"nvme' " + JOURNALS + "/run-nvmeof-killed.json && pgrep -x fio >/dev/null");
        JsonNode nvmeofJournal = JSON.readTree(nvmeof.stdout());
        String controller = nvmeofJournal.path("controllers").get(0).path("controller").asText();
        assertThat(controller).as(nvmeof.stdout() + nvmeof.stderr()).startsWith("nvme");
        assertThat(vm.nvmeControllers()).as("the killed run's controller stays: no hook ran").contains(controller + " tcp");
        // connected by someone else after the run: the cleanup leaves it alone
        vm.run("bash /mnt/share/scenario.sh connect rdma", Duration.ofSeconds(60)).requireSuccess("nvme connect -t rdma");
        String others = vm.nvmeControllers().replace(controller + " tcp\n", "");
        assertThat(others).contains(" rdma");

        VmNode.Result path = killedRun(pathSpec().replace("\"durationSeconds\":5}}", slow), "run-path-killed",
                "--writable " + NFS_MOUNT, "[ -e " + NFS_MOUNT + "/rdmastorage-acceptance-vm.fio ]");
        assertThat(JSON.readTree(path.stdout()).path("file").asText()).as(path.stdout() + path.stderr())
                .isEqualTo(NFS_MOUNT + "/rdmastorage-acceptance-vm.fio");
        assertThat(nfsEntries()).as("the killed run's file stays: no hook ran").contains("rdmastorage-acceptance-vm.fio");

        VmNode.Result nvmeofCleanup = cleanup("run-nvmeof-killed");
        VmNode.Result pathCleanup = cleanup("run-path-killed");

        JsonNode undone = JSON.readTree(nvmeofCleanup.stdout());
        assertThat(undone.path("complete").asBoolean()).as(nvmeofCleanup.stdout() + nvmeofCleanup.stderr()).isTrue();
        assertThat(undone.path("disconnected")).extracting(JsonNode::asText).containsExactly(controller);
        assertThat(vm.nvmeControllers()).as("only the run's controller is gone, the one connected by someone else stays")
                .isEqualTo(others);
        JsonNode removed = JSON.readTree(pathCleanup.stdout());
        assertThat(removed.path("complete").asBoolean()).as(pathCleanup.stdout() + pathCleanup.stderr()).isTrue();
        assertThat(nfsEntries()).as("the killed run's file is gone, the export's own file untouched").isEqualTo(nfsBefore);
        assertThat(vm.run("ls -A " + JOURNALS, Duration.ofSeconds(30)).stdout().strip()).as("both journals removed").isEmpty();
        System.err.printf("vm-node killed runs undone from their journals: %s; %s%n", undone, removed);
    }
}
