package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Filesystems GPUDirect Storage can serve, named as node-probe names gdscheck's rows
 * (ProbeSpec.GDS_FILESYSTEMS; a test keeps the two lists equal). An enum so that the CRD refuses
 * anything else with the list of supported values.
 */
@JsonClassDescription("A filesystem GPUDirect Storage can serve: nvme, nvmeof, scsi, gpfs, nfs, lustre, beegfs or wekafs.")
public enum GdsFilesystem {
    @JsonProperty("nvme") NVME,
    @JsonProperty("nvmeof") NVMEOF,
    @JsonProperty("scsi") SCSI,
    @JsonProperty("gpfs") GPFS,
    @JsonProperty("nfs") NFS,
    @JsonProperty("lustre") LUSTRE,
    @JsonProperty("beegfs") BEEGFS,
    @JsonProperty("wekafs") WEKAFS;

    /** The name in a profile and in the probe's spec: nvme, gpfs, ... */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
