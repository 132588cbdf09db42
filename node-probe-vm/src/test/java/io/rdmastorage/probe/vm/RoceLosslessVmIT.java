package io.rdmastorage.probe.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * RoceLossless on a real kernel: the VM node (see {@link VmNode}) with soft-RoCE rxe0 on veth0.
 * What rxe has of the lossless class is rdma_cm's configfs default ToS, which the tests set through
 * {@code /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos} and undo afterwards (the value
 * written back, the directory removed; the shared VM's reset writes the kernel's default 0 back too). The rest has no source there, as on any NIC without DCB:
 * veth has no DCB operations (iproute2's dcb answers "Operation not supported", and Debian 12's
 * iproute2 6.1 has no {@code dcb apptrust} yet), there is no mlnx_qos and no mlx5 ECN sysfs. node-probe
 * runs as its pod does, in a network namespace of its own, so its dcb has to reach the host's. A
 * default ToS with another DSCP (False DefaultTosMismatch) is judged with the rest of a node fallen
 * back to tcp, in {@link RealKernelNodeVmIT}.
 */
@Order(6)
class RoceLosslessVmIT extends VmNodeTest {

    static final String SPEC = "{\"roce\":{\"dscp\":26,\"priority\":3,\"devices\":[\"rxe0/1\"]}}";
    static final String CONFIGFS_TOS = "/sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos";

    /** rxe0's default ToS before a test set it, to write back; null when the test set none. */
    String replacedTos;

    @AfterEach
    void undoTheToS() {
        if (replacedTos != null) {
            scenario("roce-tos-undo", "rxe0", replacedTos).requireSuccess("scenario.sh roce-tos-undo");
            String left = vm.run("ls /sys/kernel/config/rdma_cm", Duration.ofSeconds(30)).requireSuccess("ls").stdout();
            assertThat(left).as("rdma_cm configfs after the undo").doesNotContain("rxe0");
        }
    }

    void setTos(int tos) {
        replacedTos = scenario("roce-tos", "rxe0", Integer.toString(tos)).requireSuccess("scenario.sh roce-tos").stdout().strip();
        assertThat(vm.run("cat " + CONFIGFS_TOS, Duration.ofSeconds(30)).stdout().strip()).isEqualTo(Integer.toString(tos));
    }

    static JsonNode probe(List<String> problems) {
        VmNode.Result result = vm.run("bash /mnt/share/scenario.sh probe "
                + Base64.getEncoder().encodeToString(SPEC.getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(120));
        JsonNode check = new ProbeRun(result.exitCode(), result.stdout(), result.stderr()).check("RoceLossless");
        System.err.println("vm-node RoceLossless: " + check);
        check.path("details").path("problems").forEach(p -> problems.add(p.asText()));
        return check;
    }

    @Test
    void aDefaultTosCarryingTheStorageDscpLeavesTheVerdictToTheSettingsNoSourceShows() {
        setTos(104);   // DSCP 26 << 2
        List<String> problems = new ArrayList<>();

        JsonNode check = probe(problems);

        // ToS right, trust/DSCP map/PFC/ECN without a source: never True on no evidence
        assertThat(check.path("status").asText() + " " + check.path("reason").asText()).as(check.toString())
                .isEqualTo("Unknown LosslessConfigUnreadable");
        assertThat(problems).doesNotContain("DefaultTosMismatch");
        assertThat(check.path("details").path("ports").get(0).path("defaultTos").asInt()).isEqualTo(104);
        // dcb reached veth0 in the host's namespace (in the pod's it would be "No such device")
        assertThat(check.path("message").asText()).startsWith("rxe0/1 (veth0): trust state unreadable (")
                .contains("'dcb apptrust show dev veth0' exited 1: Object \"apptrust\" is unknown")
                .contains("'dcb -N app show dev veth0 dscp-prio' exited 1: Attribute read: Operation not supported")
                .contains("veth0's driver answers no DCB request").doesNotContain("No such device");
    }

    @Test
    void theEctBitsBesideTheStorageDscpAreNoMismatch() {
        setTos(106);   // DSCP 26 with ECT(0), what cma_roce_tos -t 106 sets
        List<String> problems = new ArrayList<>();

        JsonNode check = probe(problems);

        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigUnreadable");
        assertThat(problems).doesNotContain("DefaultTosMismatch");
        assertThat(check.path("details").path("ports").get(0).path("defaultTos").asInt()).isEqualTo(106);
    }

    @Test
    void withoutRdmaCmsConfigfsDirectoryTheTosIsUnreadableToo() {
        List<String> problems = new ArrayList<>();

        JsonNode check = probe(problems);

        assertThat(check.path("reason").asText()).isEqualTo("LosslessConfigUnreadable");
        assertThat(check.path("details").path("ports").get(0).has("defaultTos")).isFalse();
        assertThat(check.path("message").asText()).contains("rxe0/1 (veth0) ToS unreadable");
    }
}
