package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Measurement;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.GpfsVerbs;
import org.junit.jupiter.api.Test;

class ChecksTest {

    @Test
    void theNodeProbeRunsOneCheckPerNodeProbeDescriptorInContractOrder() {
        assertThat(Checks.all()).extracting(Check::type).containsExactlyElementsOf(CheckType.measuredBy(Measurement.NODE_PROBE));
    }

    /** Every check test doubles as a test of its descriptor: a verdict it does not declare fails the build. */
    @Test
    void aVerdictTheDescriptorDoesNotDeclareFailsUnderTheTests() {
        assumeTrue(CheckResult.class.desiredAssertionStatus(), "the tests run with -ea");
        assertThat(CheckResult.builder(CheckType.GPFS_VERBS).condition(Status.FALSE, GpfsVerbs.TCP_FALLBACK, "m").build().reason())
                .isEqualTo("TcpFallback");
        assertThatThrownBy(() -> CheckResult.builder(CheckType.GPFS_VERBS).condition(Status.TRUE, GpfsVerbs.TCP_FALLBACK, "m").build())
                .isInstanceOf(AssertionError.class).hasMessageContaining("GpfsVerbs gave True TcpFallback");
        assertThatThrownBy(() -> CheckResult.builder(CheckType.GPFS_VERBS).condition(Status.FALSE, "PortDown", "m").build())
                .isInstanceOf(AssertionError.class).hasMessageContaining("does not declare");
    }
}
