package io.rdmastorage.probe.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * NfsRdma on a real kernel's NFS client and server: the VM node (see {@link VmNode}) serves a tmpfs
 * with nfsd, listening on tcp 2049 and on rdma 20049 over soft-RoCE, and mounts that export on
 * /mnt/nfs over one transport or the other. node-probe reads the host's /proc/1/mounts and
 * /proc/1/mountstats as its pod does, through /host. The JVM's shared boot: reset unmounts, and
 * keeps the NFS server running (as it keeps the nvmet target). The export mounted over rdma (True)
 * is judged in a probe pod a real kubelet runs, in the operator's RealKubeletVmIT, over tcp (False
 * MountNotRdma) with the rest of a node fallen back to tcp in {@link RealKernelNodeVmIT}; here, what
 * no mount at all gives.
 */
@Order(5)
class NfsOverRdmaVmIT extends VmNodeTest {

    static final String SPEC = "{\"nfs\":{\"mounts\":[\"/mnt/nfs\"]}}";

    static JsonNode probe() {
        VmNode.Result result = vm.run("bash /mnt/share/scenario.sh probe "
                + Base64.getEncoder().encodeToString(SPEC.getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(120));
        ProbeRun run = new ProbeRun(result.exitCode(), result.stdout(), result.stderr());
        JsonNode check = run.check("NfsRdma");
        System.err.println("vm-node NfsRdma: " + check);
        return check;
    }

    @Test
    void nothingMountedIsNotMounted() {
        JsonNode check = probe();

        assertThat(check.path("status").asText() + " " + check.path("reason").asText()).as(check.toString())
                .isEqualTo("False NotMounted");
    }
}
