package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class ProcLimitsTest {

    @Test
    void capturedContainerLimits() {
        ProcLimits limits = ProcLimits.parse(Samples.body("proc/limits_debian12-container_memlock-8MiB.txt"));

        assertThat(limits.get(ProcLimits.MAX_LOCKED_MEMORY)).contains(new ProcLimits.Limit(8388608, 8388608));
        assertThat(limits.get("Max stack size")).contains(new ProcLimits.Limit(8388608, ProcLimits.Limit.UNLIMITED));
        assertThat(limits.get("Max nice priority")).contains(new ProcLimits.Limit(0, 0));   // a row without units
        assertThat(limits.get("Limit")).isEmpty();                                          // the header
    }

    @Test
    void unlimitedAndTheOldDockerDefault() {
        // constructed in the kernel's format (fs/proc/base.c: "%-25s %-20s %-20s %-10s")
        String text = "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max locked memory         65536                unlimited            bytes     \r\n";

        ProcLimits.Limit memlock = ProcLimits.parse(text).get(ProcLimits.MAX_LOCKED_MEMORY).orElseThrow();

        assertThat(memlock.soft()).isEqualTo(65536);
        assertThat(memlock.softUnlimited()).isFalse();
        assertThat(memlock.hard()).isEqualTo(ProcLimits.Limit.UNLIMITED);
    }

    @Test
    void garbageGivesNoLimits() {
        assertThat(ProcLimits.parse("").limits()).isEmpty();
        assertThat(ProcLimits.parse("Max locked memory\nMax locked memory  lots  more  bytes\n\u0000\u0000").limits()).isEmpty();
    }
}
