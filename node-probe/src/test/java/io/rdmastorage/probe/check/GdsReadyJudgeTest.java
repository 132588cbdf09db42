package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.KernelCmdline;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import io.rdmastorage.probe.spec.ProbeSpec;
import io.rdmastorage.probe.testing.GdsFixtures;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.ToolResults;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** GdsReady's rules on fact records: gdscheck's output and the kernel's view side by side. */
class GdsReadyJudgeTest {

    private static final ProbeSpec GPFS = new ProbeSpec(null, null, null,
            new ProbeSpec.Gds(List.of("gpfs"), true, false, false), null, null);
    private static final String CMDLINE = "BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/sda1 ro";

    private static GdsReadyCheck.Facts facts(ToolResult gdscheck, String cmdline, int groups) {
        return new GdsReadyCheck.Facts(gdscheck, Optional.of(KernelCmdline.parse(cmdline)), OptionalInt.of(groups),
                Optional.of(NvidiaFsModules.parse("nvme: (null)\nwekafsio: 1\n")), Optional.empty(),
                Optional.of(GdsFixtures.cufileJson(false)), Map.of(), Map.of());
    }

    private static CheckResult verdict(GdsReadyCheck.Facts facts, ProbeSpec spec) {
        return new GdsReadyCheck().verdict(facts, spec);
    }

    private static ToolResult healthyGdscheck() {
        return ToolResults.printed("/usr/local/cuda/gds/tools/gdscheck -p", GdsFixtures.healthyGdscheck());
    }

    @Test
    void healthyGdscheckWithIommuOffIsReady() {
        CheckResult result = verdict(facts(healthyGdscheck(), CMDLINE + " intel_iommu=off", 0), GPFS);

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.details().get("iommuEvidence")).isEqualTo("gdscheck: disabled; cmdline: intel_iommu=off; iommu_groups: 0");
    }

    @Test
    void recordedAllUnsupportedOutputFailsTheFilesystem() {
        ToolResult run = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.14.0.30_h200-all-unsupported_issue75.txt"));

        CheckResult result = verdict(facts(run, CMDLINE, 0), GPFS);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("FilesystemUnsupported");
    }

    @Test
    void missingGdscheckIsFalseOnlyWhenTheSectionAsksForGds() {
        GdsReadyCheck.Facts facts = facts(ToolResults.notFound("gdscheck -p"), CMDLINE, 0);

        assertThat(verdict(facts, GPFS).status()).isEqualTo(Status.FALSE);
        assertThat(verdict(facts, ProbeSpec.discover()).status()).isEqualTo(Status.UNKNOWN);
        assertThat(verdict(facts, ProbeSpec.discover()).reason()).isEqualTo("GdscheckNotFound");
    }

    @Test
    void aHangingGdscheckIsUnknownWithTheCommand() {
        CheckResult result = verdict(facts(ToolResults.timedOut("gdscheck -p"), CMDLINE, 0), GPFS);

        assertThat(result.reason()).isEqualTo("ToolTimedOut");
        assertThat(result.details()).containsEntry("command", "gdscheck -p");
    }
}
