package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.KernelCmdline;
import io.rdmastorage.probe.parse.LoadedModules;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.testing.GdsFixtures;
import io.rdmastorage.probe.testing.Samples;
import io.rdmastorage.probe.testing.ToolResults;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GdsReady's rules on fact records: gdscheck's output and the kernel's view side by side. */
class GdsReadyJudgeTest {

    private static final ProbeSpec GPFS = new ProbeSpec(null, null, null,
            new ProbeSpec.Gds(List.of("gpfs"), true, false, false), null, null);
    private static final String CMDLINE = "BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/sda1 ro";

    private static final GdsReadyCheck.KernelView KERNEL = kernel(OptionalInt.empty(), Optional.empty(), true, Set.of());

    private static GdsReadyCheck.KernelView kernel(OptionalInt units, Optional<String> modules, boolean nvfsProc,
                                               Set<HostView> missing) {
        return new GdsReadyCheck.KernelView(units, modules.map(LoadedModules::parse), nvfsProc, "/host", missing);
    }

    private static GdsReadyCheck.Facts facts(ToolResult gdscheck, String cmdline, int groups) {
        return facts(gdscheck, cmdline, groups, KERNEL);
    }

    private static GdsReadyCheck.Facts facts(ToolResult gdscheck, String cmdline, int groups, GdsReadyCheck.KernelView kernel) {
        return new GdsReadyCheck.Facts(gdscheck, Optional.of(KernelCmdline.parse(cmdline)), OptionalInt.of(groups),
                Optional.of(NvidiaFsModules.parse("nvme: (null)\nwekafsio: 1\n")), Optional.empty(),
                Optional.of(GdsFixtures.cufileJson(false)), GdsTopology.View.NOT_READ, kernel);
    }

    private static CheckResult verdict(GdsReadyCheck.Facts facts, ProbeSpec spec) {
        return new GdsReadyCheck().result(facts, spec);
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

    // ---- sources that disagree (issue 13) -------------------------------------------------------

    @Test
    void gdscheckSayingIommuDisabledAgainstAKernelThatRemapsIsNeverTrue() {
        // constructed: the recorded healthy output (IOMMU: disabled) on a kernel booted with intel_iommu=on
        // whose IOMMU groups are populated and whose two DMAR units are registered
        GdsReadyCheck.Facts facts = facts(healthyGdscheck(), CMDLINE + " intel_iommu=on", 12,
                kernel(OptionalInt.of(2), Optional.empty(), true, Set.of()));

        CheckResult result = verdict(facts, GPFS);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("gdscheck -p says the IOMMU is disabled",
                "12 IOMMU group(s) in /sys/kernel/iommu_groups", "2 IOMMU unit(s) in /sys/class/iommu",
                "intel_iommu=on in /proc/cmdline", "dmesg | grep -i -e DMAR -e IOMMU");
        assertThat(result.details()).containsEntry("iommu", "disputed");
    }

    @Test
    void gdscheckSayingIommuEnabledIsTheStrongerSourceAndFalse() {
        ToolResult enabled = ToolResults.printed("gdscheck -p",
                GdsFixtures.healthyGdscheck().replace("IOMMU: disabled", "IOMMU: enabled"));

        CheckResult result = verdict(facts(enabled, CMDLINE + " intel_iommu=off", 0), GPFS);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("IommuEnabled");
        assertThat(result.message()).contains("although the kernel shows it off (0 IOMMU group(s)");
    }

    @Test
    void nvidiaFsLoadedInTheKernelButNotSeenByGdscheckIsFalseNamingBoth() {
        // recorded: GDS 1.15 on a host without nvidia-fs, and lsmod of a host that has it loaded
        ToolResult run = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.15.0.42_l40s-vm-p2pdma.txt"));
        GdsReadyCheck.Facts facts = facts(run, CMDLINE, 0,
                kernel(OptionalInt.empty(), Optional.of(Samples.body("gds/lsmod-nvidia_fs_stelline.txt")), false, Set.of()));

        CheckResult result = verdict(facts, GPFS);

        assertThat(result.reason()).isEqualTo("NvidiaFsMissing");
        assertThat(result.message()).contains("although the kernel has the nvidia_fs module loaded (/proc/modules lists it)",
                "ls -l /dev/nvidia-fs*");
    }

    @Test
    void nvidiaFsSeenByGdscheckButAbsentFromTheKernelIsUnknown() {
        // recorded: the GDS 1.14 output (nvidia_fs 2.24) against lsmod of a host whose listing has no nvidia_fs
        ToolResult run = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.14.0.30_rtx6000x4-coyote2.txt"));
        String modules = "nvme_core             200704  1 nvme\nnvme_auth              28672  1 nvme_core\n";
        GdsReadyCheck.Facts facts = facts(run, CMDLINE, 0, kernel(OptionalInt.empty(), Optional.of(modules), false, Set.of()));

        CheckResult result = verdict(facts, new ProbeSpec(null, null, null,
                new ProbeSpec.Gds(List.of("nvme"), true, false, false), null, null));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("gdscheck -p shows nvidia_fs 2.24 loaded", "lsmod | grep nvidia_fs");
    }

    // ---- sources absent (issue 13) --------------------------------------------------------------

    @Test
    void noIommuStateAnywhereOnAHostWithoutSysIsHostViewMissing() {
        // the recorded 1.7 excerpt ends before PLATFORM INFO, so gdscheck says nothing about the IOMMU
        ToolResult run = ToolResults.printed("gdscheck -p", Samples.body("gds/gdscheck-p_1.7.1.12_nvme-unsupported_issue31.txt"));
        GdsReadyCheck.Facts facts = new GdsReadyCheck.Facts(run, Optional.empty(), OptionalInt.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), GdsTopology.View.NOT_READ,
                kernel(OptionalInt.empty(), Optional.empty(), false, Set.of(HostView.SYSFS, HostView.PROCFS, HostView.ETC)));

        CheckResult result = verdict(facts, ProbeSpec.discover());

        assertThat(result.details().get("problems")).asList().contains("HostViewMissing");
        assertThat(result.message()).doesNotContain("IommuStateUnknown");
    }

    @Test
    void compatModeIsNotAssumedWhenEtcCannotBeSeen() {
        String withoutCompatLines = GdsFixtures.healthyGdscheck().lines()
                .filter(l -> !l.contains("compat_mode")).reduce("", (a, b) -> a + b + "\n");
        GdsReadyCheck.Facts facts = new GdsReadyCheck.Facts(ToolResults.printed("gdscheck -p", withoutCompatLines),
                Optional.of(KernelCmdline.parse(CMDLINE + " intel_iommu=off")), OptionalInt.of(0), Optional.empty(),
                Optional.empty(), Optional.empty(), GdsTopology.View.NOT_READ,
                kernel(OptionalInt.empty(), Optional.empty(), true, Set.of(HostView.ETC)));

        CheckResult result = verdict(facts, new ProbeSpec(null, null, null,
                new ProbeSpec.Gds(List.of("gpfs"), true, false, true), null, null));

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("HostViewMissing");
        assertThat(result.message()).contains("the host's /etc is not visible");
    }
}
