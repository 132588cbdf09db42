package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.Rules;

/**
 * A file-system directory an acceptance run measures (GPFS, NFS, ...), over whatever transport its
 * file system uses now. The run writes one file of its own there, {@code rdmastorage-acceptance-<run>.fio}
 * ({@code fileSizeMiB} large), reads it with the read-only workloads and removes it; nothing else in
 * the directory is touched, and an existing file of that name makes the run fail rather than be
 * overwritten. A file system such as GPFS cannot switch its transport without restarting its
 * daemon, so RDMA is compared with TCP across two runs: {@code compareWith} names the earlier one.
 */
@JsonClassDescription("A file-system directory to measure (GPFS, NFS, ...) over the transport its file system uses now. The run writes one file of its own there (rdmastorage-acceptance-<run>.fio), reads it and removes it; nothing else is touched.")
public class AcceptancePathTarget {

    @JsonPropertyDescription("Absolute directory on the node, such as /gpfs/fs0/acceptance/ (no .., no white space, not under /proc, /sys, /dev).")
    @Required
    @Pattern(Rules.ACCEPTANCE_DIRECTORY_REGEX)
    @Size(max = Rules.ACCEPTANCE_DIRECTORY_MAX_LENGTH)
    @ValidationRule(value = "!(self in ['/proc', '/proc/', '/sys', '/sys/', '/dev', '/dev/']) && !self.startsWith('/proc/') "
            + "&& !self.startsWith('/sys/') && !self.startsWith('/dev/')",
            message = "must be a directory on a file system, not under /proc, /sys or /dev")
    private String directory;

    @JsonPropertyDescription("Size of the run's one file in MiB (default 4096: more than the caches between the node and the disks hold).")
    @Default("" + AcceptanceSpec.Path.DEFAULT_FILE_SIZE_MIB)
    @Min(AcceptanceSpec.Path.MIN_FILE_SIZE_MIB)
    @Max(AcceptanceSpec.Path.MAX_FILE_SIZE_MIB)
    private Integer fileSizeMiB;

    @JsonPropertyDescription("An earlier RdmaStorageAcceptance to put beside this one: Succeeded, with a path target on the same directory of the same node and the same workloads (typically the same directory measured before the file system's transport was switched).")
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @Size(max = RdmaStorageProfile.MAX_NAME_LENGTH)
    private String compareWith;

    public String getDirectory() {
        return directory;
    }

    public void setDirectory(String directory) {
        this.directory = directory;
    }

    public Integer getFileSizeMiB() {
        return fileSizeMiB;
    }

    public void setFileSizeMiB(Integer fileSizeMiB) {
        this.fileSizeMiB = fileSizeMiB;
    }

    public String getCompareWith() {
        return compareWith;
    }

    public void setCompareWith(String compareWith) {
        this.compareWith = compareWith;
    }
}
