package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.GdsFixtures;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GdsReadyCheckTest {

    @TempDir
    Path dir;

    private FixtureHost host() {
        return FixtureHost.at(dir);
    }

    private static JsonNode gds(FixtureHost host, String spec, String... args) {
        return ProbeRun.withSpec(host, spec, args).check("GdsReady");
    }

    @Test
    void healthyNodeIsReady() {
        JsonNode check = gds(GdsFixtures.healthy(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("reason").asText()).isEqualTo("GdsReady");
        assertThat(check.path("message").asText())
                .contains("nvidia_fs 2.27 loaded", "IOMMU disabled", "IBM Spectrum Scale: dmabuf, compat",
                        "GPU 0000:04:00.0 and mlx5_0 share PCIe switch 0000:01:00.0");
        assertThat(check.path("details").path("gdsVersion").asText()).isEqualTo("1.16.0.49");
    }

    @Test
    void composesWithTheRdmaAreaInEitherOrder() {
        // both areas lay out mlx5_0/mlx5_1 at the shared healthy-node PCIe addresses
        String spec = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"]}," + GdsFixtures.SPEC.substring(1);
        FixtureHost gdsFirst = RdmaFixtures.healthy(GdsFixtures.healthy(FixtureHost.at(dir.resolve("a"))));
        FixtureHost rdmaFirst = GdsFixtures.healthy(RdmaFixtures.healthy(FixtureHost.at(dir.resolve("b"))));

        for (FixtureHost host : new FixtureHost[] {gdsFirst, rdmaFirst}) {
            ProbeRun run = ProbeRun.withSpec(host, spec);
            assertThat(run.check("GdsReady").path("status").asText()).as(run.stdout()).isEqualTo("True");
            assertThat(run.check("RdmaDevices").path("status").asText()).as(run.stdout()).isEqualTo("True");
        }
    }

    @Test
    void healthyNodePassesTheStrictestSpec() {
        JsonNode check = gds(GdsFixtures.healthy(host()), GdsFixtures.STRICT_SPEC);

        assertThat(check.path("status").asText()).as(check.toString()).isEqualTo("True");
        assertThat(check.path("details").path("compatMode").asText()).isEqualTo("forbidden");
    }

    @Test
    void iommuEnabledIsNamedWithItsEvidence() {
        // constructed gdscheck output (see GdsFixtures.iommuEnabled)
        JsonNode check = gds(GdsFixtures.iommuEnabled(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("IommuEnabled");
        assertThat(check.path("message").asText())
                .contains("gdscheck: enabled", "cmdline: intel_iommu=on", "iommu_groups: 4", "Add intel_iommu=off", "reboot");
    }

    @Test
    void iommuMayStayOnWhenTheSpecAllowsIt() {
        JsonNode check = gds(GdsFixtures.iommuEnabled(host()),
                "{\"gds\":{\"filesystems\":[\"gpfs\"],\"requireIommuDisabled\":false}}");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("details").path("iommu").asText()).isEqualTo("enabled");
    }

    @Test
    void passthroughIsStillEnabledButTheMessageSaysWhereItIsSupported() {
        FixtureHost host = GdsFixtures.iommuEnabled(host());
        host.file("/proc/cmdline", "ro intel_iommu=on iommu=pt\n");

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("reason").asText()).isEqualTo("IommuEnabled");
        assertThat(check.path("message").asText()).contains("iommu=pt", "requireIommuDisabled: false");
    }

    @Test
    void iommuComesFromSysfsWhenGdscheckOutputIsCutShort() {
        // the recorded 1.7 excerpt ends before PLATFORM INFO; the healthy node's sysfs has no IOMMU groups
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").printsSample("gds/gdscheck-p_1.7.1.12_nvme-unsupported_issue31.txt");
        host.mkdir("/sys/kernel/iommu_groups/7");

        JsonNode check = gds(host, "{\"gds\":{}}");

        assertThat(check.path("reason").asText()).isEqualTo("IommuEnabled");
        assertThat(check.path("message").asText()).contains("iommu_groups: 1").doesNotContain("gdscheck:");
    }

    @Test
    void nvidiaFsMissing() {
        JsonNode check = gds(GdsFixtures.nvidiaFsMissing(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("NvidiaFsMissing");
        assertThat(check.path("message").asText())
                .contains("modprobe nvidia_fs", "only NVMe through PCI P2PDMA", "Also: FilesystemUnsupported");
        assertThat(check.path("details").path("nvidiaFs").asText()).isEqualTo("not loaded");
    }

    @Test
    void gpfsUnsupportedNamesTheRowAndTheFix() {
        JsonNode check = gds(GdsFixtures.filesystemUnsupported(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("FilesystemUnsupported");
        assertThat(check.path("message").asText())
                .contains("gpfs (IBM Spectrum Scale: Unsupported)", "compat mode", "mmchconfig verbsGPUDirectStorage=yes");
    }

    @Test
    void compatOnlyModeListIsUnsupported() {
        // GDS 1.16 prints "NVMeOF : compat" where nvidia-fs does not serve NVMe-oF: the silent fallback
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").printsSample("gds/gdscheck-p_1.16.0.49_nvidia-doc-newformat.txt");

        JsonNode check = gds(host, "{\"gds\":{\"filesystems\":[\"gpfs\",\"nvmeof\"]}}");

        assertThat(check.path("reason").asText()).isEqualTo("FilesystemUnsupported");
        assertThat(check.path("message").asText()).contains("nvmeof (NVMeOF: compat)").doesNotContain("gpfs (");
    }

    @Test
    void stockNvmeDriverIsNotRegistered() {
        JsonNode check = gds(GdsFixtures.backendNotRegistered(host()), GdsFixtures.NVME_SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("BackendNotRegistered");
        assertThat(check.path("message").asText())
                .contains("lists only wekafsio", "exports no nvme_v1_register_nvfs_dma_ops/nvme_v2_register_nvfs_dma_ops",
                        "stock driver", "--with-nvmf", "modprobe -r nvidia_fs && modprobe nvidia_fs",
                        "Also: FilesystemUnsupported");
    }

    @Test
    void driverLoadedAfterNvidiaFsNeedsAReload() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.file("/proc/driver/nvidia-fs/modules", "nvme_rdma: (null)\nwekafsio: 1\n");

        JsonNode check = gds(host, GdsFixtures.NVME_SPEC);

        assertThat(check.path("reason").asText()).isEqualTo("BackendNotRegistered");
        assertThat(check.path("message").asText())
                .contains("exports nvme_v1_register_nvfs_dma_ops", "loaded after nvidia-fs", "Reload nvidia-fs");
    }

    @Test
    void withoutTheModulesFileKallsymsDecides() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.delete("/proc/driver/nvidia-fs/modules");

        assertThat(gds(host, GdsFixtures.NVME_SPEC).path("status").asText()).isEqualTo("True");

        host.file("/proc/kallsyms", "ffffffffc0a41000 t nvme_pci_complete_rq\t[nvme]\n");
        JsonNode stock = gds(host, GdsFixtures.NVME_SPEC);
        assertThat(stock.path("reason").asText()).isEqualTo("BackendNotRegistered");
        assertThat(stock.path("message").asText()).contains("stock driver");

        host.delete("/proc/kallsyms");
        JsonNode unknown = gds(host, GdsFixtures.NVME_SPEC);
        assertThat(unknown.path("status").asText()).isEqualTo("Unknown");
        assertThat(unknown.path("reason").asText()).isEqualTo("BackendRegistrationUnknown");
    }

    @Test
    void nfsOverRdmaNeedsRpcrdmaRegistered() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").printsSample("gds/gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt");

        JsonNode check = gds(host, "{\"gds\":{\"filesystems\":[\"nfs\"]}}");

        assertThat(check.path("reason").asText()).isEqualTo("BackendNotRegistered");
        assertThat(check.path("message").asText()).contains("rpcrdma", "--with-nfsrdma");
    }

    @Test
    void crossSwitchExplainsBothPaths() {
        JsonNode check = gds(GdsFixtures.crossSwitch(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("CrossSwitchTopology");
        assertThat(check.path("message").asText())
                .contains("GPU 0000:08:00.0 at " + GdsFixtures.GPU_OTHER_SWITCH)
                .contains("mlx5_0 at " + GdsFixtures.MLX5_0)
                .contains("meet only at root complex pci0000:00", "nvidia-smi topo -m");
    }

    @Test
    void aSwitchPortThatRedirectsPeerTrafficIsPcieAcsRedirectNamingTheBridgeAndThePair() {
        JsonNode check = gds(GdsFixtures.acsRedirect(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("PcieAcsRedirect");
        assertThat(check.path("message").asText())
                .contains("bridge 0000:02:00.0 (ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- "
                        + "DirectTrans-) between GPU 0000:04:00.0 and mlx5_0 (0000:03:00.0)")
                .contains("setpci -s 0000:02:00.0 ECAP_ACS+0x6.w=0000");
        assertThat(check.path("details").path("pcieAcsRedirect").get(0).asText()).isEqualTo("0000:02:00.0: ReqRedir+ CmpltRedir+");
    }

    @Test
    void switchPortsWithAcsOffPassAndSaySo() {
        JsonNode check = gds(GdsFixtures.healthy(host()), GdsFixtures.SPEC);

        assertThat(check.path("message").asText()).contains("GPU 0000:04:00.0 and mlx5_0 share PCIe switch 0000:01:00.0, "
                + "ACS redirect off on the 3 bridge(s) between them");
    }

    @Test
    void switchPortsWhoseConfigANonRootReaderCannotSeeAreUnknown() {
        JsonNode check = gds(GdsFixtures.acsUnreadable(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("PcieAcsUnreadable");
        assertThat(check.path("message").asText()).contains("bridge 0000:02:01.0 between GPU 0000:04:00.0 and mlx5_0",
                "config holds 64 bytes", "CAP_SYS_ADMIN");
    }

    @Test
    void acsIsJudgedOnlyWithTheSameSwitchRequirement() {
        JsonNode check = gds(GdsFixtures.acsRedirect(host()), "{\"gds\":{\"filesystems\":[\"gpfs\"]}}");

        assertThat(check.path("status").asText()).isEqualTo("True");
    }

    @Test
    void aCrossingGpuWhileANamedNicIsMissingIsUnknownNotCrossSwitch() {
        // rdma.devices names mlx5_2, which the node does not have: it may be the NIC under the GPU's switch
        String spec = "{\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\",\"mlx5_2/1\"]}," + GdsFixtures.SPEC.substring(1);

        JsonNode check = gds(GdsFixtures.crossSwitch(host()), spec);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("TopologyUnknown");
        assertThat(check.path("message").asText()).contains("GPU 0000:08:00.0 at " + GdsFixtures.GPU_OTHER_SWITCH,
                "mlx5_2 (rdma.devices) is not in /sys/class/infiniband");
    }

    @Test
    void topologyOnlyCheckedWhenRequired() {
        JsonNode check = gds(GdsFixtures.crossSwitch(host()), "{\"gds\":{\"filesystems\":[\"gpfs\"]}}");

        assertThat(check.path("status").asText()).isEqualTo("True");
    }

    @Test
    void topologyUnknownWithoutGpuInSysfs() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.delete("/sys/bus/pci/devices/0000:04:00.0");

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("TopologyUnknown");
    }

    @Test
    void gdscheckMissingFailsARequiredSection() {
        JsonNode check = gds(GdsFixtures.gdscheckMissing(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("GdscheckNotFound");
        assertThat(check.path("message").asText()).contains("gds-tools", "--tool gdscheck=PATH");
    }

    @Test
    void gdscheckMissingInDiscoveryIsUnknown() {
        // nvidia-fs is there, so the node has GDS to look at
        JsonNode check = ProbeRun.on(GdsFixtures.gdscheckMissing(host())).check("GdsReady");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("GdscheckNotFound");
    }

    @Test
    void discoveryReportsAHealthyNode() {
        JsonNode check = ProbeRun.on(GdsFixtures.healthy(host())).check("GdsReady");

        assertThat(check.path("status").asText()).isEqualTo("True");
        assertThat(check.path("message").asText()).contains("served directly: NVMe, NVMeOF, FSx Lustre, IBM Spectrum Scale, WekaFS");
    }

    @Test
    void noGdsNoCheckInDiscovery() {
        assertThat(ProbeRun.on(host().mkdir("/proc")).hasCheck("GdsReady")).isFalse();
    }

    @Test
    void versionedCudaInstallWithOnlyThePythonTool() {
        // CUDA 12.x installs gdscheck.py beside gdscheck; some installs have no /usr/local/cuda link
        FixtureHost host = GdsFixtures.gdscheckMissing(host());
        host.tool("/usr/local/cuda-12.8/gds/tools/gdscheck.py").on("-p").prints(GdsFixtures.healthyGdscheck());

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("True");
    }

    @Test
    void compatModeAllowedOnlyFailsWhenForbidden() {
        assertThat(gds(GdsFixtures.compatModeAllowed(host()), GdsFixtures.SPEC).path("status").asText()).isEqualTo("True");

        JsonNode check = gds(GdsFixtures.compatModeAllowed(host()), GdsFixtures.STRICT_SPEC);

        assertThat(check.path("status").asText()).isEqualTo("False");
        assertThat(check.path("reason").asText()).isEqualTo("CompatModeAllowed");
        assertThat(check.path("message").asText()).contains("/etc/cufile.json", "\"allow_compat_mode\": false");
    }

    @Test
    void compatModeDefaultsToAllowedWhenCufileJsonOmitsIt() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.file("/etc/cufile.json", "{\n  // nothing but logging\n  \"logging\": {\"level\": \"ERROR\"},\n}\n");

        JsonNode check = gds(host, GdsFixtures.STRICT_SPEC);

        assertThat(check.path("reason").asText()).isEqualTo("CompatModeAllowed");
        assertThat(check.path("message").asText()).contains("unset, which defaults to true");
    }

    @Test
    void forcedCompatModeAlwaysFails() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.file("/etc/cufile.json", "{ \"properties\": { \"allow_compat_mode\": true, \"force_compat_mode\": true } }");

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("reason").asText()).isEqualTo("CompatModeForced");
        assertThat(check.path("message").asText()).contains("GDS is never used");
    }

    @Test
    void leadingWarnLineIsTolerated() {
        // libcufile prints this line before the report when it cannot open its log file (seen on a GDS 1.13 host)
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p")
                .prints("warn: error opening log file: Permission denied, logging will be disabled\n"
                        + GdsFixtures.healthyGdscheck());

        assertThat(gds(host, GdsFixtures.SPEC).path("status").asText()).isEqualTo("True");
    }

    @Test
    void garbageIsUnparseable() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").prints("Segmentation fault\n\u0001\u0002 ???\n");

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("OutputUnparseable");
    }

    @Test
    void failingGdscheckWithoutReportIsToolFailed() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").fails(1, "cuInit failed: CUDA_ERROR_NO_DEVICE\n");

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolFailed");
        assertThat(check.path("message").asText()).contains("CUDA_ERROR_NO_DEVICE", "gdscheck -p");
    }

    @Test
    void hangingGdscheckTimesOut() {
        FixtureHost host = GdsFixtures.healthy(host());
        host.tool(GdsFixtures.GDSCHECK).on("-p").hangs();

        JsonNode check = gds(host, GdsFixtures.SPEC, "--tool-timeout", "1s");

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("ToolTimedOut");
    }

    @Test
    void everyRecordedGdscheckOutputGivesAVerdict() {
        for (String sample : new String[] {
                "gds/gdscheck-p_1.0.1.3_quadro-vm-oldformat.txt",
                "gds/gdscheck-p_1.10.0.4_a100-nvme-nvmeof-nfs.txt",
                "gds/gdscheck-p_1.14.0.30_h200-all-unsupported_issue75.txt",
                "gds/gdscheck-p_1.14.0.30_rtx6000x4-coyote2.txt",
                "gds/gdscheck-p_1.15.0.42_l40s-vm-p2pdma.txt",
                "gds/gdscheck-p_1.16.0.49_nvidia-doc-newformat.txt",
                "gds/gdscheck-p_1.7.1.12_nvme-unsupported_issue31.txt"}) {
            FixtureHost host = GdsFixtures.healthy(host());
            host.tool(GdsFixtures.GDSCHECK).on("-p").prints(Samples.body(sample));

            JsonNode check = gds(host, "{\"gds\":{\"filesystems\":[\"nvme\"]}}");

            assertThat(check.path("reason").asText()).as(sample)
                    .isIn("GdsReady", "NvidiaFsMissing", "FilesystemUnsupported", "BackendNotRegistered");
        }
    }

    // ---- issue 13 ------------------------------------------------------------------------------

    @Test
    void gdscheckAndTheKernelDisagreeingOnTheIommuIsNotACleanTrue() {
        JsonNode check = gds(GdsFixtures.iommuDisputed(host()), GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("SourcesDisagree");
        assertThat(check.path("message").asText()).contains("gdscheck -p says the IOMMU is disabled",
                "12 IOMMU group(s)", "2 IOMMU unit(s)", "intel_iommu=on");
        assertThat(check.path("details").path("iommuEvidence").asText())
                .isEqualTo("gdscheck: disabled; cmdline: intel_iommu=on; iommu_groups: 12; iommu units: 2");
    }

    @Test
    void aHostWithoutSysCannotShowThePcieTopology() {
        FixtureHost host = io.rdmastorage.probe.testing.NodeScenarios.sysNotMounted(GdsFixtures.healthy(host()));

        JsonNode check = gds(host, GdsFixtures.SPEC);

        assertThat(check.path("status").asText()).isEqualTo("Unknown");
        assertThat(check.path("reason").asText()).isEqualTo("HostViewMissing");
        assertThat(check.path("message").asText()).contains("the host's /sys is not visible");
    }
}
