package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.KernelCmdline.IommuRequest;
import org.junit.jupiter.api.Test;

class KernelCmdlineTest {

    private static IommuRequest iommu(String cmdline) {
        return KernelCmdline.parse(cmdline).iommu();
    }

    @Test
    void iommuRequests() {
        assertThat(iommu("BOOT_IMAGE=/vmlinuz-6.8.0 root=UUID=1 ro quiet splash\n")).isEqualTo(IommuRequest.UNSPECIFIED);
        assertThat(iommu("ro intel_iommu=off")).isEqualTo(IommuRequest.OFF);
        assertThat(iommu("ro amd_iommu=off")).isEqualTo(IommuRequest.OFF);
        assertThat(iommu("ro iommu=off")).isEqualTo(IommuRequest.OFF);
        assertThat(iommu("ro intel_iommu=on")).isEqualTo(IommuRequest.ON);
        assertThat(iommu("ro intel_iommu=on,sm_on")).isEqualTo(IommuRequest.ON);
        assertThat(iommu("ro amd_iommu=on")).isEqualTo(IommuRequest.ON);
        assertThat(iommu("ro intel_iommu=on iommu=pt")).isEqualTo(IommuRequest.PASSTHROUGH);
        assertThat(iommu("ro iommu.passthrough=1")).isEqualTo(IommuRequest.PASSTHROUGH);
        assertThat(iommu("ro iommu.passthrough=0")).isEqualTo(IommuRequest.ON);
        // off disables the hardware, whatever else is asked
        assertThat(iommu("ro iommu=pt intel_iommu=off")).isEqualTo(IommuRequest.OFF);
    }

    @Test
    void lastValueWins() {
        KernelCmdline c = KernelCmdline.parse("intel_iommu=on ro intel_iommu=off\t");

        assertThat(c.value("intel_iommu")).contains("off");
        assertThat(c.iommu()).isEqualTo(IommuRequest.OFF);
        assertThat(c.iommuParameters()).containsExactly("intel_iommu=on", "intel_iommu=off");
        assertThat(c.value("root")).isEmpty();
    }

    @Test
    void emptyCmdline() {
        assertThat(KernelCmdline.parse("").parameters()).isEmpty();
        assertThat(iommu("   \n")).isEqualTo(IommuRequest.UNSPECIFIED);
    }
}
