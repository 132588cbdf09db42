package io.rdmastorage.probe.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.RealVerbsEnvironment;
import io.rdmastorage.probe.verbs.VerbsReport.DeviceTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real libibverbs through jnr-ffi (CI installs Debian's libibverbs1; build machines have no
 * HCA). Which outcome is asserted depends on what this machine really has; none is skipped.
 */
class LibibverbsTest {

    @Test
    void realLibraryAnswersCleanly() {
        VerbsReport report = UserspaceVerbs.system().probe(Map.of("mlx5_0", List.of(1)));

        // our own limit is always readable: the message for MemlockTooLow depends on it
        assertThat(report.memlock()).isPresent();
        if (!RealVerbsEnvironment.libraryInstalled()) {
            assertThat(report.loadProblem()).hasValueSatisfying(p -> assertThat(p).contains("ibverbs"));
            return;
        }
        assertThat(report.loadProblem()).as("libibverbs.so.1 is installed and must load").isEmpty();
        if (!RealVerbsEnvironment.devicesPresent()) {
            // without /sys/class/infiniband_verbs, rdma-core fails the list with ENOSYS; with an empty
            // one it returns an empty list: both are "no devices", and mlx5_0 cannot be listed
            if (report.listErrno().isPresent()) {
                assertThat(Errno.name(report.listErrno().getAsInt())).isEqualTo("ENOSYS");
            } else {
                assertThat(report.visible()).isEmpty();
                assertThat(report.tests()).extracting(t -> t.failure().orElseThrow().step())
                        .containsExactly(VerbsReport.Step.NOT_LISTED);
            }
            return;
        }
        // a machine with an HCA: the list works, and a listed device was really tested
        assertThat(report.listErrno()).isEmpty();
        assertThat(report.visible()).isNotEmpty();
        if (report.visible().contains("mlx5_0")) {
            DeviceTest test = report.tests().get(0);
            assertThat(test.failure().isEmpty() ? test.registeredBytes() : 1).isPositive();
        }
    }

    @Test
    void probingAgainGivesTheSameAnswer() {
        // the library is bound once per process, a failed load included; nothing is left open in between
        VerbsReport first = UserspaceVerbs.system().probe(Map.of());
        VerbsReport second = UserspaceVerbs.system().probe(Map.of());

        assertThat(second.loadProblem()).isEqualTo(first.loadProblem());
        assertThat(second.listErrno()).isEqualTo(first.listErrno());
        assertThat(second.visible()).isEqualTo(first.visible());
        assertThat(second.tests()).isEmpty();
    }

    @Test
    void errnoNames() {
        assertThat(Errno.name(12)).isEqualTo("ENOMEM");
        assertThat(Errno.name(1)).isEqualTo("EPERM");
        assertThat(Errno.name(0)).isEqualTo("no errno");
        assertThat(Errno.name(4242)).isEqualTo("errno 4242");
    }
}
