package io.rdmastorage.operator.api;

import java.util.List;

/** GPUDirect Storage readiness: the probe's {@code gds} section. */
public class GdsCheckSpec {

    /** Filesystems nvidia-fs must serve: nvme, nvmeof, scsi, gpfs, nfs, lustre, beegfs, wekafs. */
    private List<String> filesystems;

    /** The IOMMU must be off (default true). */
    private Boolean requireIommuDisabled;

    /** Each GPU must share a PCIe switch with an RDMA NIC. */
    private Boolean requireNicGpuSameSwitch;

    /** cufile.json allow_compat_mode (silent POSIX fallback) fails the check. */
    private Boolean forbidCompatMode;

    public List<String> getFilesystems() {
        return filesystems;
    }

    public void setFilesystems(List<String> filesystems) {
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
}
