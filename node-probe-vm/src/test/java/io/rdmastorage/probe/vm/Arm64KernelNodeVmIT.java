package io.rdmastorage.probe.vm;

import static io.rdmastorage.probe.vm.RealKernelNodeVmIT.NQN;
import static io.rdmastorage.probe.vm.RealKernelNodeVmIT.TARGET_SPEC;
import static io.rdmastorage.probe.vm.RealKernelNodeVmIT.assertCheck;
import static io.rdmastorage.probe.vm.RealKernelNodeVmIT.probe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.ProbeRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * node-probe on an arm64 kernel, as on a Grace node: the VM node built for arm64 (Debian's arm64
 * kernel, its soft-RoCE and nvmet modules, the arm64 host userland and the arm64 probe image's root
 * file system: {@code vm-node/build.sh arm64}) booted under {@code qemu-system-aarch64} (TCG), and
 * the probe's own jar run by the image's arm64 JVM, with jnr-ffi's arm64 stub opening libibverbs.
 * One boot for the class; only what the real arm64 kernel and JVM answer, the rest of the storage
 * paths being the amd64 VM's ({@link RealKernelNodeVmIT}).
 */
@Order(1)   // the arm64 node first: its build is the longer one (the amd64 node is built beside it)
class Arm64KernelNodeVmIT extends VmNodeTest implements VmNodeTest.OwnGuest {

    /** The rdma path while a read runs: RDMA devices through libibverbs, the controller, the bytes on rxe. */
    static final String RDMA_PATH_SPEC = "{\"rdma\":{\"devices\":[\"rxe0/1\",\"rxe1/1\"],\"userspaceVerbs\":true},"
            + "\"nvmeof\":{\"targets\":[{\"nqn\":\"" + NQN + "\",\"address\":\"192.0.2.1\",\"port\":4420}]},"
            + "\"traffic\":{\"window\":\"5s\"}}";

    /** This class's guest: only it is closed at the end, never the shared amd64 one {@code vm} held before. */
    private static VmNode arm64;

    /** Its own arm64 guest instead of the shared amd64 one (run after VmNodeTest's, which leaves {@code vm} alone here). */
    @BeforeAll
    static void bootArm64() throws Exception {
        // a failed boot leaves no other class's guest in vm for this class's tests and @AfterAll
        vm = null;
        long start = System.nanoTime();
        arm64 = VmNode.bootWithBuiltProbe(Guest.ARM64);
        vm = arm64;
        System.err.printf("vm-node arm64: kernel %s, probe image ready in %.1f s%n", arm64.kernelVersion(),
                (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void shutDown() throws Exception {
        vm = null;   // the next class takes the shared amd64 guest (VmNodeTest)
        if (arm64 != null) {
            arm64.close();
            arm64 = null;
        }
    }

    @Test
    void theArm64KernelAndJvmProveTheRdmaPathWhileAReadRuns() {
        assertThat(vm.run("uname -m", java.time.Duration.ofSeconds(30)).stdout().strip()).isEqualTo("aarch64");
        scenario("connect", "rdma").requireSuccess("nvme connect -t rdma");
        scenario("storage-read").requireSuccess("storage read");

        ProbeRun run = probe(RDMA_PATH_SPEC);

        assertCheck(run, "RdmaDevices", "True", "PortsActive");
        assertThat(run.check("RdmaDevices").path("message").asText()).contains("rxe0/1", "rxe1/1");
        assertCheck(run, "NvmeofRdma", "True", "ConnectedOverRdma");
        assertCheck(run, "RdmaTraffic", "True", "DataOverRdma");
        assertThat(run.report().path("inventory").path("kernel").asText()).contains("arm64");
    }

    @Test
    void aControllerOnTcpIsTransportTcpOnArm64() {
        scenario("connect", "tcp").requireSuccess("nvme connect -t tcp");

        ProbeRun run = probe(TARGET_SPEC);

        assertCheck(run, "NvmeofRdma", "False", "TransportTcp");
    }

    @Test
    void verbsLatencyBetweenTwoRxePortsOnArm64() {
        ProbeRun client = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            client = RealKernelNodeVmIT.latencyPair()[0];
            JsonNode check = client.check("VerbsLatency");
            if (!check.path("status").asText().equals("Unknown")) {
                break;
            }
            // perftest's cycle-counter sample can be too noisy under TCG (every statistic inf): tried again
            assertCheck(client, "VerbsLatency", "Unknown", "OutputUnparseable");
        }
        assertCheck(client, "VerbsLatency", "True", "WithinThreshold");
        assertThat(client.check("VerbsLatency").path("details").path("linkType").asText()).isEqualTo("Ethernet");
    }
}
