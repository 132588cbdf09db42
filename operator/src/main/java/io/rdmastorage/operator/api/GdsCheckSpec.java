package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** GPUDirect Storage readiness: the probe's {@code gds} section. */
public class GdsCheckSpec {

    @JsonPropertyDescription("Filesystems nvidia-fs must serve: nvme, nvmeof, scsi, gpfs, nfs, lustre, beegfs, wekafs.")
    @Size(max = Rules.MAX_LIST)
    private List<GdsFilesystem> filesystems;

    @JsonPropertyDescription("The IOMMU must be off (default true).")
    @Default("true")
    private Boolean requireIommuDisabled;

    @JsonPropertyDescription("Each GPU must share a PCIe switch with an RDMA NIC.")
    private Boolean requireNicGpuSameSwitch;

    @JsonPropertyDescription("cufile.json allow_compat_mode (silent POSIX fallback) fails the check.")
    private Boolean forbidCompatMode;

    @JsonPropertyDescription("cuFile's own RDMA path (libcufile_rdma, cufile.json rdma_dev_addr_list) must be loaded, configured and up.")
    private Boolean requireUserspaceRdma;

    @JsonPropertyDescription("nvidia-fs's counters must show GDS I/O it served (IO stats enabled, reads or writes counted, not compat mode).")
    private Boolean verifyDataPath;

    public List<GdsFilesystem> getFilesystems() {
        return filesystems;
    }

    public void setFilesystems(List<GdsFilesystem> filesystems) {
        this.filesystems = filesystems;
    }

    public Boolean getRequireIommuDisabled() {
        return requireIommuDisabled;
    }

    public void setRequireIommuDisabled(Boolean requireIommuDisabled) {
        this.requireIommuDisabled = requireIommuDisabled;
    }

    public Boolean getRequireNicGpuSameSwitch() {
        return requireNicGpuSameSwitch;
    }

    public void setRequireNicGpuSameSwitch(Boolean requireNicGpuSameSwitch) {
        this.requireNicGpuSameSwitch = requireNicGpuSameSwitch;
    }

    public Boolean getForbidCompatMode() {
        return forbidCompatMode;
    }

    public void setForbidCompatMode(Boolean forbidCompatMode) {
        this.forbidCompatMode = forbidCompatMode;
    }

    public Boolean getRequireUserspaceRdma() {
        return requireUserspaceRdma;
    }

    public void setRequireUserspaceRdma(Boolean requireUserspaceRdma) {
        this.requireUserspaceRdma = requireUserspaceRdma;
    }

    public Boolean getVerifyDataPath() {
        return verifyDataPath;
    }

    public void setVerifyDataPath(Boolean verifyDataPath) {
        this.verifyDataPath = verifyDataPath;
    }
}
