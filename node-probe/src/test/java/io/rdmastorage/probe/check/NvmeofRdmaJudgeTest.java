package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.parse.NvmeController;
import io.rdmastorage.contract.spec.ProbeSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NvmeofRdma's rules on fact records: controllers as sysfs shows them. */
class NvmeofRdmaJudgeTest {

    private static final String NQN = "nqn.2024-01.dev.wutz:target1";
    private static final ProbeSpec SPEC = new ProbeSpec(null, null,
            new ProbeSpec.Nvmeof(List.of(new ProbeSpec.Target(NQN, "10.68.20.10", null))), null, null, null);

    private static NvmeController controller(String name, String transport, String state) {
        return NvmeController.fromSysfs(name, Map.of("transport", transport, "address", "traddr=10.68.20.10,trsvcid=4420",
                "subsysnqn", NQN, "state", state));
    }

    private static CheckResult verdict(List<NvmeController> controllers) {
        return new NvmeofRdmaCheck().result(new NvmeofRdmaCheck.Facts("/host", true, controllers), SPEC);
    }

    @Test
    void liveRdmaControllerIsConnected() {
        CheckResult result = verdict(List.of(controller("nvme1", "rdma", "live")));

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).isEqualTo("connected over rdma and live: " + NQN + " at 10.68.20.10:4420 via nvme1");
    }

    @Test
    void aTcpPathBesideTheRdmaPathIsTheSilentFallback() {
        CheckResult result = verdict(List.of(controller("nvme1", "rdma", "live"), controller("nvme2", "tcp", "live")));

        assertThat(result.reason()).isEqualTo("TransportTcp");
        assertThat(result.message()).contains("beside the live rdma path nvme1");
    }

    @Test
    void connectingIsNotLive() {
        assertThat(verdict(List.of(controller("nvme1", "rdma", "connecting"))).reason()).isEqualTo("ControllerNotLive");
    }

    @Test
    void noControllerIsNotConnected() {
        assertThat(verdict(List.of()).reason()).isEqualTo("TargetNotConnected");
    }
}
