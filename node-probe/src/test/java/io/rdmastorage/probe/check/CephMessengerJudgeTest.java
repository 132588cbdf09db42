package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.testing.Samples;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** CephMessenger's rules on fact records. */
class CephMessengerJudgeTest {

    private static final ProbeSpec SPEC = new ProbeSpec(null, null, null, null, null, new ProbeSpec.Ceph());

    private static CheckResult verdict(Optional<String> conf) {
        return new CephMessengerCheck().result(new CephMessengerCheck.Facts("/host", true, conf), SPEC);
    }

    @Test
    void recordedAsyncRdmaConfIsExperimental() {
        CheckResult result = verdict(Optional.of(Samples.body("ceph/ceph-conf_async+rdma_cluster-only_bond.txt")));

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("ExperimentalRdmaMessenger");
    }

    @Test
    void noMessengerSetIsTheDefault() {
        CheckResult result = verdict(Optional.of("[global]\nfsid = x\n"));

        assertThat(result.status()).isEqualTo(Status.TRUE);
        assertThat(result.message()).contains("default async+posix");
    }

    @Test
    void unreadableConfIsUnknown() {
        assertThat(verdict(Optional.empty()).reason()).isEqualTo("ConfigUnreadable");
    }

    @Test
    void aHostWithoutEtcIsUnknownWithWhatToMount() {
        CheckResult result = new CephMessengerCheck().result(new CephMessengerCheck.Facts("/host", false, Optional.empty()), SPEC);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("HostViewMissing");
        assertThat(result.message()).contains("the host's /etc is not visible under the host root /host");
    }
}
